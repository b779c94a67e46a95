//===- RuntimeReporter.h - Run-time reports in compiled code ----*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// IR that calls gather's runtime report functions (RuntimeABI.h) for one op:
// the op's location as a string constant, the declaration of each function,
// `scf.if` + `func.call` guarded reports, and RuntimeConditions, the
// conjunction of run-time conditions that reports only the first one
// violated. Used by the lowering of onnx.GatherElements, its sharding and
// onnx-check-gather-destinations.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIMEABI_RUNTIMEREPORTER_H
#define GATHER_RUNTIMEABI_RUNTIMEREPORTER_H

#include "gather/RuntimeABI/RuntimeABI.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace gather {

/// The module's error sink (kErrorSinkName in RuntimeABI.h), created
/// through `listener` (may be null) if needed. Fails with a located error
/// if `module` has a symbol of that name that is not such a global.
/// `symbols` (may be null) is `module`'s symbol table, for lookups in
/// constant time when a pass makes many reports; it gets the new globals.
llvm::FailureOr<mlir::LLVM::GlobalOp>
getOrCreateErrorSinkGlobal(mlir::ModuleOp module,
                           mlir::OpBuilder::Listener *listener = nullptr,
                           mlir::SymbolTable *symbols = nullptr);

/// The report site of `loc` (GatherReportSite in GatherRuntime.h): a private
/// constant llvm.mlir.global of `module` holding the address of the module's
/// error sink and the text of formatRuntimeLocation(`loc`)
/// (gather/Support/Diagnostics.h), NUL-terminated; the `site` argument of
/// the runtime's report functions, shared by every op with the same text
/// and created through `listener` (may be null) if needed; `symbols` as
/// above. Callers check reserved names first (verifyRuntimeSymbols), which
/// include the sink's.
mlir::LLVM::GlobalOp
getOrCreateLocationGlobal(mlir::ModuleOp module, mlir::Location loc,
                          mlir::OpBuilder::Listener *listener = nullptr,
                          mlir::SymbolTable *symbols = nullptr);

/// Builds, in a report's `scf.if` block, the arguments of a runtime report
/// after its `location`.
using RuntimeArgumentBuilder =
    llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::OpBuilder &,
                                                      mlir::Location)>;

/// Emits the run-time reports of the op at `loc` in `module` (callers check
/// reserved names first, see verifyRuntimeSymbols).
class RuntimeReporter {
public:
  /// The location global is created through `listener` (may be null).
  RuntimeReporter(mlir::ModuleOp module, mlir::Location loc,
                  mlir::OpBuilder::Listener *listener = nullptr)
      : module(module), loc(loc), listener(listener) {}

  /// Takes the address of the location string once, at `point` (which must
  /// dominate every report), through the listener, instead of at each
  /// report.
  void setLocationInsertionPoint(mlir::OpBuilder::InsertPoint point) {
    locationPoint = point;
  }

  /// A pointer to the op's report site (getOrCreateLocationGlobal): at
  /// the insertion point of `b`, or the one given to
  /// setLocationInsertionPoint.
  mlir::Value getLocation(mlir::OpBuilder &b, mlir::Location at);

  /// The declaration of `function` in the module.
  mlir::func::FuncOp getFunction(RuntimeFunction function) {
    return getOrDeclareRuntimeFunction(module, function);
  }

  /// `scf.if %condition { func.call @function(location, arguments...) }`,
  /// the arguments built in the block.
  void reportIf(mlir::OpBuilder &b, mlir::Location at, mlir::Value condition,
                RuntimeFunction function, RuntimeArgumentBuilder arguments);

  /// `func.call @function(location, arguments...)`.
  void report(mlir::OpBuilder &b, mlir::Location at, RuntimeFunction function,
              RuntimeArgumentBuilder arguments);

private:
  mlir::ModuleOp module;
  mlir::Location loc;
  mlir::OpBuilder::Listener *listener;
  std::optional<mlir::OpBuilder::InsertPoint> locationPoint;
  /// The address taken at `locationPoint`.
  mlir::Value location;
};

/// The conjunction of run-time conditions (i1 values), checked one after
/// the other: with a reporter, a violated condition is reported only if
/// every condition before it held (the first violation is reported, not
/// its consequences).
class RuntimeConditions {
public:
  /// Reports through `reporter`, or nothing if it is null (the conjunction
  /// is still built).
  explicit RuntimeConditions(RuntimeReporter *reporter) : reporter(reporter) {}

  /// Adds `holds`; with a reporter, calls `function(location, arguments...)`
  /// when it does not hold and all conditions before it did.
  void require(mlir::OpBuilder &b, mlir::Location loc, mlir::Value holds,
               RuntimeFunction function, RuntimeArgumentBuilder arguments);

  /// Adds `holds`, unreported.
  void assume(mlir::OpBuilder &b, mlir::Location loc, mlir::Value holds);

  /// The conjunction of the conditions added, or null if there are none.
  mlir::Value getConjunction() const { return allHold; }

private:
  RuntimeReporter *reporter;
  mlir::Value allHold;
};

} // namespace gather

#endif // GATHER_RUNTIMEABI_RUNTIMEREPORTER_H
