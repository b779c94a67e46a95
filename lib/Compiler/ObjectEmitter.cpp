//===- ObjectEmitter.cpp - LLVM IR and object files for a target ----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/TargetInfo.h"
#include "gather/Compiler/Compiler.h"
#include "gather/Support/ConstantSizes.h"
#include "gather/Support/Diagnostics.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

using namespace mlir;

FailureOr<std::unique_ptr<llvm::Module>>
gather::translateForTarget(ModuleOp lowered, const TargetInfo &target,
                           llvm::LLVMContext &llvmContext) {
  // A splat constant expands into every element in LLVM IR.
  if (failed(checkExpandedConstantSizes(lowered)))
    return failure();
  // Argument and result attributes of other dialects (the bufferization
  // analysis' `bufferization.access`, an imported graph's `onnx.name`) mean
  // nothing to LLVM, whose translation would warn of each.
  lowered->walk([](LLVM::LLVMFuncOp llvmFunction) {
    auto function = cast<FunctionOpInterface>(llvmFunction.getOperation());
    auto foreignNames = [](ArrayRef<NamedAttribute> attributes) {
      SmallVector<StringAttr> names;
      for (NamedAttribute attribute : attributes)
        if (!attribute.getName().strref().starts_with("llvm."))
          names.push_back(attribute.getName());
      return names;
    };
    for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i)
      for (StringAttr name : foreignNames(function.getArgAttrs(i)))
        function.removeArgAttr(i, name);
    for (unsigned i = 0, e = function.getNumResults(); i < e; ++i)
      for (StringAttr name : foreignNames(function.getResultAttrs(i)))
        function.removeResultAttr(i, name);
  });
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(lowered, llvmContext);
  if (!module)
    return emitError(lowered.getLoc(), "the translation to LLVM IR failed");
  // The target the pipeline planned for, so that the optimizer and llc or
  // clang see the same CPU.
  llvm::TargetMachine &machine = target.getTargetMachine();
  module->setTargetTriple(machine.getTargetTriple());
  module->setDataLayout(machine.createDataLayout());
  return module;
}

LogicalResult gather::emitObjectFile(ModuleOp lowered,
                                     const ONNXToLLVMPipelineOptions &options,
                                     unsigned optLevel, EmitKind emit,
                                     llvm::raw_pwrite_stream &output) {
  Location loc = lowered.getLoc();
  if (optLevel > 3)
    return emitError(loc) << "optimization level " << optLevel
                          << " is not one of 0-3";
  auto target = TargetInfo::create(options.targetCpu, options.targetFeatures);
  if (!target)
    return emitError(loc) << llvm::toString(target.takeError());
  static const bool initialized = [] {
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;

  // The code generator: the pipeline's CPU, its features with
  // +prefer-no-gather unless the gather form uses hardware gathers (as for
  // the JIT), position-independent code for a shared library.
  llvm::TargetMachine &planned = (*target)->getTargetMachine();
  std::string error;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(planned.getTargetTriple(), error);
  if (!llvmTarget)
    return emitError(loc) << "no LLVM target for "
                          << planned.getTargetTriple().str() << ": " << error;
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      planned.getTargetTriple(), (*target)->getCPU(),
      (*target)->getCodeGenFeatures(options.gatherForm), llvm::TargetOptions(),
      llvm::Reloc::PIC_, /*CM=*/std::nullopt,
      static_cast<llvm::CodeGenOptLevel>(optLevel)));
  if (!machine)
    return emitError(loc) << "cannot create an LLVM target machine for "
                          << planned.getTargetTriple().str();

  llvm::LLVMContext llvmContext;
  auto module = translateForTarget(lowered, **target, llvmContext);
  if (failed(module))
    return failure();
  auto transformer =
      makeOptimizingTransformer(optLevel, /*sizeLevel=*/0, machine.get());
  if (llvm::Error optimized = transformer(module->get()))
    return emitError(loc) << "LLVM's optimizer failed: "
                          << llvm::toString(std::move(optimized));

  if (emit == EmitKind::LLVMIR) {
    (*module)->print(output, /*AAW=*/nullptr);
    return success();
  }
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, output, /*DwoOut=*/nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
    return emitError(loc)
           << "LLVM's target machine cannot write object files for "
           << planned.getTargetTriple().str();
  codegen.run(**module);
  return success();
}
