//===- LaneVectorizer.h - Linalg bodies on vector lanes ---------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The small SIMT-style vectorizer of `gather-codegen`: it computes the body
// of a gather-like linalg.generic (or of its index check) for N consecutive
// iterations at once, one per lane, keeping track of which values are the
// same in all lanes, which differ and which are a scalar plus a constant
// per lane, so that the read of `data` becomes one vector.gather whose base
// holds the uniform coordinates. Upstream's linalg::vectorize is not used:
// it vectorizes whole tensors, not the rows and row groups (with per-lane
// row offsets) the loops of FusedGatherBuilder.cpp iterate over.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CODEGEN_LANEVECTORIZER_H
#define GATHER_LIB_CODEGEN_LANEVECTORIZER_H

#include "RowPermute.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace gather::codegen {

/// A value of a vector iteration: the same for every lane (`Uniform`, a
/// scalar), one per lane (`Varying`, a vector), or a scalar plus a
/// constant per lane (`Stepped`: lane i holds value + lanes[i], `lanes` a
/// constant vector of index; a coordinate along a row).
struct LaneValue {
  enum class Kind { Uniform, Varying, Stepped } kind;
  mlir::Value value;
  mlir::Value lanes = {};
};

/// A body computed in two parts (the tiles of a transposing consumer,
/// GatherCodegenPlan::tileDim): up to an op, and from its value on.
struct BodySplit {
  /// Not null: the ops up to this one (of one result), whose value is
  /// then the only one returned.
  mlir::Operation *last = nullptr;
  /// Not null: this op (of one result) is not built; its value is
  /// `givenValue` (a vector).
  mlir::Operation *given = nullptr;
  mlir::Value givenValue;
};

/// Computes bodies (isVectorizableBody, GatherRecognizers.h) on
/// `vectorSize` lanes, with the read of `data` (contiguous, row-major) as
/// one vector.gather.
class LaneVectorizer {
public:
  /// Computes the strides (in elements) of `tensors` (contiguous,
  /// row-major: `data` and the elementwise inputs) at the insertion point
  /// of `b`; `zero` and `one` are index constants there. `offsetBits` (32
  /// or 64): the integer width of the lane offsets of the vector.gather
  /// ops, 32 only when every offset of an element of `tensors` fits
  /// (GatherCodegenPlan::offsetBits).
  LaneVectorizer(mlir::OpBuilder &b, mlir::Location loc, int64_t vectorSize,
                 mlir::ValueRange tensors, mlir::Value zero, mlir::Value one,
                 unsigned offsetBits);

  /// The elements of `tensor` (one of the constructor's) at `coordinates`
  /// (one per dimension of `tensor`), one per lane, all in bounds: one
  /// vector.transfer_read when the lanes are consecutive elements of a
  /// row (the last coordinate the lane positions, the others uniform), a
  /// broadcast of one tensor.extract when all are uniform, a vector.gather
  /// otherwise.
  mlir::Value readLanes(mlir::OpBuilder &b, mlir::Value tensor,
                        llvm::ArrayRef<LaneValue> coordinates) const;

  /// Reads of one row of `tensor` (one of the constructor's, with a static
  /// innermost size that `permute` holds) by lanes (the last coordinate
  /// varying, the others uniform) in the bodies are in-register gathers
  /// (buildRowPermute), not vector.gather ops.
  void setRowPermute(mlir::Value tensor, const RowPermute &permute);

  /// The integer width of the lane offsets of the vector.gather ops built
  /// from now on (as the constructor's `offsetBits`): the loops under a
  /// size guard (GatherCodegenPlan::sizeGuard) are built once with each.
  void setOffsetBits(unsigned bits) { offsetBits = bits; }

  /// `value` + the lane number in each lane.
  LaneValue getLanePositions(mlir::OpBuilder &b, mlir::Value value) const;

  /// The ops of `body` with its arguments replaced by `arguments` and
  /// linalg.index d by `coordinates[d]`; returns the yielded values as
  /// vectors (with `split.last`, that op's value).
  llvm::SmallVector<mlir::Value>
  vectorizeBody(mlir::OpBuilder &b, mlir::Block *body,
                llvm::ArrayRef<LaneValue> arguments,
                llvm::ArrayRef<LaneValue> coordinates,
                const BodySplit &split = {}) const;

private:
  /// The read of `tensor` on the lanes: one vector.gather whose base holds
  /// the coordinates equal in all lanes and whose offsets (integers of
  /// offsetBits, index for 64) the others, linearized with the strides of
  /// `tensor` (a broadcast of one tensor.extract when all are equal).
  mlir::Value buildGather(mlir::OpBuilder &b, mlir::Value tensor,
                          llvm::ArrayRef<LaneValue> coordinates) const;

  mlir::Location loc;
  int64_t vectorSize;
  mlir::Value zero;
  unsigned offsetBits;
  llvm::DenseMap<mlir::Value, llvm::SmallVector<mlir::Value>> strides;
  // setRowPermute's (null tensor: none).
  mlir::Value permutedTensor;
  std::optional<RowPermute> permute;
};

} // namespace gather::codegen

#endif // GATHER_LIB_CODEGEN_LANEVECTORIZER_H
