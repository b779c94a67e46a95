//===- Diagnostics.h - Locations and diagnostics as text --------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How gather writes a location as text (in run-time reports and in its
// tools' diagnostics) and prints diagnostics, and the diagnostic handler of
// its tools.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_SUPPORT_DIAGNOSTICS_H
#define GATHER_SUPPORT_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include <string>

namespace gather {

/// `loc` as text for run-time reports and diagnostics, as MLIR's
/// diagnostics print file locations: `file:line:col` for a file location,
/// `file` for a file without a line; a name location as `<child>: <name>`
/// (an imported ONNX node: `model.onnx: node 'n1' (TopK)`, see
/// gather/Target/ONNX/ImportONNX.h); the locations of a fused location
/// joined with `, `; a call site as its callee. "" when unknown. Control
/// characters in names and file names (NUL, newline, ...) are written as
/// `\XX` (hex) and a backslash as `\\`, so the text is one line, has no
/// NUL and reads back unambiguously.
std::string formatRuntimeLocation(mlir::Location loc);

/// Prints `diag` and its notes to `os`, one line each, as
/// `<location>: <severity>: <message>` with the location as
/// formatRuntimeLocation writes it (`<severity>: <message>` when it is
/// unknown): e.g. `model.onnx: node 'top2' (TopK): error: 'onnx.TopK' op is
/// not lowered by gather ...`, `k.mlir:3:8: error: ...`.
void printDiagnostic(llvm::raw_ostream &os, mlir::Diagnostic &diag);

/// Registers in `context` a diagnostic handler that prints
/// (printDiagnostic, to llvm::errs()) every error whose location holds no
/// file:line:col, such as an imported ONNX node's, which MLIR's
/// SourceMgrDiagnosticHandler would print as `<unknown>:0: error:
/// loc("n"("m.onnx")): ...`; the others go on to the handlers registered
/// before it (which show their source line). Used by gather's tools.
void registerLocationDiagnosticHandler(mlir::MLIRContext *context);

} // namespace gather

#endif // GATHER_SUPPORT_DIAGNOSTICS_H
