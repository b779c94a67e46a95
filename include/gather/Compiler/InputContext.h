//===- InputContext.h - The context and input of a compiling tool -*- C++
//-*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What gather-compile and gather-run share before they compile: a context
// with the pipeline's dialects and translations (registerJitDependencies),
// whose errors print at their source line (MLIR input) or at the imported
// node (`model.onnx: node 'pick' (GatherElements): error: ...`) without
// the op printed after them, and the input read as an ONNX model (a name
// ending in .onnx) or as MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_COMPILER_INPUTCONTEXT_H
#define GATHER_COMPILER_INPUTCONTEXT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>

namespace gather {

class InputContext {
public:
  InputContext();

  mlir::MLIRContext &getContext() { return *context; }

  /// Reads `path` (`-`: stdin): an ONNX model if the name ends in `.onnx`,
  /// otherwise MLIR text. Null after an error, which was reported (an
  /// unreadable file: `<path>: error: cannot read the file: <why>`).
  mlir::OwningOpRef<mlir::ModuleOp> read(llvm::StringRef path);

private:
  mlir::DialectRegistry registry;
  std::unique_ptr<mlir::MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> sourceHandler;
};

} // namespace gather

#endif // GATHER_COMPILER_INPUTCONTEXT_H
