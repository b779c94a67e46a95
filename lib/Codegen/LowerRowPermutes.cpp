//===- LowerRowPermutes.cpp - The permutes of in-register gathers ---------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements `gather-lower-row-permutes` (see Passes.td): each
// vector.from_elements that gather-codegen marked as an in-register gather
// becomes the target's permute (lowerRowPermute, RowPermute.h).
//
//===----------------------------------------------------------------------===//

#include "RowPermute.h"

#include "gather/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace gather {
#define GEN_PASS_DEF_LOWERROWPERMUTESPASS
#include "gather/Codegen/Passes.h.inc"
} // namespace gather

using namespace mlir;
using namespace gather::codegen;

namespace {

struct LowerRowPermutesPass
    : public gather::impl::LowerRowPermutesPassBase<LowerRowPermutesPass> {
  void runOnOperation() override {
    SmallVector<vector::FromElementsOp> marked;
    getOperation().walk([&](vector::FromElementsOp lanes) {
      if (lanes->hasAttr(kRowPermuteAttrName))
        marked.push_back(lanes);
    });
    IRRewriter rewriter(&getContext());
    for (vector::FromElementsOp lanes : marked)
      (void)lowerRowPermute(rewriter, lanes);
  }
};

} // namespace
