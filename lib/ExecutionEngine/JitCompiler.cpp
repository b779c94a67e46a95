//===- JitCompiler.cpp - Compile onnx IR to a callable JIT kernel ---------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/ExecutionEngine/JitCompiler.h"
#include "gather/ExecutionEngine/JitEngine.h"
#include "gather/ExecutionEngine/RuntimeLibraries.h"
#include "gather/RuntimeABI/RuntimeABI.h"
#include "gather/RuntimeABI/RuntimeReporter.h"
#include "gather/Support/Diagnostics.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/TargetSelect.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

using namespace mlir;
using gather::TargetInfo;

void gather::registerJitDependencies(DialectRegistry &registry) {
  registerONNXToLLVMPipelineDependencies(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  // Code for the GPU: its binaries and launches (gpu.binary,
  // gpu.launch_func with #gpu.select_object) and the NVVM ops left in it.
  registerGPUDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
  registerNVVMDialectTranslation(registry);
}

namespace {
/// Collects the diagnostics emitted on this thread while alive, one per line
/// with location. A context shared by several threads has one handler stack:
/// the diagnostics of another thread's compilation go on to the handlers
/// below (the pass manager re-emits its worker threads' diagnostics on the
/// thread that runs it, so they are this thread's). Under a crash
/// reproducer (JitDebugOptions), the pipeline runs on a thread of LLVM's
/// crash recovery: then every thread's diagnostics are collected
/// (setAnyThread).
class DiagnosticCollector {
public:
  /// With `source` and its `bufferName`, a diagnostic located in it is
  /// followed by its line and a caret under its column, as MLIR's tools
  /// print them (a parse error then shows the token at fault).
  explicit DiagnosticCollector(MLIRContext *context,
                               llvm::StringRef source = "",
                               llvm::StringRef bufferName = "")
      : thread(std::this_thread::get_id()),
        handler(context, [this, source, bufferName](Diagnostic &diagnostic) {
          if (!anyThread && std::this_thread::get_id() != thread)
            return failure();
          llvm::raw_string_ostream os(messages);
          gather::printDiagnostic(os, diagnostic);
          auto loc = dyn_cast<FileLineColLoc>(diagnostic.getLocation());
          if (!source.empty() && loc && loc.getFilename() == bufferName &&
              loc.getLine() > 0) {
            SmallVector<llvm::StringRef> lines;
            source.split(lines, '\n');
            if (loc.getLine() <= lines.size()) {
              llvm::StringRef line = lines[loc.getLine() - 1];
              os << "  " << line << "\n  "
                 << std::string(
                        std::min<size_t>(loc.getColumn() - 1, line.size()), ' ')
                 << "^\n";
            }
          }
          return success();
        }) {}
  void setAnyThread() { anyThread = true; }
  bool hasMessages() const { return !messages.empty(); }
  llvm::Error error(llvm::StringRef what) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   what + ":\n" + messages);
  }

private:
  std::thread::id thread;
  bool anyThread = false;
  std::string messages;
  ScopedDiagnosticHandler handler;
};
} // namespace

/// Adds the JIT's dialects to `context` and loads them all, once per
/// context: MLIR loads dialects lazily (the parser and the pass manager call
/// getOrLoadDialect), and loading one changes the context, which other
/// threads may be using. Once every available dialect is loaded, later calls
/// and the compilations only look them up. The lock orders the first call
/// against any other thread's call here.
static void loadJitDialects(MLIRContext &context) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  DialectRegistry registry;
  gather::registerJitDependencies(registry);
  // (A registry the context already holds is not appended again.)
  context.appendDialectRegistry(registry);
  if (llvm::any_of(context.getAvailableDialects(), [&](StringRef name) {
        return !context.getLoadedDialect(name);
      }))
    context.loadAllAvailableDialects();
}

llvm::Error gather::checkOpenMPEnvironment() {
  auto check = [](const char *name, bool list) -> llvm::Error {
    const char *value = std::getenv(name);
    if (!value)
      return llvm::Error::success();
    llvm::SmallVector<llvm::StringRef> entries;
    llvm::StringRef(value).split(entries, ',');
    bool valid = list || entries.size() == 1;
    for (llvm::StringRef entry : entries) {
      unsigned threads;
      // (getAsInteger rejects signs other than '-', spaces, empty text and
      // values beyond `unsigned`.)
      valid &= !entry.trim().getAsInteger(10, threads) && threads >= 1 &&
               threads <= kMaxNumThreads;
    }
    if (valid)
      return llvm::Error::success();
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::Twine(name) + "='" + value + "' is invalid: expected " +
            (list ? "a comma-separated list of thread counts"
                  : "a thread "
                    "count") +
            " in [1, " + llvm::Twine(kMaxNumThreads) + "] (or unset)");
  };
  if (llvm::Error error = check("OMP_NUM_THREADS", /*list=*/true))
    return error;
  if (llvm::Error error = check("OMP_THREAD_LIMIT", /*list=*/false))
    return error;
  // Stack sizes: libomp aborts when it cannot allocate a thread's stack.
  for (const char *name :
       {"OMP_STACKSIZE", "KMP_STACKSIZE", "GOMP_STACKSIZE"}) {
    const char *value = std::getenv(name);
    if (!value)
      continue;
    llvm::StringRef text = llvm::StringRef(value).trim();
    uint64_t unit = 1024; // K when no unit is given.
    if (!text.empty() && llvm::isAlpha(text.back())) {
      switch (llvm::toLower(text.back())) {
      case 'b':
        unit = 1;
        break;
      case 'k':
        unit = uint64_t(1) << 10;
        break;
      case 'm':
        unit = uint64_t(1) << 20;
        break;
      case 'g':
        unit = uint64_t(1) << 30;
        break;
      default:
        unit = 0;
      }
      text = text.drop_back().rtrim();
    }
    uint64_t size;
    if (unit == 0 || text.getAsInteger(10, size) || size < 1 ||
        size > kMaxStackSize / unit)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::Twine(name) + "='" + value +
              "' is invalid: expected a stack size of at most 1G (a number "
              "with an optional unit B, K, M or G; K if none) (or unset)");
  }
  return llvm::Error::success();
}

/// Fails, in one line, if `context` lacks what registerJitDependencies adds:
/// lowering the module first would fail late (at the translation to LLVM
/// IR) with the whole lowered module in the message, and leave the module
/// lowered.
static llvm::Error checkJitContext(MLIRContext &context) {
  DialectRegistry needed;
  gather::registerJitDependencies(needed);
  const DialectRegistry &present = context.getDialectRegistry();
  if (needed.isSubsetOf(present))
    return llvm::Error::success();
  std::string missing;
  unsigned numMissing = 0;
  for (StringRef name : needed.getDialectNames())
    if (!present.getDialectAllocator(name) && !context.getLoadedDialect(name))
      if (++numMissing <= 4)
        missing += (missing.empty() ? "" : ", ") + name.str();
  if (numMissing > 4)
    missing += ", ... (" + std::to_string(numMissing) + " in all)";
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "compileAndJit: the module's context lacks "
      "gather::registerJitDependencies() (" +
          (missing.empty()
               ? std::string("its dialect extensions and translations to "
                             "LLVM IR are not registered")
               : "dialects not registered: " + missing) +
          "); add it to the context's DialectRegistry; nothing was lowered");
}

llvm::Expected<std::unique_ptr<ExecutionEngine>>
gather::compileAndJit(ModuleOp module, const ONNXToLLVMPipelineOptions &options,
                      unsigned optLevel, const JitDebugOptions &debug) {
  if (optLevel > 3)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "optimization level must be 0-3");
  if (options.numThreads != 1)
    if (llvm::Error error = checkOpenMPEnvironment())
      return std::move(error);
  if (llvm::Error error = checkJitContext(*module.getContext()))
    return std::move(error);
  static const bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // The process's own symbols, as the engine resolves external functions.
    llvm::sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
    return true;
  }();
  (void)initialized;

  // The CPU the code is for (the host unless target-cpu is given) decides
  // the form of the gathers; code for another CPU must still run here.
  auto target = TargetInfo::create(options.targetCpu, options.targetFeatures);
  if (!target)
    return target.takeError();
  if (llvm::Error error = (*target)->checkRunsOnHost())
    return std::move(error);

  MLIRContext *context = module.getContext();
  {
    DiagnosticCollector diagnostics(context);
    PassManager pm = PassManager::on<ModuleOp>(context);
    buildONNXToLLVMPipeline(pm, options);
    if (!debug.irDirectory.empty()) {
      if (std::error_code error =
              llvm::sys::fs::create_directories(debug.irDirectory))
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "cannot create the IR directory '" +
                                           debug.irDirectory +
                                           "': " + error.message());
      // (At each pass's own scope: module scope needs a context without
      // threads, which a shared context may not be.)
      // Before the first pass (the input), after every pass that changes it.
      auto first = std::make_shared<bool>(true);
      pm.enableIRPrintingToFileTree(
          [first](Pass *, Operation *) { return std::exchange(*first, false); },
          [](Pass *, Operation *) { return true; },
          /*printModuleScope=*/false, /*printAfterOnlyOnChange=*/true,
          /*printAfterOnlyOnFailure=*/false, debug.irDirectory);
    }
    if (!debug.crashReproducer.empty()) {
      pm.enableCrashReproducerGeneration(debug.crashReproducer);
      diagnostics.setAnyThread();
    }
    if (failed(pm.run(module)))
      return diagnostics.error("the onnx-to-llvm pipeline failed");
    // Every kernel has an error sink (setKernelErrorHandler), reports or not.
    if (failed(getOrCreateErrorSinkGlobal(module)))
      return diagnostics.error("the kernel cannot have an error sink");
  }

  // The runtime libraries the hosts do not link (code for the GPU calls
  // libgather_cuda_runtime).
  if (llvm::Error error = loadRuntimeLibraries(module))
    return std::move(error);
  // The target's CPU and features, for both the LLVM IR optimizer and code
  // generation; with +prefer-no-gather unless the chosen form uses hardware
  // gathers, so that LLVM's vectorizers do not create them either.
  JitEngineOptions engineOptions;
  engineOptions.optLevel = optLevel;
  engineOptions.cpu = (*target)->getCPU().str();
  engineOptions.features = (*target)->getCodeGenFeatures(options.gatherForm);
  engineOptions.objectFile = debug.objectFile;
  engineOptions.registerWithDebuggers = debug.registerWithDebuggers;
  DiagnosticCollector diagnostics(context);
  auto engine = createJitEngine(module, engineOptions);
  if (!engine && diagnostics.hasMessages())
    return llvm::joinErrors(diagnostics.error("JIT compilation failed"),
                            engine.takeError());
  if (!engine)
    return engine.takeError();
  return std::move(*engine);
}

llvm::Error gather::setKernelErrorHandler(ExecutionEngine &engine,
                                          GatherErrorHandler handler,
                                          void *userData) {
  auto sink = engine.lookup(kErrorSinkName);
  if (!sink)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "setKernelErrorHandler: the engine has no '" + kErrorSinkName.str() +
            "' (not compiled by compileAndJit): " +
            llvm::toString(sink.takeError()));
  gatherSetKernelErrorHandler(static_cast<GatherErrorSink *>(*sink), handler,
                              userData);
  return llvm::Error::success();
}

llvm::Expected<void *> gather::lookupCInterface(ExecutionEngine &engine,
                                                llvm::StringRef function) {
  auto wrapper = engine.lookup(("_mlir_ciface_" + function).str());
  if (wrapper)
    return *wrapper;
  llvm::consumeError(wrapper.takeError());
  auto plain = engine.lookup(function);
  bool exists = static_cast<bool>(plain);
  if (!plain)
    llvm::consumeError(plain.takeError());
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      exists ? "function '" + function + "' has no C interface (_mlir_ciface_" +
                   function +
                   "): give its func.func the attribute "
                   "llvm.emit_c_interface"
             : "the module has no function '" + function + "'");
}

llvm::StringRef gather::getKernelBufferName(llvm::StringRef source) {
  for (llvm::StringRef keyword : {"func.func", "llvm.func"}) {
    size_t start = 0;
    while ((start = source.find(keyword, start)) != llvm::StringRef::npos) {
      start += keyword.size();
      // The symbol follows the keyword, after a visibility if any.
      llvm::StringRef rest = source.drop_front(start).ltrim();
      if (rest.consume_front("private") || rest.consume_front("public") ||
          rest.consume_front("nested"))
        rest = rest.ltrim();
      if (!rest.consume_front("@"))
        continue;
      llvm::StringRef name = rest.take_while([](char c) {
        return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
      });
      if (!name.empty())
        return name;
    }
  }
  return "kernel";
}

llvm::Expected<std::unique_ptr<ExecutionEngine>>
gather::compileSourceAndJit(MLIRContext &context, llvm::StringRef source,
                            const ONNXToLLVMPipelineOptions &options,
                            unsigned optLevel, llvm::StringRef bufferName,
                            const JitDebugOptions &debug) {
  loadJitDialects(context);
  std::string name =
      bufferName.empty() ? getKernelBufferName(source).str() : bufferName.str();
  OwningOpRef<ModuleOp> module;
  {
    DiagnosticCollector diagnostics(&context, source, name);
    module = parseSourceString<ModuleOp>(source, ParserConfig(&context), name);
    if (!module)
      return diagnostics.error("cannot parse the kernel source");
  }
  return compileAndJit(*module, options, optLevel, debug);
}

std::string gather::getGatherElementsKernelSource(
    llvm::StringRef name, llvm::ArrayRef<int64_t> dataShape,
    llvm::StringRef dataType, llvm::ArrayRef<int64_t> indicesShape,
    llvm::StringRef indicesType, int64_t axis) {
  auto shape = [](llvm::ArrayRef<int64_t> sizes, llvm::StringRef type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    for (int64_t size : sizes) {
      if (size < 0)
        os << "?";
      else
        os << size;
      os << "x";
    }
    os << type;
    return text;
  };
  std::string data = shape(dataShape, dataType);
  std::string indices = shape(indicesShape, indicesType);
  std::string out = shape(indicesShape, dataType);
  // With dynamic sizes, the lowering checks at run time that `out` has the
  // size of the result (convert-onnx-to-linalg).
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "func.func @" << name << "(%data: memref<" << data
     << ">, %indices: memref<" << indices << ">, %out: memref<" << out
     << ">) attributes {llvm.emit_c_interface} {\n"
     << "  %d = bufferization.to_tensor %data restrict : memref<" << data
     << "> to tensor<" << data << ">\n"
     << "  %i = bufferization.to_tensor %indices restrict : memref<" << indices
     << "> to tensor<" << indices << ">\n"
     << "  %r = onnx.GatherElements %d, %i axis = " << axis << " : tensor<"
     << data << ">, tensor<" << indices << "> -> tensor<" << out << ">\n"
     << "  bufferization.materialize_in_destination %r in restrict writable "
     << "%out : (tensor<" << out << ">, memref<" << out << ">) -> ()\n";
  os << "  return\n}\n";
  return text;
}
