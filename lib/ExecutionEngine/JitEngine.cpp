//===- JitEngine.cpp - The JIT engine of an LLVM dialect module -----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/ExecutionEngine/JitEngine.h"
#include "gather/Codegen/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <vector>

using namespace mlir;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// `name`'s place in `module` for a message: " (at <file>:<line>:<col>)" of
/// the op that defines or declares it (its location as MLIR prints it if
/// that has no file position); empty if `module` has no such symbol (one a
/// module builder linked in).
static std::string describePlace(ModuleOp module, llvm::StringRef name) {
  Operation *op = SymbolTable::lookupSymbolIn(module, name);
  if (!op)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << " (at ";
  if (auto file = op->getLoc()->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    os << op->getLoc();
  os << ")";
  return text;
}

/// An error for what in `llvmModule` (the translation of `module`) the
/// engine cannot run, naming the symbol and its place in `module`; success
/// if there is nothing:
/// - a function or variable it declares that neither it nor the process
///   defines (extern_weak ones too: RuntimeDyld does not resolve a missing
///   weak symbol to null);
/// - a symbol `_mlir_<f>` beside a function `f` it defines with external
///   linkage: the engine defines that name itself, as `f`'s wrapper for
///   packed arguments (ExecutionEngine::invokePacked), and would add a body
///   to the module's own function;
/// - a global constructor or destructor that is not a `void ()` function
///   (the engine calls them without arguments).
static llvm::Error checkRunnable(const llvm::Module &llvmModule,
                                 ModuleOp module) {
  auto fail = [&](const llvm::Twine &what, llvm::StringRef name,
                  const llvm::Twine &why) {
    return makeError("JIT compilation failed: " + what + " '" + name + "'" +
                     describePlace(module, name) + " " + why);
  };
  auto defined = [](const llvm::GlobalValue &value) {
    return llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(
               value.getName().str()) != nullptr;
  };
  for (const llvm::Function &function : llvmModule) {
    if (function.isDeclaration() && !function.isIntrinsic() &&
        !defined(function))
      return fail("function", function.getName(),
                  "is defined neither in the module nor in the process; link "
                  "or load the library that defines it");
    if (!function.isDeclaration() && !function.hasLocalLinkage()) {
      std::string wrapper = ("_mlir_" + function.getName()).str();
      if (llvmModule.getNamedValue(wrapper))
        return fail("symbol", wrapper,
                    "has the name the JIT gives to the wrapper of function '" +
                        function.getName() +
                        "' (ExecutionEngine::invokePacked); rename it");
    }
  }
  for (const llvm::GlobalVariable &global : llvmModule.globals())
    if (global.isDeclaration() && !defined(global))
      return fail("global variable", global.getName(),
                  "is defined neither in the module nor in the process; link "
                  "or load the library that defines it");
  for (const char *list : {"llvm.global_ctors", "llvm.global_dtors"}) {
    const llvm::GlobalVariable *table = llvmModule.getNamedGlobal(list);
    auto *entries =
        table && table->hasInitializer()
            ? llvm::dyn_cast<llvm::ConstantArray>(table->getInitializer())
            : nullptr;
    if (!entries)
      continue;
    for (const llvm::Use &entry : entries->operands()) {
      auto *fields = llvm::dyn_cast<llvm::ConstantStruct>(entry.get());
      auto *function = fields && fields->getNumOperands() > 1
                           ? llvm::dyn_cast<llvm::Function>(
                                 fields->getOperand(1)->stripPointerCasts())
                           : nullptr;
      if (function && (!function->getReturnType()->isVoidTy() ||
                       function->arg_size() != 0 || function->isVarArg()))
        return fail(llvm::StringRef(list) == "llvm.global_ctors"
                        ? "global constructor"
                        : "global destructor",
                    function->getName(),
                    "is not a function of no arguments that returns nothing; "
                    "the JIT calls it as one");
    }
  }
  return llvm::Error::success();
}

/// Writes the object code of `engine` (made with enableObjectDump) to
/// `path`. ExecutionEngine::dumpToObjectFile reports a file it cannot open
/// on stderr only, and a failed write as a fatal error that names no file:
/// it writes a temporary file here, which is copied with checked writes.
static llvm::Error writeObjectFile(ExecutionEngine &engine,
                                   llvm::StringRef path) {
  llvm::SmallString<128> temporary;
  if (std::error_code error =
          llvm::sys::fs::createTemporaryFile("gather-jit", "o", temporary))
    return makeError("cannot write the object file '" + path +
                     "': no temporary file: " + error.message());
  engine.dumpToObjectFile(temporary);
  auto object = llvm::MemoryBuffer::getFile(temporary);
  llvm::sys::fs::remove(temporary);
  if (!object)
    return makeError("cannot write the object file '" + path +
                     "': " + object.getError().message());
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (!error) {
    os << (*object)->getBuffer();
    os.close();
    error = os.error();
    os.clear_error();
  }
  if (error)
    return makeError("cannot write the object file '" + path +
                     "': " + error.message());
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
    // Bound now, not lazily: a symbol the library needs and nothing loaded
    // defines is an error here, not the dynamic loader's "symbol lookup
    // error" and exit status 127 at the first call. (Later libraries of the
    // list are not loaded yet: list a library after those it needs.)
    if (!dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
      const char *reason = dlerror();
      return makeError("cannot load the shared library '" + path +
                       "': " + (reason ? reason : "unknown error"));
    }
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
  // (LLVM itself warns of a feature it does not know and ignores it, and
  // takes the names untrimmed.)
  if (llvm::Error error =
          TargetInfo::checkFeatureNames(options.extraFeatures, "-mattr"))
    return std::move(error);
  llvm::SmallVector<llvm::StringRef> extra;
  llvm::StringRef(options.extraFeatures).split(extra, ',', -1, false);
  for (llvm::StringRef feature : extra)
    features += (features.empty() ? "" : ",") + feature.trim().str();
  if (!features.empty())
    machineBuilder->setFeatures(features);
  auto targetMachine = machineBuilder->createTargetMachine();
  if (!targetMachine)
    return targetMachine.takeError();

  // The engine's copy of the object is only kept for a file: it is as large
  // as the code and its constants.
  if (!options.objectFile.empty()) {
    // (Appending: an existing file keeps its contents if compilation fails.)
    std::error_code error;
    llvm::raw_fd_ostream probe(options.objectFile, error,
                               llvm::sys::fs::OF_Append);
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
    if (llvm::Error error = checkRunnable(*llvmModule, module)) {
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
    if (llvm::Error error = writeObjectFile(**engine, options.objectFile))
      return std::move(error);
  // The module's global constructors (llvm.mlir.global_ctors: e.g. a GPU
  // binary's module load) run now, before any entry point is called.
  (*engine)->initialize();
  return std::move(*engine);
}
