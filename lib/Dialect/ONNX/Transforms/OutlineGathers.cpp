//===- OutlineGathers.cpp - onnx-outline-gathers --------------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-outline-gathers: every onnx.GatherElements moved into a kernel
// function of its own, called in its place (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/GatherElementsView.h"
#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/Dialect/ONNX/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace gather::ONNX {
#define GEN_PASS_DEF_ONNXOUTLINEGATHERSPASS
#include "gather/Dialect/ONNX/Transforms/Passes.h.inc"
} // namespace gather::ONNX

using namespace mlir;
using namespace gather;

static bool isGatherKernel(func::FuncOp function) {
  return function->hasAttr(ONNX::kGatherKernelAttrName);
}

/// Whether type `source` knows at least what `target` does: a ranked
/// tensor type whose sizes are those of `target` where it has any.
static bool isAtLeastAsPrecise(Type source, Type target) {
  auto ranked = dyn_cast<RankedTensorType>(source);
  if (!ranked)
    return false;
  auto targetRanked = dyn_cast<RankedTensorType>(target);
  if (!targetRanked)
    return isa<UnrankedTensorType>(target);
  if (targetRanked.getRank() != ranked.getRank())
    return false;
  for (auto [s, t] : llvm::zip(ranked.getShape(), targetRanked.getShape()))
    if (!ShapedType::isDynamic(t) && s != t)
      return false;
  return true;
}

/// `value` before the tensor.cast ops that made it less precise (to an
/// unranked or more dynamic type): what the program knew of it.
static Value getMostPreciseSource(Value value) {
  while (auto cast = value.getDefiningOp<tensor::CastOp>()) {
    if (!isAtLeastAsPrecise(cast.getSource().getType(), cast.getType()))
      break;
    value = cast.getSource();
  }
  return value;
}

/// Moves `gather` into a new kernel `<function>_gather_<n>` placed after
/// `after` in `symbolTable` (renamed if the name is taken) and calls the
/// kernel in its place. With `declareOnly`, the kernel is a private
/// declaration and `gather` is erased.
static func::FuncOp outlineGather(Operation *gather, StringRef function,
                                  size_t n, Operation *after,
                                  SymbolTable &symbolTable, bool declareOnly) {
  Location loc = gather->getLoc();
  // The kernel takes the most precise types the program knew (through
  // casts to unranked or dynamic types) and returns what they imply.
  SmallVector<Value> operands(gather->getOperands());
  SmallVector<Type> resultTypes(gather->getResultTypes());
  if (auto elements = dyn_cast<ONNX::GatherElementsOp>(gather)) {
    for (Value &operand : operands)
      operand = getMostPreciseSource(operand);
    Type inferred = ONNX::GatherElementsOp::inferResultType(
        operands[0].getType(), operands[1].getType());
    if (inferred && isAtLeastAsPrecise(inferred, resultTypes[0]))
      resultTypes[0] = inferred;
  }
  OpBuilder builder(after);
  builder.setInsertionPointAfter(after);
  auto kernel = func::FuncOp::create(
      builder, loc, (function + "_gather_" + Twine(n)).str(),
      builder.getFunctionType(ValueRange(operands).getTypes(), resultTypes));
  kernel->setAttr(ONNX::kGatherKernelAttrName, builder.getUnitAttr());
  // Callable from C (and from a host whose own lowering of the declaration
  // calls the same wrapper): `_mlir_ciface_<kernel>`.
  kernel->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  builder.getUnitAttr());
  symbolTable.insert(kernel); // Renamed if the name is taken.

  builder.setInsertionPoint(gather);
  auto call = func::CallOp::create(builder, loc, kernel, operands);
  for (auto [old, result] :
       llvm::zip(gather->getResults(), call.getResults())) {
    Value replacement = result;
    if (result.getType() != old.getType())
      replacement = tensor::CastOp::create(builder, loc, old.getType(), result);
    old.replaceAllUsesWith(replacement);
  }
  if (declareOnly) {
    kernel.setPrivate();
    gather->erase();
    return kernel;
  }
  // The op itself (whichever dialect's, with all its attributes).
  Block *body = kernel.addEntryBlock();
  gather->moveBefore(body, body->end());
  gather->setOperands(body->getArguments());
  for (auto [result, type] : llvm::zip(gather->getResults(), resultTypes))
    result.setType(type);
  builder.setInsertionPointToEnd(body);
  func::ReturnOp::create(builder, loc, gather->getResults());
  return kernel;
}

/// Erases every func.func of `module` (nested modules included) but the
/// kernels, and every other op that refers to one of them (onnx-mlir's
/// onnx.EntryPoint).
static void keepKernelsOnly(ModuleOp module) {
  SmallVector<Operation *> functions;
  module.walk([&](func::FuncOp function) {
    if (!isGatherKernel(function))
      functions.push_back(function);
  });
  llvm::SmallPtrSet<Operation *, 8> referrers;
  for (Operation *function : functions) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(function, module);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses)
      if (llvm::none_of(functions, [&](Operation *erased) {
            return erased->isAncestor(use.getUser());
          }))
        referrers.insert(use.getUser());
  }
  // The outermost ones (one inside another goes with it), found before any
  // is erased.
  SmallVector<Operation *> outermost;
  for (Operation *referrer : referrers)
    if (llvm::none_of(referrers, [&](Operation *other) {
          return other->isProperAncestor(referrer);
        }))
      outermost.push_back(referrer);
  for (Operation *referrer : outermost)
    referrer->erase();
  for (Operation *function : functions)
    function->erase();
}

namespace {

struct ONNXOutlineGathersPass
    : public ONNX::impl::ONNXOutlineGathersPassBase<ONNXOutlineGathersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The functions to outline from, collected first (outlining adds
    // functions): all with a body, in nested modules too, but the kernels.
    SmallVector<func::FuncOp> functions;
    module.walk([&](func::FuncOp function) {
      if (!function.isExternal() && !isGatherKernel(function))
        functions.push_back(function);
    });
    SymbolTableCollection symbolTables;
    for (func::FuncOp function : functions) {
      SmallVector<Operation *> gathers;
      function.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (ONNX::GatherElementsView::get(op))
          gathers.push_back(op);
      });
      SymbolTable &symbolTable = symbolTables.getSymbolTable(
          SymbolTable::getNearestSymbolTable(function->getParentOp()));
      Operation *after = function;
      for (auto [n, gather] : llvm::enumerate(gathers))
        after = outlineGather(gather, function.getSymName(), n, after,
                              symbolTable, emit == ONNX::OutlinedPart::Graph);
    }
    if (emit == ONNX::OutlinedPart::Kernels)
      keepKernelsOnly(module);
  }
};

} // namespace
