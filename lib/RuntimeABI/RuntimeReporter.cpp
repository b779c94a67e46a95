//===- RuntimeReporter.cpp - Run-time reports in compiled code ------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/RuntimeABI/RuntimeReporter.h"
#include "gather/Support/Diagnostics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace gather;

/// The symbol `name` of `module`, through `symbols` if given.
static Operation *lookupSymbol(ModuleOp module, SymbolTable *symbols,
                               StringRef name) {
  return symbols ? symbols->lookup(name) : module.lookupSymbol(name);
}

FailureOr<LLVM::GlobalOp> gather::getOrCreateErrorSinkGlobal(
    ModuleOp module, OpBuilder::Listener *listener, SymbolTable *symbols) {
  MLIRContext *context = module.getContext();
  if (Operation *symbol = lookupSymbol(module, symbols, kErrorSinkName)) {
    if (failed(verifyErrorSink(symbol)))
      return failure();
    return cast<LLVM::GlobalOp>(symbol);
  }
  LLVM::LLVMStructType type = getErrorSinkType(context);
  OpBuilder builder(context, listener);
  builder.setInsertionPointToStart(module.getBody());
  Location loc = module.getLoc();
  auto global = LLVM::GlobalOp::create(builder, loc, type,
                                       /*isConstant=*/false,
                                       LLVM::Linkage::Weak, kErrorSinkName,
                                       /*value=*/Attribute());
  Block *body = builder.createBlock(&global.getInitializerRegion());
  builder.setInsertionPointToStart(body);
  Value zero = LLVM::ZeroOp::create(builder, loc, type);
  LLVM::ReturnOp::create(builder, loc, zero);
  if (symbols)
    symbols->insert(global);
  return global;
}

/// The location text of a report site made by getOrCreateLocationGlobal
/// (the string constant of its initializer), or null.
static StringAttr getSiteText(LLVM::GlobalOp global) {
  Block *body = global.getInitializerBlock();
  if (!body)
    return {};
  for (auto constant : body->getOps<LLVM::ConstantOp>())
    if (auto text = dyn_cast<StringAttr>(constant.getValue()))
      return text;
  return {};
}

LLVM::GlobalOp gather::getOrCreateLocationGlobal(ModuleOp module, Location loc,
                                                 OpBuilder::Listener *listener,
                                                 SymbolTable *symbols) {
  std::string text = formatRuntimeLocation(loc);
  text.push_back('\0');
  MLIRContext *context = loc.getContext();
  std::string base =
      "__gather_location_" + llvm::utohexstr(llvm::xxh3_64bits(text));
  std::string name = base;
  for (unsigned suffix = 0;; ++suffix) {
    Operation *symbol = lookupSymbol(module, symbols, name);
    auto global = dyn_cast_or_null<LLVM::GlobalOp>(symbol);
    StringAttr value = global ? getSiteText(global) : StringAttr();
    if (value && value.getValue() == text)
      return global;
    if (!symbol)
      break;
    name = base + "_" + std::to_string(suffix);
  }

  // { ptr @__gather_error_sink, [N x i8] "text\0" } (a null sink if the
  // module's symbol is not one: verifyRuntimeSymbols reported it).
  FailureOr<LLVM::GlobalOp> sink =
      getOrCreateErrorSinkGlobal(module, listener, symbols);
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto chars =
      LLVM::LLVMArrayType::get(IntegerType::get(context, 8), text.size());
  auto type = LLVM::LLVMStructType::getLiteral(context, {ptr, chars});
  OpBuilder builder(context, listener);
  builder.setInsertionPointToStart(module.getBody());
  Location at = module.getLoc();
  auto global = LLVM::GlobalOp::create(builder, at, type, /*isConstant=*/true,
                                       LLVM::Linkage::Private, name,
                                       /*value=*/Attribute());
  builder.setInsertionPointToStart(
      builder.createBlock(&global.getInitializerRegion()));
  Value sinkAddress = succeeded(sink)
                          ? Value(LLVM::AddressOfOp::create(builder, at, *sink))
                          : Value(LLVM::ZeroOp::create(builder, at, ptr));
  Value textValue = LLVM::ConstantOp::create(
      builder, at, Type(chars), Attribute(StringAttr::get(context, text)));
  Value site = LLVM::UndefOp::create(builder, at, type);
  site = LLVM::InsertValueOp::create(builder, at, site, sinkAddress,
                                     ArrayRef<int64_t>{0});
  site = LLVM::InsertValueOp::create(builder, at, site, textValue,
                                     ArrayRef<int64_t>{1});
  LLVM::ReturnOp::create(builder, at, site);
  if (symbols)
    symbols->insert(global);
  return global;
}

Value RuntimeReporter::getLocation(OpBuilder &b, Location at) {
  if (!locationPoint)
    return LLVM::AddressOfOp::create(
        b, at, getOrCreateLocationGlobal(module, loc, listener));
  if (location)
    return location;
  LLVM::GlobalOp global = getOrCreateLocationGlobal(module, loc, listener);
  // (Through the listener: a rewriter sees the new op.)
  OpBuilder builder(loc.getContext(), listener);
  builder.restoreInsertionPoint(*locationPoint);
  location = LLVM::AddressOfOp::create(builder, loc, global);
  return location;
}

void RuntimeReporter::report(OpBuilder &b, Location at,
                             RuntimeFunction function,
                             RuntimeArgumentBuilder arguments) {
  func::FuncOp callee = getFunction(function);
  SmallVector<Value> values = {getLocation(b, at)};
  llvm::append_range(values, arguments(b, at));
  func::CallOp::create(b, at, callee, values);
}

void RuntimeReporter::reportIf(OpBuilder &b, Location at, Value condition,
                               RuntimeFunction function,
                               RuntimeArgumentBuilder arguments) {
  getFunction(function);
  scf::IfOp::create(b, at, condition, [&](OpBuilder &nb, Location nl) {
    report(nb, nl, function, arguments);
    scf::YieldOp::create(nb, nl);
  });
}

void RuntimeConditions::require(OpBuilder &b, Location loc, Value holds,
                                RuntimeFunction function,
                                RuntimeArgumentBuilder arguments) {
  if (reporter) {
    Value reportNow = arith::XOrIOp::create(
        b, loc, holds, arith::ConstantIntOp::create(b, loc, 1, 1));
    if (allHold)
      reportNow = arith::AndIOp::create(b, loc, reportNow, allHold);
    reporter->reportIf(b, loc, reportNow, function, arguments);
  }
  assume(b, loc, holds);
}

void RuntimeConditions::assume(OpBuilder &b, Location loc, Value holds) {
  allHold = allHold ? arith::AndIOp::create(b, loc, allHold, holds).getResult()
                    : holds;
}
