//===- RuntimeChecks.h - Run-time checks of onnx.GatherElements -*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to convert-onnx-to-linalg: the IR of the run-time checks of one
// onnx.GatherElements lowering (GatherElements.cpp): the conditions under
// which the gather stays inside its buffers, and the reports, through
// gather's runtime, of the shapes and index values the verifier could not
// check (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CONVERSION_ONNXTOLINALG_RUNTIMECHECKS_H
#define GATHER_LIB_CONVERSION_ONNXTOLINALG_RUNTIMECHECKS_H

#include "gather/RuntimeABI/RuntimeReporter.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace gather::onnx_to_linalg {

/// The run-time checks of the onnx.GatherElements at `loc`.
class GatherElementsChecks {
public:
  /// Reports through `reporter`; with a null one (run-time checks off),
  /// only the guards the gather needs to stay inside its buffers are built.
  /// `anchor` is the op that holds the gather (a function, a loop, ...).
  GatherElementsChecks(mlir::Location loc, RuntimeReporter *reporter,
                       mlir::Operation *anchor)
      : loc(loc), reporter(reporter), anchor(anchor) {}

  /// Whether violations are reported (run-time checks are on).
  bool isReporting() const { return reporter != nullptr; }

  /// Emits the scalar conditions under which the gather reads and writes
  /// only inside its buffers, reporting the first violation when run-time
  /// checks are on:
  ///   - indices.shape[d] <= data.shape[d] for d != axis, where either is
  ///     dynamic (the verifier checked the static ones);
  ///   - indices.shape[d] == resultType.shape[d] where the declared result
  ///     is static but `indices` is not;
  ///   - s > 0 for the axis size s, unless `indices` is statically empty.
  /// Returns their conjunction, or null when nothing needs checking.
  mlir::Value emitShapeChecks(mlir::OpBuilder &b, mlir::Value data,
                              mlir::Value indices, int64_t axis,
                              mlir::RankedTensorType resultType);

  /// Reports (when run-time checks are on) that the unranked operand (data
  /// if `dataIsUnranked`, else indices) has rank `actualRank` instead of
  /// `rank`, unless `rankOk`.
  void emitRankCheck(mlir::OpBuilder &b, mlir::Value rankOk,
                     bool dataIsUnranked, mlir::Value actualRank, int64_t rank);

  /// Whether the index values need a run-time check: not for constant
  /// `indices` on a static axis (the verifier checked them), nor for a
  /// static empty `indices`.
  static bool needsIndexCheck(mlir::Value data, mlir::Value indices,
                              int64_t axis);

  /// Whether any value of `indices` is outside [-s, s-1] (s = `axisSize`):
  /// a linalg.generic reducing all dimensions of `indices` into a
  /// tensor<i1> (OR of !inRange). gather-codegen fuses it into the loop of
  /// the gather over the same `indices` (see emitGather, GatherElements.cpp).
  mlir::Value emitAnyOutOfRange(mlir::OpBuilder &builder, mlir::Location loc,
                                mlir::Value indices, mlir::Value axisSize);

  /// If `anyOutOfRange` (found by the gather), a cold loop reports the bad
  /// index values with their positions (see emitReportBadIndices).
  void emitReportIfOutOfRange(mlir::OpBuilder &b, mlir::Value anyOutOfRange,
                              mlir::Value indices, int64_t axis,
                              mlir::Value axisSize);

private:
  /// A tensor of `type` for scratch values: for a small static shape in a
  /// function body (not inside a loop), a buffer allocated once on the stack
  /// at function entry (no heap allocation per call); otherwise
  /// tensor.empty.
  mlir::Value emitScratch(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::RankedTensorType type,
                          mlir::ValueRange dynamicSizes);

  /// Cold path: walks `indices` in row-major order and reports the first
  /// kMaxReportedIndices values outside [-s, s-1] with their positions, then
  /// how many more there are.
  void emitReportBadIndices(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value indices, int64_t axis,
                            mlir::Value axisSize);

  mlir::Location loc;
  RuntimeReporter *reporter;
  mlir::Operation *anchor;
};

} // namespace gather::onnx_to_linalg

#endif // GATHER_LIB_CONVERSION_ONNXTOLINALG_RUNTIMECHECKS_H
