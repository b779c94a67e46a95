//===- InputContext.cpp - The context and input of a compiling tool -------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Compiler/InputContext.h"
#include "gather/ExecutionEngine/JitCompiler.h"
#include "gather/Support/Diagnostics.h"
#include "gather/Target/ONNX/ImportONNX.h"

#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;

gather::InputContext::InputContext() {
  registerJitDependencies(registry);
  context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  // An error names its op by its location, without printing the op.
  context->printOpOnDiagnostic(false);
  sourceHandler =
      std::make_unique<SourceMgrDiagnosticHandler>(sourceMgr, context.get());
  // Errors at an imported node (registered last: it sees them first).
  registerLocationDiagnosticHandler(context.get());
}

OwningOpRef<ModuleOp> gather::InputContext::read(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (!buffer) {
    emitError(NameLoc::get(StringAttr::get(context.get(), path)))
        << "cannot read the file: " << buffer.getError().message();
    return nullptr;
  }
  if (llvm::sys::path::extension(path) == ".onnx")
    return importONNXModel((*buffer)->getBuffer(), path, context.get());
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, context.get());
}
