//===- gather-translate.cpp - gather's mlir-translate ---------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Translations:
//   --mlir-to-llvmir   LLVM dialect IR -> LLVM IR text (upstream MLIR's, after
//                      gather's check of constant sizes).
//   --onnx-to-llvmir   onnx dialect (or any level) IR -> LLVM IR text: runs
//                      the onnx-to-llvm pipeline first.
//   --import-onnx      ONNX model (.onnx) -> onnx dialect (func @main_graph);
//                      with --onnx-inputs/--onnx-expected also a @main that
//                      runs it on TensorProto files and checks the outputs.
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/TargetInfo.h"
#include "gather/Compiler/Compiler.h"
#include "gather/Pipelines/Pipelines.h"
#include "gather/Support/ConstantSizes.h"
#include "gather/Support/Diagnostics.h"
#include "gather/Support/ToolMain.h"
#include "gather/Target/ONNX/ImportONNX.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;

static LogicalResult translateONNXToLLVMIR(Operation *op,
                                           llvm::raw_ostream &output) {
  const std::string &pipelineOptionsText = gather::getPipelineOptionsFlag();
  // Errors at imported ONNX nodes: `model.onnx: node 'n' (TopK): error:`.
  gather::registerLocationDiagnosticHandler(op->getContext());
  PassManager pm = PassManager::on<ModuleOp>(op->getContext());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  if (failed(gather::buildONNXToLLVMPipeline(pm, pipelineOptionsText,
                                             op->getLoc())))
    return failure();
  if (failed(pm.run(op)))
    return failure();
  // The target the code is for (the host's triple, the CPU of target-cpu or
  // the host's): its triple and data layout go into the LLVM module, so that
  // llc and clang compile it as the pipeline planned it
  // (gather::translateForTarget, as gather-compile's).
  auto options =
      gather::ONNXToLLVMPipelineOptions::createFromString(pipelineOptionsText);
  if (!options)
    return failure();
  auto target =
      gather::TargetInfo::create(options->targetCpu, options->targetFeatures);
  if (!target)
    return emitError(op->getLoc()) << llvm::toString(target.takeError());

  llvm::LLVMContext llvmContext;
  auto llvmModule =
      gather::translateForTarget(cast<ModuleOp>(op), **target, llvmContext);
  if (failed(llvmModule))
    return failure();
  (*llvmModule)->print(output, /*AAW=*/nullptr);
  return success();
}

/// --mlir-to-llvmir: upstream MLIR's translation (mlir-translate's), after
/// the check that no constant expands past gather's limit
/// (gather/Support/ConstantSizes.h): LLVM IR would hold each element of a
/// splat.
static LogicalResult translateMLIRToLLVMIR(Operation *op,
                                           llvm::raw_ostream &output) {
  if (failed(gather::checkExpandedConstantSizes(op)))
    return failure();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(op, llvmContext);
  if (!llvmModule)
    return failure();
  llvmModule->removeDebugIntrinsicDeclarations();
  llvmModule->print(output, /*AAW=*/nullptr);
  return success();
}

static int toolMain(int argc, char **argv) {
  (void)gather::getPipelineOptionsFlag();
  TranslateFromMLIRRegistration mlirToLLVMIR(
      "mlir-to-llvmir", "Translate MLIR to LLVMIR", translateMLIRToLLVMIR,
      [](DialectRegistry &registry) {
        registry.insert<DLTIDialect, func::FuncDialect>();
        registerAllToLLVMIRTranslations(registry);
      });
  gather::registerImportONNXTranslation();
  registerPassManagerCLOptions();
  TranslateFromMLIRRegistration registration(
      "onnx-to-llvmir",
      "Lower onnx dialect IR with the onnx-to-llvm pipeline, then translate "
      "it to LLVM IR",
      translateONNXToLLVMIR, [](DialectRegistry &registry) {
        gather::registerONNXToLLVMPipelineDependencies(registry);
        registerAllToLLVMIRTranslations(registry);
      });
  return failed(mlirTranslateMain(argc, argv, "gather translation driver"));
}

// Out of memory and fatal errors as located errors, a large stack.
int main(int argc, char **argv) {
  return gather::runToolMain(argc, argv, toolMain);
}
