//===- gather-test-opt.cpp - gather's passes with a stand-in onnx dialect -===//
//
// Part of the gather project (tests only).
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with gather's passes and pipeline but, as `onnx`, the stand-in
// dialect of test/lib/Dialect/StandInONNX instead of gather's: a tool of
// another project that has its own onnx dialect (as onnx-mlir has) and uses
// gather's lowering. `--print-onnx-and-gather-names` prints what a file with
// `using namespace gather;` next to libonnx headers computes, and exits.
//
//===----------------------------------------------------------------------===//

#include "StandInONNXDialect.h"

#include "gather/Pipelines/Pipelines.h"
#include "gather/Support/ToolMain.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

static int toolMain(int argc, char **argv) {
  if (argc == 2 &&
      llvm::StringRef(argv[1]) == "--print-onnx-and-gather-names") {
    llvm::outs() << standin::describeONNXAndGatherNames() << "\n";
    return 0;
  }
  mlir::registerAllPasses();
  gather::registerAllPasses();

  // Not registerONNXToLLVMPipelineDependencies: it adds gather's dialect.
  mlir::DialectRegistry registry;
  registry.insert<standin::StandInONNXDialect>();
  gather::registerONNXToLLVMPipelineExtensions(registry);
  // Any MLIR, as mlir-opt reads it, beside what the pipeline needs.
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "gather's passes with a stand-in onnx dialect\n", registry));
}

// Out of memory and fatal errors as errors with exit status 1, a large stack.
int main(int argc, char **argv) {
  return gather::runToolMain(argc, argv, toolMain);
}
