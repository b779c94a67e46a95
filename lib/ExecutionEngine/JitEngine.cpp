//===- JitEngine.cpp - The JIT engine of an LLVM dialect module -----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/ExecutionEngine/JitEngine.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace mlir;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// An error naming the first function `llvmModule` (the translation of
/// `module`) declares that neither it nor the process defines, with the
/// location of its declaration in `module`; success if there is none.
static llvm::Error checkDeclarationsResolve(const llvm::Module &llvmModule,
                                            ModuleOp module) {
  for (const llvm::Function &function : llvmModule) {
    if (!function.isDeclaration() || function.isIntrinsic() ||
        function.hasExternalWeakLinkage() ||
        llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(
            function.getName().str()))
      continue;
    std::string message;
    llvm::raw_string_ostream os(message);
    os << "JIT compilation failed: function '" << function.getName() << "'";
    if (Operation *declaration =
            SymbolTable::lookupSymbolIn(module, function.getName()))
      os << " (declared at " << declaration->getLoc() << ")";
    os << " is defined neither in the module nor in the process; link or "
          "load the library that defines it";
    return makeError(message);
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<ExecutionEngine>>
gather::createJitEngine(ModuleOp module, const JitEngineOptions &options) {
  if (options.optLevel > 3)
    return makeError("optimization level must be 0-3");
  // The process's own symbols, as the engine resolves external functions.
  static const bool processLoaded = [] {
    return !llvm::sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
  }();
  (void)processLoaded;
  for (const std::string &path : options.sharedLibPaths) {
    std::string error;
    if (llvm::sys::DynamicLibrary::LoadLibraryPermanently(path.c_str(), &error))
      return makeError("cannot load the shared library '" + path +
                       "': " + error);
  }

  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return machineBuilder.takeError();
  if (!options.cpu.empty())
    machineBuilder->setCPU(options.cpu);
  std::string features = options.features;
  if (!options.extraFeatures.empty())
    features += (features.empty() ? "" : ",") + options.extraFeatures;
  if (!features.empty())
    machineBuilder->setFeatures(features);
  auto targetMachine = machineBuilder->createTargetMachine();
  if (!targetMachine)
    return targetMachine.takeError();

  // The engine's copy of the object is only kept for a file: it is as large
  // as the code and its constants.
  if (!options.objectFile.empty()) {
    // (ExecutionEngine::dumpToObjectFile reports a failure on stderr only.)
    std::error_code error;
    llvm::raw_fd_ostream probe(options.objectFile, error);
    if (error)
      return makeError("cannot write the object file '" + options.objectFile +
                       "': " + error.message());
  }
  auto transformer = makeOptimizingTransformer(
      options.optLevel, /*sizeLevel=*/0, targetMachine->get());
  // The translation, then the check of what it declares (after it: the
  // builder may link other modules in).
  std::string unresolved;
  auto buildModule = [&](Operation *op, llvm::LLVMContext &context) {
    std::unique_ptr<llvm::Module> llvmModule =
        options.llvmModuleBuilder ? options.llvmModuleBuilder(op, context)
                                  : translateModuleToLLVMIR(op, context);
    if (!llvmModule)
      return llvmModule;
    if (llvm::Error error = checkDeclarationsResolve(*llvmModule, module)) {
      unresolved = llvm::toString(std::move(error));
      return std::unique_ptr<llvm::Module>();
    }
    return llvmModule;
  };
  ExecutionEngineOptions engineOptions;
  engineOptions.llvmModuleBuilder = buildModule;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(options.optLevel);
  engineOptions.enableObjectDump = !options.objectFile.empty();
  engineOptions.enableGDBNotificationListener = options.registerWithDebuggers;
  engineOptions.enablePerfNotificationListener = options.registerWithDebuggers;
  auto engine =
      ExecutionEngine::create(module, engineOptions, std::move(*targetMachine));
  if (!unresolved.empty()) {
    llvm::consumeError(engine.takeError());
    return makeError(unresolved);
  }
  if (!engine)
    return makeError("JIT compilation failed: " +
                     llvm::toString(engine.takeError()));

  // The JIT compiles and links lazily, on the first lookup. Looking the entry
  // points up now makes any symbol that is still unresolved (one the LLVM
  // backend calls, e.g. a compiler-rt helper) an error here, not at the
  // caller's first lookup.
  std::vector<std::string> entryPoints;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    if (!func.isExternal() && func.getLinkage() == LLVM::Linkage::External)
      entryPoints.push_back(func.getSymName().str());
  for (const std::string &name : entryPoints) {
    auto address = (*engine)->lookup(name);
    if (!address)
      return makeError("JIT compilation failed: cannot link entry point '" +
                       name + "': " + llvm::toString(address.takeError()));
  }
  if (!options.objectFile.empty())
    (*engine)->dumpToObjectFile(options.objectFile);
  // The module's global constructors (llvm.mlir.global_ctors: e.g. a GPU
  // binary's module load) run now, before any entry point is called.
  (*engine)->initialize();
  return std::move(*engine);
}
