//===- GatherPlugin.cpp - gather as a plugin for stock MLIR tools ---------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// GatherPlugin.so, a dialect and pass plugin (mlir/Tools/Plugins/) in the
// style of MLIR's examples/standalone/standalone-plugin, so that a stock
// mlir-opt loads gather into its own libMLIR.so:
//
//   mlir-opt --load-dialect-plugin=GatherPlugin.so \
//            --load-pass-plugin=GatherPlugin.so \
//            --pass-pipeline='builtin.module(onnx-to-llvm)' in.mlir
//
// The dialect plugin adds the onnx dialect and the dialect extensions the
// pipeline needs (registerONNXToLLVMPipelineDependencies) and registers the
// passes; the pass plugin registers gather's passes and the onnx-to-llvm
// pipeline (for IR that holds no onnx op, --load-pass-plugin alone is
// enough).
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "GatherONNX", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            gather::registerONNXToLLVMPipelineDependencies(*registry);
            gather::registerAllPasses();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "GatherPasses", LLVM_VERSION_STRING,
          []() { gather::registerAllPasses(); }};
}
