//===- GatherElementsView.h - Any onnx.GatherElements, by name --*- C++ -*-===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// The sharding model and onnx-shard-gathers apply to every op named
// `onnx.GatherElements`: gather's, or another `onnx` dialect's (onnx-mlir's)
// registered in its place, which has no C++ class gather knows. They see it
// through this view of its operands and `axis` attribute (onnx-mlir's op:
// operands `data`, `indices`, result `output`, `axis` an si64 attribute,
// default 0).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_DIALECT_ONNX_SHARDING_GATHERELEMENTSVIEW_H
#define GATHER_LIB_DIALECT_ONNX_SHARDING_GATHERELEMENTSVIEW_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace gather::ONNX {

/// The name the sharding model is attached to and the pass looks for.
inline constexpr llvm::StringLiteral kGatherElementsOpName =
    "onnx.GatherElements";

/// An op named `onnx.GatherElements` with two operands, one result, no
/// regions and, if present, a 64-bit integer `axis`.
struct GatherElementsView {
  /// The view of `op`, or nullopt if `op` is not such an op (another name,
  /// other operands, a non-integer `axis`).
  static std::optional<GatherElementsView> get(mlir::Operation *op) {
    if (op->getName().getStringRef() != kGatherElementsOpName ||
        op->getNumOperands() != 2 || op->getNumResults() != 1 ||
        op->getNumRegions() != 0)
      return std::nullopt;
    int64_t axis = 0;
    if (mlir::Attribute attr = op->getAttr("axis")) {
      auto integer = llvm::dyn_cast<mlir::IntegerAttr>(attr);
      if (!integer || !integer.getType().isInteger(64))
        return std::nullopt;
      axis = integer.getValue().getSExtValue();
    }
    return GatherElementsView{op, op->getOperand(0), op->getOperand(1), axis};
  }

  mlir::Value getResult() const { return op->getResult(0); }

  mlir::Operation *op;
  mlir::Value data;
  mlir::Value indices;
  /// As written: in [-r, r-1] for a valid op of rank r (not checked).
  int64_t axis;
};

/// Checks that the elements of `gather`'s `data` can be sent to other
/// processes: integers, floats and complex numbers. Otherwise emits
/// "cannot be sharded over processes: 'data' holds <type> elements, ..." at
/// the op and fails (!onnx.string elements point into one process's memory).
mlir::LogicalResult verifyShardableData(const GatherElementsView &gather);

} // namespace gather::ONNX

#endif // GATHER_LIB_DIALECT_ONNX_SHARDING_GATHERELEMENTSVIEW_H
