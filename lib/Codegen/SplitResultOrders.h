//===- SplitResultOrders.h - One gather per order of results ----*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A gather-like generic whose results are written in several orders (output
// indexing maps that are permutations, not all the identity: a fusion that
// keeps the gather's own result beside a consumer that reads it transposed)
// has no loop order that writes every result along its rows. gather-codegen
// splits it into one gather-like generic per order, each with its loops in
// the order of its results, which it then plans as any other
// (docs/CodeShape.md, "Results in several orders").
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CODEGEN_SPLITRESULTORDERS_H
#define GATHER_LIB_CODEGEN_SPLITRESULTORDERS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace gather::codegen {

/// `op` (hasResultsInOtherOrders) replaced by one generic per distinct
/// output indexing map M, in the order of the results: its loops are M's
/// (every map composed with the inverse of M, linalg.index renumbered), its
/// outputs the results of `op` with map M, its body the part of `op`'s body
/// that they use, its inputs those that part reads. Returns them; none (and
/// `*whyNot` set) where `op` is left as it is: its body reads an output,
/// has an op with memory effects, or a linalg.index in a nested region.
llvm::SmallVector<mlir::linalg::GenericOp>
splitByResultOrder(mlir::RewriterBase &rewriter, mlir::linalg::GenericOp op,
                   llvm::StringRef *whyNot);

} // namespace gather::codegen

#endif // GATHER_LIB_CODEGEN_SPLITRESULTORDERS_H
