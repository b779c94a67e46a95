//===- ONNXControlFlowOps.cpp - onnx.If, onnx.Loop, onnx.Yield ------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The verifiers of the ONNX control-flow ops (ONNXOps.td, "Control flow").
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/ONNXOps.h"

#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace gather::ONNX;

bool gather::ONNX::areCompatibleValueTypes(Type a, Type b) {
  if (a == b)
    return true;
  auto aTensor = dyn_cast<TensorType>(a);
  auto bTensor = dyn_cast<TensorType>(b);
  return aTensor && bTensor &&
         aTensor.getElementType() == bTensor.getElementType() &&
         succeeded(verifyCompatibleShape(aTensor, bTensor));
}

/// Whether `type` is a tensor that may hold one element: a static shape of
/// one element, or a dynamic or unranked one.
static bool mayHoldOneElement(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return true;
  for (int64_t size : ranked.getShape())
    if (!ShapedType::isDynamic(size) && size != 1)
      return false;
  return true;
}

/// The onnx.Yield that ends `region` of `op`, or null after an error.
static YieldOp getYield(Operation *op, Region &region, StringRef name) {
  auto yield = dyn_cast<YieldOp>(region.front().getTerminator());
  if (!yield)
    op->emitOpError("region '") << name << "' must end in onnx.Yield";
  return yield;
}

LogicalResult IfOp::verify() {
  if (!mayHoldOneElement(getCond().getType()))
    return emitOpError("condition must hold one element, but has type ")
           << getCond().getType();
  for (auto [region, name] :
       {std::pair<Region *, StringRef>{&getThenBranch(), "then_branch"},
        {&getElseBranch(), "else_branch"}}) {
    YieldOp yield = getYield(*this, *region, name);
    if (!yield)
      return failure();
    if (yield.getNumOperands() != getNumResults())
      return emitOpError("region '")
             << name << "' yields " << yield.getNumOperands()
             << " values, but the op has " << getNumResults() << " results";
    for (auto [index, value, type] :
         llvm::enumerate(yield.getOperandTypes(), getResultTypes()))
      if (!areCompatibleValueTypes(value, type))
        return emitOpError("region '")
               << name << "' yields " << value << " as value " << index
               << ", which is not compatible with the result type " << type;
  }
  return success();
}

LogicalResult LoopOp::verify() {
  for (auto [value, name] :
       {std::pair<Value, StringRef>{getM(), "M"}, {getCond(), "cond"}})
    if (!mayHoldOneElement(value.getType()))
      return emitOpError("operand '")
             << name << "' must hold one element, but has type "
             << value.getType();
  unsigned numCarried = getVInitial().size();
  if (getNumResults() < numCarried)
    return emitOpError("has ") << numCarried << " loop-carried values but only "
                               << getNumResults() << " results";
  Block &body = getBody().front();
  if (body.getNumArguments() != 2 + numCarried)
    return emitOpError("body must take 2 + ")
           << numCarried << " arguments (iteration number, condition, "
           << "loop-carried values), but takes " << body.getNumArguments();
  auto isTensorOf = [](Type type, unsigned width) {
    auto tensor = dyn_cast<TensorType>(type);
    return tensor && tensor.getElementType().isSignlessInteger(width) &&
           mayHoldOneElement(type);
  };
  if (!isTensorOf(body.getArgument(0).getType(), 64))
    return emitOpError("body argument 0 (the iteration number) must be a "
                       "tensor<i64>, not ")
           << body.getArgument(0).getType();
  if (!isTensorOf(body.getArgument(1).getType(), 1))
    return emitOpError("body argument 1 (the condition) must be a "
                       "tensor<i1>, not ")
           << body.getArgument(1).getType();
  for (auto [index, initial] : llvm::enumerate(getVInitial())) {
    Type argument = body.getArgument(2 + index).getType();
    if (!areCompatibleValueTypes(initial.getType(), argument))
      return emitOpError("loop-carried value ")
             << index << " starts as " << initial.getType()
             << ", which is not compatible with the body's argument type "
             << argument;
  }
  YieldOp yield = getYield(*this, getBody(), "body");
  if (!yield)
    return failure();
  if (yield.getNumOperands() != 1 + getNumResults())
    return emitOpError("body yields ")
           << yield.getNumOperands() << " values, but must yield 1 + "
           << getNumResults() << " (the condition and one per result)";
  if (!isTensorOf(yield.getOperand(0).getType(), 1))
    return emitOpError("body yields ")
           << yield.getOperand(0).getType()
           << " as its condition, which must be a tensor<i1>";
  for (auto [index, result] : llvm::enumerate(getResults())) {
    Type yielded = yield.getOperand(1 + index).getType();
    if (index < numCarried) {
      if (!areCompatibleValueTypes(yielded, result.getType()) ||
          !areCompatibleValueTypes(yielded,
                                   body.getArgument(2 + index).getType()))
        return emitOpError("body yields ")
               << yielded << " as loop-carried value " << index
               << ", which is not compatible with its result type "
               << result.getType() << " and body argument type "
               << body.getArgument(2 + index).getType();
      continue;
    }
    // A scan output: each iteration's value stacked along a new first
    // dimension.
    auto slice = dyn_cast<TensorType>(yielded);
    auto stacked = dyn_cast<TensorType>(result.getType());
    bool compatible =
        slice && stacked && slice.getElementType() == stacked.getElementType();
    if (compatible && slice.hasRank() && stacked.hasRank())
      compatible = stacked.getRank() == slice.getRank() + 1 &&
                   succeeded(verifyCompatibleShape(
                       stacked.getShape().drop_front(), slice.getShape()));
    if (!compatible)
      return emitOpError("body yields ")
             << yielded << " as scan output " << index - numCarried
             << ", which is not compatible with its result type "
             << result.getType()
             << " (the values stacked along a new first dimension)";
  }
  return success();
}

LogicalResult YieldOp::verify() {
  if (isa<FunctionOpInterface>((*this)->getParentOp()))
    return emitOpError("ends a subgraph of an ONNX control-flow op "
                       "(onnx.If, onnx.Loop, onnx.Scan); a function ends in "
                       "onnx.Return or func.return");
  return success();
}
