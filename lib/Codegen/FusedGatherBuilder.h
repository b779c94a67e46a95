//===- FusedGatherBuilder.h - The loops of a gather -------------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The loop builder of `gather-codegen`: it replaces a gather-like
// linalg.generic and its index check by one hand-built loop nest that
// reads each index value once (serial scf.for loops or a threaded
// scf.forall over the rows; vectors along each row or over groups of short
// rows; prefetches), as a GatherCodegenPlan (CodegenPlan.h) says. The loops
// are built by hand, not with upstream's tiling (scf::tileUsingSCF) and
// vectorization (linalg::vectorize): the fused check, the groups of short
// rows and the per-lane row offsets are what those do not do, and they are
// measured wins (docs/CodeShape.md).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CODEGEN_FUSEDGATHERBUILDER_H
#define GATHER_LIB_CODEGEN_FUSEDGATHERBUILDER_H

#include "CodegenPlan.h"

#include "mlir/IR/PatternMatch.h"

namespace gather::codegen {

/// Replaces `gather` and `plan.check` (if any) by the loops of `plan`
/// (plan.rewrite), with `rewriter`: the result of the gather, and the
/// check's "any index value out of range" as a tensor<i1>.
void buildFusedGather(mlir::RewriterBase &rewriter,
                      mlir::linalg::GenericOp gather,
                      const GatherCodegenPlan &plan);

} // namespace gather::codegen

#endif // GATHER_LIB_CODEGEN_FUSEDGATHERBUILDER_H
