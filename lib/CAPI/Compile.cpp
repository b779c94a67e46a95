//===- Compile.cpp - gather-compile from C --------------------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather-c/Compile.h"

#include "gather/Compiler/Compiler.h"
#include "gather/Compiler/InputContext.h"
#include "gather/Support/Diagnostics.h"

#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

MlirLogicalResult mlirGatherCompileFileToLibrary(
    MlirStringRef input, MlirStringRef output, MlirStringRef header,
    MlirStringRef pipelineOptions, int optLevel,
    MlirStringCallback errorCallback, void *userData) {
  gather::InputContext context;
  // Every diagnostic, for the callback (registered last: it sees them
  // first, and nothing reaches the tools' printing handlers below it).
  std::string messages;
  ScopedDiagnosticHandler collect(&context.getContext(),
                                  [&](Diagnostic &diagnostic) {
                                    llvm::raw_string_ostream os(messages);
                                    gather::printDiagnostic(os, diagnostic);
                                    return success();
                                  });
  auto fail = [&](llvm::StringRef why) {
    std::string text = why.str() + (messages.empty() ? "" : ":\n" + messages);
    if (errorCallback)
      errorCallback(mlirStringRefCreate(text.data(), text.size()), userData);
    return mlirLogicalResultFailure();
  };
  if (optLevel < 0 || optLevel > 3)
    return fail("optimization level must be 0-3");
  OwningOpRef<ModuleOp> module = context.read(unwrap(input));
  if (!module)
    return fail("cannot compile '" + unwrap(input).str() + "'");
  gather::CompileOptions options;
  options.pipelineOptions = unwrap(pipelineOptions).str();
  options.optLevel = static_cast<unsigned>(optLevel);
  options.emit = gather::EmitKind::Library;
  options.outputFile = unwrap(output).str();
  options.headerFile = unwrap(header).str();
  if (failed(gather::compileModule(*module, options)))
    return fail("cannot compile '" + unwrap(input).str() + "'");
  return mlirLogicalResultSuccess();
}

MlirLogicalResult mlirGatherCheckLibraryTarget(MlirStringRef target,
                                               MlirStringRef library,
                                               MlirStringCallback errorCallback,
                                               void *userData) {
  llvm::Error error =
      gather::checkLibraryTarget(unwrap(target), unwrap(library));
  if (!error)
    return mlirLogicalResultSuccess();
  std::string text = llvm::toString(std::move(error));
  if (errorCallback)
    errorCallback(mlirStringRefCreate(text.data(), text.size()), userData);
  return mlirLogicalResultFailure();
}
