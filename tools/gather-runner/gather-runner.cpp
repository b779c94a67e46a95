//===- gather-runner.cpp - JIT runner for onnx dialect IR -----------------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// mlir-runner (MLIR's JitRunner on the ExecutionEngine) that accepts input at
// any level: when the module still holds ops outside the LLVM dialect (onnx,
// linalg, tensor, ...), it first runs gather's onnx-to-llvm pipeline.
//
// Differences from mlir-runner:
//   - LLVM IR optimization defaults to -O3 (mlir-runner runs none unless an
//     -O flag is given); -O0 turns it off.
//   - The MLIR runner utilities (printMemref*, printF64, ...) are linked in,
//     so no --shared-libs is needed for them.
//
// Usage: gather-runner file.mlir -e main --entry-point-result=void
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Pipelines.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/JitRunner.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;

/// Lowers `op` (a builtin.module) to the LLVM dialect with the onnx-to-llvm
/// pipeline, unless it is already there.
static LogicalResult lowerToLLVMDialect(Operation *op, JitRunnerOptions &) {
  WalkResult found = op->walk([&](Operation *nested) {
    if (nested == op || isa<LLVM::LLVMDialect>(nested->getDialect()))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  if (!found.wasInterrupted())
    return success();

  PassManager pm = PassManager::on<ModuleOp>(op->getContext());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  gather::buildONNXToLLVMPipeline(pm, gather::ONNXToLLVMPipelineOptions());
  return pm.run(op);
}

static bool isOptLevelFlag(llvm::StringRef arg) {
  arg = arg.ltrim('-');
  return arg == "O0" || arg == "O1" || arg == "O2" || arg == "O3";
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();
  registerPassManagerCLOptions();

  DialectRegistry registry;
  gather::registerONNXToLLVMPipelineDependencies(registry);
  registerAllToLLVMIRTranslations(registry);

  // LLVM optimization on by default: JitRunner only optimizes with -O<n>.
  llvm::SmallVector<char *> args(argv, argv + argc);
  static char defaultOptLevel[] = "-O3";
  if (llvm::none_of(llvm::ArrayRef(args).drop_front(),
                    [](const char *arg) { return isOptLevelFlag(arg); }))
    args.insert(args.begin() + 1, defaultOptLevel);

  JitRunnerConfig config;
  config.mlirTransformer = lowerToLLVMDialect;
  return JitRunnerMain(static_cast<int>(args.size()), args.data(), registry,
                       config);
}
