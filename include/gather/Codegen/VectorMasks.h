//===- VectorMasks.h - vector.mask folded into memory ops -------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The lowering of `vector.mask` around the vector ops that access memory
// (`vector.gather`, `vector.transfer_read`, `vector.transfer_write`), as
// upstream's vectorizer emits them for tiles that do not divide the shape:
// each becomes the op alone, with the `vector.mask`'s mask ANDed into its own
// mask operand, so that a lane disabled by either mask is neither loaded nor
// stored. Used by `gather-lower-vector-masks` and `gather-select-form`.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CODEGEN_VECTORMASKS_H
#define GATHER_CODEGEN_VECTORMASKS_H

#include "mlir/IR/PatternMatch.h"

namespace gather {

/// Adds the patterns that replace a `vector.mask` around a `vector.gather`,
/// `vector.transfer_read` or `vector.transfer_write` by the op with both masks
/// ANDed (and, for a read with a pass-through, an `arith.select` of it). Their
/// root is `vector.mask`; one they cannot fold stays.
void populateLowerVectorMasksPatterns(mlir::RewritePatternSet &patterns);

} // namespace gather

#endif // GATHER_CODEGEN_VECTORMASKS_H
