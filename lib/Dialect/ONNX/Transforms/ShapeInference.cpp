//===- ShapeInference.cpp - Refine result types of onnx ops ---------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/Dialect/ONNX/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace gather::ONNX {
#define GEN_PASS_DEF_ONNXSHAPEINFERENCEPASS
#include "gather/Dialect/ONNX/Transforms/Passes.h.inc"
} // namespace gather::ONNX

using namespace mlir;
using namespace gather;

/// Returns the most static tensor type compatible with both `declared` and
/// `inferred` (same element type), or failure if a static dimension or the
/// rank conflicts.
static FailureOr<TensorType> refineType(TensorType declared,
                                        TensorType inferred) {
  if (!declared.hasRank())
    return inferred;
  if (!inferred.hasRank())
    return declared;
  if (declared.getRank() != inferred.getRank())
    return failure();
  SmallVector<int64_t> shape;
  for (auto [d, i] : llvm::zip(declared.getShape(), inferred.getShape())) {
    if (!ShapedType::isDynamic(d) && !ShapedType::isDynamic(i) && d != i)
      return failure();
    shape.push_back(ShapedType::isDynamic(d) ? i : d);
  }
  return TensorType(RankedTensorType::get(shape, declared.getElementType()));
}

/// Gives `value` the type `refined`; users that cannot follow keep the old
/// type through a tensor.cast. onnx ops, func.return and func.call operands
/// follow (the latter two are fixed up at the function level).
static void setRefinedType(Value value, Type refined) {
  Type old = value.getType();
  value.setType(refined);
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : value.getUses())
    uses.push_back(&use);
  Value cast;
  for (OpOperand *use : uses) {
    Operation *user = use->getOwner();
    // (Only ops gather defines: unknown onnx ops are never touched.)
    if ((user->isRegistered() && isa<ONNX::ONNXDialect>(user->getDialect())) ||
        isa<func::ReturnOp>(user))
      continue;
    if (!cast) {
      OpBuilder builder = OpBuilder::atBlockBegin(value.getParentBlock());
      if (Operation *definingOp = value.getDefiningOp())
        builder.setInsertionPointAfter(definingOp);
      cast = tensor::CastOp::create(builder, value.getLoc(), old, value);
    }
    use->set(cast);
  }
}

namespace {

struct ONNXShapeInferencePass
    : public ONNX::impl::ONNXShapeInferencePassBase<ONNXShapeInferencePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Each round refines ops in program order (so chains within a function
    // settle at once), then function results and call results; results
    // refined across calls need another round.
    for (bool changed = true; changed;) {
      changed = false;
      WalkResult walk = module.walk([&](ONNX::GatherElementsOp op) {
        auto declared = cast<TensorType>(op.getType());
        auto inferred =
            cast<TensorType>(ONNX::GatherElementsOp::inferResultType(
                op.getData().getType(), op.getIndices().getType()));
        FailureOr<TensorType> refined = refineType(declared, inferred);
        if (failed(refined)) {
          op.emitOpError("declared result type ")
              << declared << " conflicts with the inferred type " << inferred;
          return WalkResult::interrupt();
        }
        if (*refined != declared) {
          setRefinedType(op.getResult(), *refined);
          changed = true;
        }
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return signalPassFailure();
      // Functions of nested modules too; calls are found from the top.
      SmallVector<func::FuncOp> functions;
      module.walk(
          [&](func::FuncOp function) { functions.push_back(function); });
      for (func::FuncOp function : functions)
        changed |= refineFunctionResults(module, function);
    }
  }

  /// Refines the result types of `function` to the types its func.return
  /// operands now have (when all returns agree and all uses of the function
  /// are direct calls), and the results of those calls. Returns that still
  /// disagree with the function type get a tensor.cast. Returns true if the
  /// function type changed.
  bool refineFunctionResults(ModuleOp module, func::FuncOp function) const {
    if (function.isExternal())
      return false;
    SmallVector<Type> resultTypes(function.getResultTypes());
    bool changed = false;
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(function, module);
    // A public function's signature is an ABI for callers outside the
    // module: it changes only with refine-public-functions.
    bool mayChange = (!function.isPublic() || refinePublicFunctions) && uses &&
                     llvm::all_of(*uses, [](const SymbolTable::SymbolUse &use) {
                       return isa<func::CallOp>(use.getUser());
                     });
    for (unsigned i = 0; mayChange && i < resultTypes.size(); ++i) {
      Type returned;
      bool agree = true;
      function.walk([&](func::ReturnOp ret) {
        Type type = ret.getOperand(i).getType();
        agree &= !returned || returned == type;
        returned = type;
      });
      if (!agree || !returned || returned == resultTypes[i])
        continue;
      resultTypes[i] = returned;
      changed = true;
    }
    if (changed) {
      function.setType(FunctionType::get(
          function.getContext(), function.getArgumentTypes(), resultTypes));
      for (const SymbolTable::SymbolUse &use : *uses) {
        auto call = cast<func::CallOp>(use.getUser());
        for (auto [result, type] : llvm::zip(call.getResults(), resultTypes))
          if (result.getType() != type)
            setRefinedType(result, type);
      }
    }
    function.walk([&](func::ReturnOp ret) {
      for (auto [operand, type] :
           llvm::zip(ret->getOpOperands(), resultTypes)) {
        if (operand.get().getType() == type)
          continue;
        OpBuilder builder(ret);
        operand.set(
            tensor::CastOp::create(builder, ret.getLoc(), type, operand.get()));
      }
    });
    return changed;
  }
};

} // namespace
