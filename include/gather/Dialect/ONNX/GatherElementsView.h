//===- GatherElementsView.h - Any onnx.GatherElements, by name --*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather applies to every op named `onnx.GatherElements`: gather's, or
// another `onnx` dialect's (onnx-mlir's) registered in its place, which has
// no C++ class gather knows, or an unregistered one. The lowering
// (convert-onnx-to-linalg), the destination check
// (onnx-check-gather-destinations), the sharding model and
// onnx-shard-gathers all see it through this view of its operands and
// `axis` attribute (onnx-mlir's op: operands `data`, `indices`, result
// `output`, `axis` an si64 attribute, default 0).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_GATHERELEMENTSVIEW_H
#define GATHER_DIALECT_ONNX_GATHERELEMENTSVIEW_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace gather::ONNX {

/// The name of the ops gather applies to.
inline constexpr llvm::StringLiteral kGatherElementsOpName =
    "onnx.GatherElements";

/// The unit attribute of an onnx.GatherElements whose index values its
/// caller checks (a process's part of a partitioned gather, with the global
/// check of lib/Dialect/ONNX/Sharding/PartitionedGather.h right after it,
/// which gather-codegen fuses into the gather's loops): the lowering checks
/// shapes only, and reads index 0 for a value out of range.
inline constexpr llvm::StringLiteral kIndicesCheckedByCallerAttrName =
    "gather.indices_checked_by_caller";

/// `axis` of a gather of rank `rank` in [0, rank): axis + rank for a
/// negative one (`axis` in [-rank, rank-1], the verifier's rule). The one
/// place that normalizes an axis.
constexpr int64_t normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// An op named `onnx.GatherElements` with two operands, one result, no
/// regions and, if present, a 64-bit integer `axis`.
struct GatherElementsView {
  /// The view of `op`, or nullopt if `op` is not such an op (another name,
  /// other operands, a non-integer `axis`).
  static std::optional<GatherElementsView> get(mlir::Operation *op) {
    if (!op || op->getName().getStringRef() != kGatherElementsOpName)
      return std::nullopt;
    mlir::FailureOr<GatherElementsView> view = match(op, /*emitErrors=*/false);
    if (mlir::failed(view))
      return std::nullopt;
    return *view;
  }

  /// The view of `op`, an op named `onnx.GatherElements`; if it is not such
  /// an op, emits at it the rule it breaks ("expects 2 operands ('data',
  /// 'indices'), 1 result and no regions", "attribute 'axis' must be a
  /// 64-bit integer, but is <attr>") and fails.
  static mlir::FailureOr<GatherElementsView>
  getOrEmitError(mlir::Operation *op) {
    return match(op, /*emitErrors=*/true);
  }

  mlir::Value getResult() const { return op->getResult(0); }

  /// `axis` in [0, r) (normalizeAxis), r the rank of `data`, else of
  /// `indices`; nullopt when neither is ranked or `axis` is out of range.
  std::optional<int64_t> getNormalizedAxis() const {
    auto ranked = llvm::dyn_cast<mlir::ShapedType>(data.getType());
    if (!ranked || !ranked.hasRank())
      ranked = llvm::dyn_cast<mlir::ShapedType>(indices.getType());
    if (!ranked || !ranked.hasRank())
      return std::nullopt;
    int64_t rank = ranked.getRank();
    if (axis < -rank || axis >= rank)
      return std::nullopt;
    return normalizeAxis(axis, rank);
  }

  mlir::Operation *op;
  mlir::Value data;
  mlir::Value indices;
  /// As written: in [-r, r-1] for a valid op of rank r (not checked).
  int64_t axis;

private:
  static mlir::FailureOr<GatherElementsView> match(mlir::Operation *op,
                                                   bool emitErrors) {
    if (op->getNumOperands() != 2 || op->getNumResults() != 1 ||
        op->getNumRegions() != 0) {
      if (emitErrors)
        return op->emitOpError("expects 2 operands ('data', 'indices'), 1 "
                               "result and no regions");
      return mlir::failure();
    }
    int64_t axis = 0;
    if (mlir::Attribute attr = op->getAttr("axis")) {
      auto integer = llvm::dyn_cast<mlir::IntegerAttr>(attr);
      if (!integer || !integer.getType().isInteger(64)) {
        if (emitErrors)
          return op->emitOpError("attribute 'axis' must be a 64-bit integer, "
                                 "but is ")
                 << attr;
        return mlir::failure();
      }
      axis = integer.getValue().getSExtValue();
    }
    return GatherElementsView{op, op->getOperand(0), op->getOperand(1), axis};
  }
};

} // namespace gather::ONNX

#endif // GATHER_DIALECT_ONNX_GATHERELEMENTSVIEW_H
