//===- gather-runner.cpp - JIT runner for onnx dialect IR -----------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mlir-runner's command line (MLIR's JitRunner: -e, --entry-point-result,
// -O<n>, --shared-libs, ...) on input at any level: when the module still
// holds ops outside the LLVM dialect (onnx, linalg, tensor, ...), it first
// runs gather's onnx-to-llvm pipeline. What it does otherwise than
// mlir-runner: docs/Tools.md, "gather-runner". Its pieces are the library's:
// the pipeline (gather/Pipelines), the printing of entry results
// (gather-print-entry-results), the JIT engine
// (gather/ExecutionEngine/JitEngine.h, as compileAndJit makes it), the MPI
// start-up (gather/ExecutionEngine/MPIJob.h), --link-nested-modules
// (gather/ExecutionEngine/LinkNestedModule.h).
//
// Usage: gather-runner file.mlir -e main --entry-point-result=void
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/Passes.h"
#include "gather/Codegen/TargetInfo.h"
#include "gather/ExecutionEngine/JitCompiler.h"
#include "gather/ExecutionEngine/JitEngine.h"
#include "gather/ExecutionEngine/LinkNestedModule.h"
#include "gather/ExecutionEngine/MPIJob.h"
#include "gather/ExecutionEngine/RuntimeLibraries.h"
#include "gather/Pipelines/Passes.h"
#include "gather/Pipelines/Pipelines.h"
#include "gather/Runtime/GatherRuntime.h"
#include "gather/RuntimeABI/RuntimeABI.h"
#include "gather/Support/ConstantSizes.h"
#include "gather/Support/Diagnostics.h"
#include "gather/Support/ToolMain.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/ParseUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

using namespace mlir;

static gather::MPIJob &mpiJob = gather::MPIJob::get();

//===----------------------------------------------------------------------===//
// mlir-runner's command line
//===----------------------------------------------------------------------===//

static llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                                llvm::cl::desc("<input file>"),
                                                llvm::cl::init("-"));

static llvm::cl::opt<std::string>
    entryName("e", llvm::cl::desc("The function to be called"),
              llvm::cl::value_desc("<function name>"), llvm::cl::init("main"));

static llvm::cl::opt<std::string> entryResult(
    "entry-point-result",
    llvm::cl::desc("Textual description of the function type to be called"),
    llvm::cl::value_desc("f32 | i32 | i64 | void"), llvm::cl::init("f32"));

static llvm::cl::OptionCategory optFlags("opt-like flags");
static llvm::cl::opt<bool> optO0("O0",
                                 llvm::cl::desc("Run opt passes and codegen "
                                                "at O0"),
                                 llvm::cl::cat(optFlags));
static llvm::cl::opt<bool> optO1("O1",
                                 llvm::cl::desc("Run opt passes and codegen "
                                                "at O1"),
                                 llvm::cl::cat(optFlags));
static llvm::cl::opt<bool> optO2("O2",
                                 llvm::cl::desc("Run opt passes and codegen "
                                                "at O2"),
                                 llvm::cl::cat(optFlags));
static llvm::cl::opt<bool> optO3("O3",
                                 llvm::cl::desc("Run opt passes and codegen "
                                                "at O3 (the default)"),
                                 llvm::cl::cat(optFlags));

static llvm::cl::list<std::string>
    mAttrs("mattr", llvm::cl::MiscFlags::CommaSeparated,
           llvm::cl::desc("Target features, +name or -name (llc "
                          "-mattr=help lists them)"),
           llvm::cl::value_desc("a1,+a2,-a3,..."), llvm::cl::cat(optFlags));

static llvm::cl::OptionCategory linkingFlags("linking options");
static llvm::cl::list<std::string>
    sharedLibs("shared-libs", llvm::cl::desc("Libraries to link dynamically"),
               llvm::cl::MiscFlags::CommaSeparated,
               llvm::cl::cat(linkingFlags));

static llvm::cl::opt<bool> dumpObjectFile(
    "dump-object-file",
    llvm::cl::desc("Dump JITted-compiled object to file specified with "
                   "-object-filename (<input file>.o by default)."));

static llvm::cl::opt<std::string> objectFilename(
    "object-filename",
    llvm::cl::desc("Dump JITted-compiled object to file <input file>.o"));

static llvm::cl::opt<bool>
    hostSupportsJit("host-supports-jit",
                    llvm::cl::desc("Report host JIT support"),
                    llvm::cl::Hidden);

static llvm::cl::opt<bool> noImplicitModule(
    "no-implicit-module",
    llvm::cl::desc(
        "Disable implicit addition of a top-level module op during parsing"),
    llvm::cl::init(false));

static llvm::cl::opt<bool> registerWithDebuggers(
    "register-jit-code",
    llvm::cl::desc("Tell GDB (and perf, where LLVM has it) about the JIT "
                   "code, for breakpoints and backtraces in it (a copy of "
                   "the whole object)"),
    llvm::cl::init(false));

/// LLVM's optimization level: the lowest -O<n> given, else 3.
static unsigned getOptLevel() {
  unsigned level = 0;
  for (llvm::cl::opt<bool> *flag : {&optO0, &optO1, &optO2, &optO3}) {
    if (*flag)
      return level;
    ++level;
  }
  return 3;
}

//===----------------------------------------------------------------------===//
// The entry function and the lowering
//===----------------------------------------------------------------------===//

static llvm::cl::opt<std::string> passPipeline(
    "pass-pipeline",
    llvm::cl::desc("Textual pass pipeline to lower the input with instead of "
                   "onnx-to-llvm, as mlir-opt takes it (e.g. "
                   "\"builtin.module(onnx-to-llvm{vector-size=0})\")"),
    llvm::cl::init(""));

static llvm::cl::opt<uint64_t> printLimit(
    "print-limit",
    llvm::cl::desc("The most elements and empty groups ([]) that the printed "
                   "results hold together; then each line ends with \"... "
                   "(<n> more elements not printed ...)\". 0 prints all"),
    llvm::cl::init(GATHER_DEFAULT_PRINT_LIMIT),
    llvm::cl::cb<void, uint64_t>([](uint64_t limit) {
      gatherSetPrintLimit(limit);
    }));

static llvm::cl::opt<bool> linkNestedModules(
    "link-nested-modules",
    llvm::cl::desc("Translate the one nested builtin.module to LLVM IR "
                   "separately and link it into the main module (as "
                   "mlir-runner)"),
    llvm::cl::init(false));

/// Whether the input has been parsed and verified (diagnostics before that
/// come from the parser or the verifier).
static bool inputIsVerified = false;

/// Lowers `op` (a builtin.module) to the LLVM dialect with the onnx-to-llvm
/// pipeline, unless it is already there; wraps an entry function that
/// returns tensors first.
static LogicalResult lowerToLLVMDialect(Operation *op) {
  inputIsVerified = true;
  auto module = cast<ModuleOp>(op);
  mpiJob.setProgram(module, entryName, entryResult);
  // No user symbol may take the place of a runtime function, at any level.
  if (failed(gather::verifyRuntimeSymbols(module)))
    return failure();
  if (auto entry = module.lookupSymbol<func::FuncOp>(entryName);
      entry && entryResult != "void" &&
      llvm::any_of(entry.getResultTypes(), llvm::IsaPred<TensorType>))
    return emitError(entry.getLoc(), "entry function '")
           << entryName << "' returns tensors: run it with "
           << "--entry-point-result=void to print them";
  {
    PassManager pm = PassManager::on<ModuleOp>(op->getContext());
    gather::PrintEntryResultsPassOptions printOptions;
    printOptions.entry = entryName;
    pm.addPass(gather::createPrintEntryResultsPass(printOptions));
    if (failed(pm.run(module)))
      return failure();
  }
  if (!passPipeline.empty()) {
    // Anchored as mlir-opt's: "builtin.module(...)".
    std::string errorText;
    llvm::raw_string_ostream errorStream(errorText);
    FailureOr<OpPassManager> parsed =
        parsePassPipeline(passPipeline, errorStream);
    if (failed(parsed))
      return emitError(op->getLoc(), "invalid --pass-pipeline: ") << errorText;
    if (parsed->getOpAnchorName() != ModuleOp::getOperationName())
      return emitError(op->getLoc(), "--pass-pipeline must be anchored on "
                                     "builtin.module, e.g. "
                                     "\"builtin.module(onnx-to-llvm)\"");
    PassManager pm = PassManager::on<ModuleOp>(op->getContext());
    static_cast<OpPassManager &>(pm) = std::move(*parsed);
    // Whatever it leaves outside the LLVM dialect is an error naming it.
    pm.addPass(gather::createCheckLoweredPass());
    if (failed(applyPassManagerCLOptions(pm)))
      return failure();
    return pm.run(op);
  }
  WalkResult found = op->walk([&](Operation *nested) {
    // The pipeline's output: the LLVM dialect, plus OpenMP for threads, and
    // GPU binaries and their launches for the GPU.
    if (nested == op || isa<gpu::BinaryOp, gpu::LaunchFuncOp>(nested) ||
        // (The dialect is null for an unregistered op.)
        isa_and_nonnull<LLVM::LLVMDialect, omp::OpenMPDialect>(
            nested->getDialect()))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  if (!found.wasInterrupted())
    return success();

  PassManager pm = PassManager::on<ModuleOp>(op->getContext());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  if (failed(gather::buildONNXToLLVMPipeline(
          pm, gather::getPipelineOptionsFlag(), op->getLoc())))
    return failure();
  return pm.run(op);
}

/// The LLVM type --entry-point-result names (void, i32, i64, f32), or null
/// for another name.
static Type getEntryResultType(MLIRContext *context) {
  return llvm::StringSwitch<Type>(entryResult)
      .Case("void", LLVM::LLVMVoidType::get(context))
      .Case("i32", IntegerType::get(context, 32))
      .Case("i64", IntegerType::get(context, 64))
      .Case("f32", Float32Type::get(context))
      .Default(Type());
}

/// After lowering: the entry function is defined, takes no arguments and
/// returns what --entry-point-result says.
static LogicalResult checkEntryFunction(ModuleOp module) {
  // (emitError at a location: no note with the whole op.)
  auto function = dyn_cast_or_null<LLVM::LLVMFuncOp>(
      SymbolTable::lookupSymbolIn(module, entryName));
  if (!function)
    return emitError(module.getLoc(), "no function '")
           << entryName << "' to run (-e " << entryName << ")";
  if (function.isExternal())
    return emitError(function.getLoc(), "entry function '")
           << entryName << "' is only declared: it has no body to run";
  if (function.getLinkage() != LLVM::Linkage::External)
    return emitError(function.getLoc(), "entry function '")
           << entryName << "' has linkage '"
           << LLVM::linkage::stringifyLinkage(function.getLinkage())
           << "': the JIT runs functions of external linkage";
  if (function.getCConv() != LLVM::cconv::CConv::C)
    return emitError(function.getLoc(), "entry function '")
           << entryName << "' has the calling convention '"
           << LLVM::cconv::stringifyCConv(function.getCConv())
           << "', but gather-runner calls it with the C calling convention";
  if (function.getNumArguments() != 0)
    return emitError(function.getLoc(), "entry function '")
           << entryName
           << "' takes arguments, but gather-runner calls it with none: call "
              "it from a function without arguments";
  Type expected = getEntryResultType(module.getContext());
  if (!expected)
    return emitError(module.getLoc(), "--entry-point-result=")
           << entryResult << " is not one of void, i32, i64, f32";
  Type result = function.getFunctionType().getReturnType();
  if (result != expected)
    return emitError(function.getLoc(), "entry function '")
           << entryName << "' returns " << result
           << ", but --entry-point-result=" << entryResult << " calls it as "
           << (entryResult == "void" ? "returning nothing"
                                     : "returning " + entryResult);
  return success();
}

/// lowerToLLVMDialect, checkEntryFunction, then the runtime libraries the
/// code needs and gather-runner does not link (libgather_cuda_runtime for
/// code that runs on the GPU).
static LogicalResult transformModule(ModuleOp module) {
  if (failed(lowerToLLVMDialect(module)) || failed(checkEntryFunction(module)))
    return failure();
  if (llvm::Error error = gather::loadRuntimeLibraries(module))
    return emitError(module.getLoc()) << llvm::toString(std::move(error));
  return success();
}

/// The translation to LLVM IR, or --link-nested-modules'; the last
/// step before the code runs, so in an MPI job the start-up verdict follows
/// it.
static std::unique_ptr<llvm::Module>
buildLLVMModule(Operation *op, llvm::LLVMContext &context) {
  // (Input in the LLVM dialect, or lowered by --pass-pipeline, did not come
  // through gather-check-constant-sizes.)
  std::unique_ptr<llvm::Module> module;
  if (succeeded(gather::checkExpandedConstantSizes(op)))
    module =
        linkNestedModules
            ? gather::translateAndLinkNestedModule(cast<ModuleOp>(op), context)
            : translateModuleToLLVMIR(op, context);
  (void)mpiJob.agreeToRun(/*failed=*/!module);
  return module;
}

/// Until the input is verified, an error from an op's verifier (worded
/// `'<op>' op ...`) is printed and ends gather-runner: the input is invalid
/// IR (mlir-runner would call it a parse failure).
static void reportInvalidInputIR(MLIRContext *context) {
  context->getDiagEngine().registerHandler([](Diagnostic &diag) {
    if (inputIsVerified || diag.getSeverity() != DiagnosticSeverity::Error ||
        !StringRef(diag.str()).starts_with("'"))
      return failure(); // The default handler prints it.
    gather::printDiagnostic(llvm::errs(), diag);
    llvm::errs() << "error: invalid input IR: the verifier rejects it\n";
    llvm::errs().flush();
    (void)mpiJob.agreeToRun(/*failed=*/true);
    std::_Exit(1);
  });
}

/// Prints every error (and its notes) as `<file>:<line>:<col>: error: ...`
/// (gather::printDiagnostic; an imported ONNX node's location as
/// `model.onnx: node 'n' (Op)`): mlir-runner installs no source-manager
/// handler, and MLIR's default one prints `loc("f.mlir":3:8): error: ...`.
/// Other diagnostics go on to the default handler (which drops them).
static void printErrors(MLIRContext *context) {
  context->getDiagEngine().registerHandler([](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return failure();
    gather::printDiagnostic(llvm::errs(), diag);
    llvm::errs().flush();
    return success();
  });
}

namespace {
enum class OnRuntimeError { Exit, Continue };
} // namespace

static llvm::cl::opt<OnRuntimeError> onRuntimeError(
    "on-runtime-error",
    llvm::cl::desc("What an invalid input found by the compiled code does"),
    llvm::cl::values(
        clEnumValN(OnRuntimeError::Exit, "exit",
                   "print the error and exit with status 1 (default)"),
        clEnumValN(OnRuntimeError::Continue, "continue",
                   "print every error, let the program go on (results "
                   "unspecified, memory-safe), exit with status 1 at the end")),
    llvm::cl::init(OnRuntimeError::Exit));

static bool sawRuntimeError = false;

/// The runtime's error handler in gather-runner.
static void handleRuntimeError(const char *message, void * /*userData*/) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", message);
  std::fflush(stderr);
  if (onRuntimeError == OnRuntimeError::Exit) {
    // (Every rank runs the same code: all of them end here.)
    mpiJob.exitAllRanks(1);
    std::_Exit(1); // Inside JIT-compiled code: no static destructors.
  }
  sawRuntimeError = true;
}

/// Prints `error: <message>` with one write (the ranks of an MPI job print
/// to one stream at the same time).
static void printError(const llvm::Twine &message) {
  llvm::errs() << ("error: " + message + "\n").str();
}

/// An error for each --shared-libs path that is not a regular file
/// (mlir-runner only prints a warning and runs without it).
static bool checkSharedLibs() {
  bool ok = true;
  for (const std::string &path : sharedLibs) {
    llvm::sys::fs::file_status status;
    std::error_code error = llvm::sys::fs::status(path, status);
    if (!error && llvm::sys::fs::is_regular_file(status))
      continue;
    printError("--shared-libs: cannot load '" + path +
               "': " + (error ? error.message() : "not a regular file"));
    ok = false;
  }
  return ok;
}

/// Whether file descriptor 1 was closed when gather-runner started (main):
/// /dev/null holds it then, and the run ends with the write error.
static bool standardOutputWasClosed = false;

/// After the run: whether whatever else wrote to the standard output
/// (llvm::outs(), the MLIR runner utilities' stdio and std::cout,
/// which is synchronized with stdio) reached it; if not, an error unless
/// `quiet` (the printer has reported it).
static bool checkStandardOutput(bool quiet) {
  llvm::outs().flush();
  std::error_code error = llvm::outs().error();
  llvm::outs().clear_error(); // (Else a fatal error at exit.)
  if (standardOutputWasClosed)
    error = std::make_error_code(std::errc::bad_file_descriptor);
  bool ok = !error;
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    ok = false;
    // (A write that failed earlier set errno then; a failing flush now.)
    if (errno != 0)
      error = std::error_code(errno, std::generic_category());
  }
  if (ok || quiet)
    return ok;
  printError("cannot write the results to the standard output" +
             (error ? ": " + error.message() : std::string()));
  return false;
}

/// JIT-compiles `module` (checked by checkEntryFunction) and calls the
/// entry function through its `_mlir_` wrapper, printing its result as
/// mlir-runner does; the engine is gone when this returns. Returns the exit
/// status.
static int runEntry(ModuleOp module,
                    const gather::JitEngineOptions &engineOptions) {
  auto engine = gather::createJitEngine(module, engineOptions);
  if (!engine) {
    printError(llvm::toString(engine.takeError()));
    return 1;
  }
  auto entry = (*engine)->lookupPacked(entryName);
  if (!entry) {
    printError("cannot find entry function '" + entryName +
               "': " + llvm::toString(entry.takeError()));
    return 1;
  }
  // The wrapper's argument list: a pointer to the result, if any.
  auto call = [&](auto *result) {
    void *resultAddress = result;
    (*entry)(&resultAddress);
  };
  if (entryResult == "i32") {
    int32_t result = 0;
    call(&result);
    llvm::outs() << result << '\n';
  } else if (entryResult == "i64") {
    int64_t result = 0;
    call(&result);
    llvm::outs() << result << '\n';
  } else if (entryResult == "f32") {
    float result = 0;
    call(&result);
    llvm::outs() << result << '\n';
  } else {
    call(static_cast<void *>(nullptr));
  }
  return 0;
}

static int toolMain(int argc, char **argv) {
  mpiJob.start();
  // A closed standard output is a write error, reported (the printer's
  // "cannot write result 0 ...", checkStandardOutput), not SIGPIPE.
  llvm::InitLLVM initLLVM(argc, argv, /*InstallPipeSignalExitHandler=*/false);
  std::signal(SIGPIPE, SIG_IGN);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();
  registerPassManagerCLOptions();
  (void)gather::getPipelineOptionsFlag();

  DialectRegistry registry;
  gather::registerONNXToLLVMPipelineDependencies(registry);
  // Any MLIR, for the upstream passes of a --pass-pipeline (the transform
  // interpreter, ...).
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  // Passes and pipelines for --pass-pipeline.
  mlir::registerAllPasses();
  gather::registerAllPasses();

  // (Errors in the command line are reported here, not by exit(1): every
  // rank of an MPI job takes part in the start-up verdict.)
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv, "gather's MLIR JIT runner\n", &llvm::errs()))
    return mpiJob.failStartUp();
  if (hostSupportsJit) {
    auto host = llvm::orc::JITTargetMachineBuilder::detectHost();
    llvm::outs() << (host ? "true\n" : "false\n");
    if (!host)
      llvm::consumeError(host.takeError());
    return 0;
  }

  gatherSetErrorHandler(handleRuntimeError, /*userData=*/nullptr);

  // Before libomp starts (in the first parallel region): it aborts or hangs
  // on some invalid thread settings.
  if (llvm::Error error = gather::checkOpenMPEnvironment()) {
    printError(llvm::toString(std::move(error)));
    return mpiJob.failStartUp();
  }

  if (!checkSharedLibs())
    return mpiJob.failStartUp();
  std::string optionsText = gather::getPipelineOptionsFlag();
  auto parsed = gather::parseONNXToLLVMPipelineOptions(optionsText);
  if (!parsed) {
    printError("invalid onnx-to-llvm pipeline options: '" + optionsText +
               "': " + llvm::toString(parsed.takeError()));
    return mpiJob.failStartUp();
  }
  std::unique_ptr<gather::ONNXToLLVMPipelineOptions> options =
      std::move(*parsed);
  mpiJob.setPlan(*options);
  if (llvm::Error error = mpiJob.setUp(*options)) {
    printError(llvm::toString(std::move(error)));
    return mpiJob.failStartUp();
  }
  // The target CPU (target-cpu, else the host) decides the form of the
  // gathers; code for another CPU must run here too.
  auto target =
      gather::TargetInfo::create(options->targetCpu, options->targetFeatures);
  if (llvm::Error error =
          target ? (*target)->checkRunsOnHost() : target.takeError()) {
    printError(llvm::toString(std::move(error)));
    return mpiJob.failStartUp();
  }

  MLIRContext context(registry);
  printErrors(&context);
  reportInvalidInputIR(&context);
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &errorMessage);
  if (!file) {
    printError(errorMessage);
    return mpiJob.failStartUp();
  }
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<Operation *> parsedOp =
      parseSourceFileForTool(sourceMgr, &context, !noImplicitModule);
  if (!parsedOp) {
    printError("could not parse the input IR");
    return mpiJob.failStartUp();
  }
  auto module = dyn_cast<ModuleOp>(parsedOp.get());
  if (!module) {
    emitError(parsedOp->getLoc(), "the top-level op must be a builtin.module "
                                  "(gather-runner runs a module), not '")
        << parsedOp->getName() << "'";
    return mpiJob.failStartUp();
  }
  if (failed(transformModule(module)))
    return mpiJob.failStartUp();

  // The engine as compileAndJit makes it (gather/ExecutionEngine/
  // JitEngine.h): the target's CPU and features, with +prefer-no-gather
  // unless the gather form uses hardware gathers, so that LLVM's
  // vectorizers do not create gathers either.
  std::vector<std::string> libraryPaths;
  for (const std::string &path : sharedLibs) {
    llvm::SmallString<256> absolute(path);
    (void)llvm::sys::fs::make_absolute(absolute);
    libraryPaths.push_back(absolute.str().str());
  }
  gather::JitEngineOptions engineOptions;
  engineOptions.optLevel = getOptLevel();
  engineOptions.cpu = (*target)->getCPU().str();
  engineOptions.features = (*target)->getCodeGenFeatures(options->gatherForm);
  engineOptions.extraFeatures = llvm::join(mAttrs, ",");
  engineOptions.llvmModuleBuilder = buildLLVMModule;
  engineOptions.sharedLibPaths = libraryPaths;
  if (dumpObjectFile)
    engineOptions.objectFile =
        objectFilename.empty() ? inputFilename + ".o" : objectFilename;
  engineOptions.registerWithDebuggers = registerWithDebuggers;
  int status = runEntry(module, engineOptions);
  // Before the verdict (buildLLVMModule): a start-up error; after it, a
  // failure of this rank alone (compiling, linking) ends the MPI job.
  if (status != 0 && !mpiJob.hasAgreed())
    return mpiJob.failStartUp();
  status = mpiJob.abortOnFailure(status);
  if (status == 0 && !checkStandardOutput(/*quiet=*/sawRuntimeError))
    return 1;
  return status == 0 && sawRuntimeError ? 1 : status;
}

// Out of memory (the JIT's section memory included) and fatal errors as
// errors with exit status 1, a large stack.
int main(int argc, char **argv) {
  // A closed standard output: the next file opened would get descriptor 1
  // (the JIT's profiling dump, which then received the results, exit 0).
  // /dev/null takes it instead, and the run is a write error.
  if (fcntl(STDOUT_FILENO, F_GETFD) == -1 && errno == EBADF) {
    standardOutputWasClosed = true;
    int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (fd >= 0 && fd != STDOUT_FILENO) {
      dup2(fd, STDOUT_FILENO);
      close(fd);
    }
  }
  return gather::runToolMain(argc, argv, toolMain);
}
