//===- PrintEntryResults.cpp - gather-print-entry-results -----------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather-print-entry-results (include/gather/Pipelines/Passes.td): an entry
// function that returns tensors, wrapped by one that prints them.
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Passes.h"
#include "gather/RuntimeABI/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

namespace gather {
#define GEN_PASS_DEF_PRINTENTRYRESULTSPASS
#include "gather/Pipelines/Passes.h.inc"
} // namespace gather

using namespace mlir;

/// If the entry function `name` takes no arguments and returns tensors,
/// renames it and puts in its place a function that calls it and prints each
/// result with the runtime's gatherPrint<T>.
static LogicalResult wrapEntryResults(ModuleOp module, StringRef name) {
  auto entry = module.lookupSymbol<func::FuncOp>(name);
  if (!entry || entry.isExternal() || entry.getNumArguments() != 0 ||
      entry.getNumResults() == 0 ||
      !llvm::all_of(entry.getResultTypes(), llvm::IsaPred<TensorType>))
    return success();
  for (Type type : entry.getResultTypes())
    if (gather::getRuntimeTypeSuffix(cast<TensorType>(type).getElementType())
            .empty())
      return entry.emitError("cannot print results of type ") << type;

  MLIRContext *context = module.getContext();

  SymbolTable symbolTable(module);
  if (failed(symbolTable.renameToUnique(entry, {&symbolTable})))
    return entry.emitError("cannot rename the entry function");
  entry.setPrivate();

  Location loc = entry.getLoc();
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto wrapper = func::FuncOp::create(builder, loc, name,
                                      FunctionType::get(context, {}, {}));
  builder.setInsertionPointToStart(wrapper.addEntryBlock());
  auto call = func::CallOp::create(builder, loc, entry, ValueRange());
  for (auto [index, result] : llvm::enumerate(call.getResults())) {
    Type elementType = cast<TensorType>(result.getType()).getElementType();
    auto unrankedType = UnrankedTensorType::get(elementType);
    FailureOr<func::FuncOp> print = gather::getOrDeclareRuntimeFunction(
        module, gather::RuntimeTensorFunction::Print, elementType);
    if (failed(print))
      return failure();
    Value unranked = tensor::CastOp::create(builder, loc, unrankedType, result);
    Value indexValue = arith::ConstantIntOp::create(
        builder, loc, static_cast<int64_t>(index), 64);
    Value args[] = {unranked, indexValue};
    func::CallOp::create(builder, loc, *print, args);
  }
  func::ReturnOp::create(builder, loc);
  return success();
}

namespace {
struct PrintEntryResultsPass
    : gather::impl::PrintEntryResultsPassBase<PrintEntryResultsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(wrapEntryResults(getOperation(), entry)))
      signalPassFailure();
  }
};
} // namespace
