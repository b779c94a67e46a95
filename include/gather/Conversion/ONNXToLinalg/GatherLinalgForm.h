//===- GatherLinalgForm.h - The linalg form of a gather ---------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The contract between the lowering (`convert-onnx-to-linalg`, which emits
// it) and the code generation (`gather-codegen`, which recognizes it): the
// two linalg.generic ops of one GatherElements, each tagged with a
// discardable unit attribute named here.
//
// `gather.elements`: the gather. Ranked tensors; all-parallel iterators
// over the shape of `indices`; one input (`indices`) and one output (a
// tensor.empty), both with identity maps; a body that does not read its
// output argument and holds exactly one tensor.extract, the read of `data`
// (a tensor defined outside the body), at linalg.index d for every d but
// the axis and at the index value, normalized and clamped into range, at
// the axis. The body never reads outside `data`.
//
// `gather.index_check`: "is any index value out of range", emitted right
// after the gather in the same block when the index values are checked at
// run time. All-reduction iterators over the same `indices` (identity map)
// into a tensor<i1> (empty map); a body without linalg.index that yields
// `arith.ori` of its accumulator (used nowhere else) and "out of range" of
// the index value. Nothing between the two ops uses the gather's result.
//
// gather-codegen fuses the two into one loop nest that reads every index
// value once. The markers are discardable: passes may drop them, and other
// producers do not set them, so gather-codegen also recognizes the shapes
// above without markers (structurally, as before the markers existed). What
// the markers add: a marked gather that gather-codegen does not recognize,
// or a marked gather whose marked index check it cannot fuse, gets a
// warning and stays as it is (correct, unfused code), so a change of the
// lowering's IR breaks tests (test/Codegen/codegen-contract.mlir) instead of
// silently turning the fusion off.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_ONNXTOLINALG_GATHERLINALGFORM_H
#define GATHER_CONVERSION_ONNXTOLINALG_GATHERLINALGFORM_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/StringRef.h"

namespace gather {

/// The unit attribute on the gather's linalg.generic.
inline constexpr llvm::StringLiteral kGatherElementsAttrName =
    "gather.elements";

/// The unit attribute on the linalg.generic of the gather's index check.
inline constexpr llvm::StringLiteral kGatherIndexCheckAttrName =
    "gather.index_check";

/// The marker of a gather, for the `attributes` of linalg::GenericOp::create.
inline mlir::NamedAttribute getGatherElementsMarker(mlir::Builder &builder) {
  return builder.getNamedAttr(kGatherElementsAttrName, builder.getUnitAttr());
}

/// The marker of an index check, for linalg::GenericOp::create.
inline mlir::NamedAttribute getGatherIndexCheckMarker(mlir::Builder &builder) {
  return builder.getNamedAttr(kGatherIndexCheckAttrName, builder.getUnitAttr());
}

/// Whether `op` carries the marker of a gather.
inline bool isMarkedGatherElements(mlir::Operation *op) {
  return op->hasAttr(kGatherElementsAttrName);
}

/// Whether `op` carries the marker of an index check.
inline bool isMarkedGatherIndexCheck(mlir::Operation *op) {
  return op->hasAttr(kGatherIndexCheckAttrName);
}

} // namespace gather

#endif // GATHER_CONVERSION_ONNXTOLINALG_GATHERLINALGFORM_H
