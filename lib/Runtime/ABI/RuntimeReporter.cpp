//===- RuntimeReporter.cpp - Run-time reports in compiled code ------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Runtime/RuntimeReporter.h"
#include "gather/Support/Diagnostics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace gather;

LLVM::GlobalOp
gather::getOrCreateLocationGlobal(ModuleOp module, Location loc,
                                  OpBuilder::Listener *listener) {
  std::string text = formatRuntimeLocation(loc);
  text.push_back('\0');
  MLIRContext *context = loc.getContext();
  std::string base =
      "__gather_location_" + llvm::utohexstr(llvm::xxh3_64bits(text));
  std::string name = base;
  for (unsigned suffix = 0;; ++suffix) {
    Operation *symbol = module.lookupSymbol(name);
    auto global = dyn_cast_or_null<LLVM::GlobalOp>(symbol);
    auto value = global ? dyn_cast_or_null<StringAttr>(global.getValueOrNull())
                        : StringAttr();
    if (value && value.getValue() == text)
      return global;
    if (!symbol) {
      OpBuilder builder(context, listener);
      builder.setInsertionPointToStart(module.getBody());
      return LLVM::GlobalOp::create(
          builder, module.getLoc(),
          LLVM::LLVMArrayType::get(IntegerType::get(context, 8), text.size()),
          /*isConstant=*/true, LLVM::Linkage::Private, name,
          StringAttr::get(context, text));
    }
    name = base + "_" + std::to_string(suffix);
  }
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
