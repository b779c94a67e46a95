//===- gather-lsp-server.cpp - MLIR language server with gather -----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MLIR's language server (mlir-lsp-server: diagnostics, hover, go to
// definition, completion) knowing the onnx dialect and every dialect
// gather-opt knows. Editors start it over stdio, e.g. the VS Code MLIR
// extension with "mlir.server_path": "<prefix>/bin/gather-lsp-server".
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Pipelines.h"
#include "gather/Support/ToolMain.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

static int toolMain(int argc, char **argv) {
  mlir::DialectRegistry registry;
  gather::registerONNXToLLVMPipelineDependencies(registry);
  // Any MLIR, as mlir-lsp-server reads it, beside what the pipeline needs.
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}

// Out of memory and fatal errors as located errors, a large stack.
int main(int argc, char **argv) {
  return gather::runToolMain(argc, argv, toolMain);
}
