//===- my-opt.cpp - A downstream mlir-opt with gather ---------------------===//
//
// Part of the gather project (an example of using an installed gather).
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An mlir-opt of one's own: gather's onnx dialect, passes and onnx-to-llvm
// pipeline registered next to upstream dialects and passes.
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses(); // upstream: canonicalize, cse, inline, ...
  gather::registerAllPasses();      // gather's passes and onnx-to-llvm
  mlir::DialectRegistry registry;
  // onnx and the upstream dialects and extensions the pipeline needs (add
  // mlir::registerAllDialects for any other input, as mlir-opt does).
  gather::registerONNXToLLVMPipelineDependencies(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "my-opt: a downstream tool with gather\n", registry));
}
