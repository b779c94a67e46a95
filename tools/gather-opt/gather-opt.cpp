//===- gather-opt.cpp - gather's mlir-opt ---------------------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the onnx dialect, every gather pass (every pass in the
// Passes.td files under include/gather) and the onnx-to-llvm pipeline with
// its stages (gather::registerAllPasses), plus every upstream dialect,
// extension and pass, so that pipeline authors can mix them freely.
//
// Errors at locations without a file:line:col (an imported ONNX node,
// `model.onnx: node 'top2' (TopK): error: ...`) are printed readably by
// gather::registerLocationDiagnosticHandler, installed with the pass
// pipeline (MlirOptMain's own handler would print `<unknown>:0: error:
// loc(...)`).
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Pipelines.h"
#include "gather/Support/Diagnostics.h"
#include "gather/Support/ToolMain.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static int toolMain(int argc, char **argv) {
  registerAllPasses();
  gather::registerAllPasses();

  DialectRegistry registry;
  gather::registerONNXToLLVMPipelineDependencies(registry);
  // Any MLIR, as mlir-opt reads it, beside what the pipeline needs.
  registerAllDialects(registry);
  registerAllExtensions(registry);
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "gather optimizer driver (onnx dialect + MLIR)\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  llvm::InitLLVM initLLVM(argc, argv);
  // (Not with --verify-diagnostics: its handler must see every diagnostic.)
  if (!config.shouldVerifyDiagnostics()) {
    MlirOptMainConfig base = config;
    config.setPassPipelineSetupFn([base](PassManager &pm) {
      gather::registerLocationDiagnosticHandler(pm.getContext());
      return base.setupPassPipeline(pm);
    });
  }
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}

// Out of memory and fatal errors as located errors, a large stack.
int main(int argc, char **argv) {
  return gather::runToolMain(argc, argv, toolMain);
}
