//===- gather-runner.cpp - JIT runner for onnx dialect IR -----------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mlir-runner (MLIR's JitRunner on the ExecutionEngine) that accepts input at
// any level: when the module still holds ops outside the LLVM dialect (onnx,
// linalg, tensor, ...), it first runs gather's onnx-to-llvm pipeline.
//
// Differences from mlir-runner:
//   - An entry function that takes no arguments and returns tensors (any
//     element type, rank and shape) is wrapped: its results are printed, one
//     line each, in the format of gather/Runtime/GatherRuntime.h
//     (`result 0: tensor<2x3xf32> = [[1, 2, 3], [4, 5, 6]]`); run it with
//     --entry-point-result=void.
//   - LLVM IR optimization defaults to -O3 (mlir-runner runs none unless an
//     -O flag is given); -O0 turns it off.
//   - --on-runtime-error=exit (default) ends the process with status 1 at the
//     first invalid input found by the compiled code; =continue prints every
//     report, lets the program go on, and exits with status 1 at the end.
//   - The printed results hold at most --print-limit elements and empty
//     groups together (default GATHER_DEFAULT_PRINT_LIMIT, 0: no limit);
//     then a line ends with a "... (<n> more elements not printed ...)"
//     marker and later results print only it (exit status 0).
//   - The MLIR runner utilities (printMemref*, printF64, ...) are linked in,
//     so no --shared-libs is needed for them.
//   - --pass-pipeline="builtin.module(...)" replaces the default lowering
//     (any registered pass or pipeline, gather's included);
//     --link-nested-modules translates a nested module separately and links
//     it in, as mlir-runner does.
//   - Input the verifier rejects is reported as invalid IR (after the
//     verifier's error), not as a parse failure; an entry that returns
//     tensors run without --entry-point-result=void says how to run it; a
//     missing entry, or one that takes arguments, is an error naming it.
//   - Diagnostics print as `<file>:<line>:<col>: error: ...`.
//   - A --shared-libs file that does not exist is an error (not a warning).
//   - Code that runs on the GPU (the host side of MLIR's GPU lowering: mgpu*
//     calls, gpu.binary, gpu.launch_func) gets gather's CUDA runtime,
//     libgather_cuda_runtime.so, loaded (RuntimeLibraries.h): no
//     --shared-libs.
//   - The JIT compiles for the host with +prefer-no-gather unless the gather
//     form chosen (--pipeline-options: target-cpu, target-features,
//     gather-form; docs/CodeShape.md) uses hardware gathers. Code for an
//     explicit target-cpu must run on the host (else an error).
//   - With --pipeline-options='shard-grid=N' the gathers are partitioned over
//     N MPI processes: run `mpirun -np N gather-runner ...`. Only rank 0
//     prints (the others' stdout is discarded); a job of another size, or no
//     mpirun (for N > 1), is an error.
//   - Started by an MPI launcher (MPICH's PMI_RANK / PMI_FD), it initializes
//     MPI first, and every rank takes part in one start-up verdict before the
//     code runs (gatherMPIAgreeToRun): an error on one rank (invalid
//     OMP_* settings, a missing file or entry, ...) or ranks started with
//     different partition plans end every rank with status 1, none waits.
//
// Usage: gather-runner file.mlir -e main --entry-point-result=void
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/Passes.h"
#include "gather/ExecutionEngine/JitCompiler.h"
#include "gather/ExecutionEngine/RuntimeLibraries.h"
#include "gather/Pipelines/Pipelines.h"
#include "gather/Runtime/GatherRuntime.h"
#include "gather/RuntimeABI/RuntimeABI.h"
#include "gather/Support/ConstantSizes.h"
#include "gather/Support/Diagnostics.h"
#include "gather/Support/ToolMain.h"
#ifdef GATHER_HAVE_MPI_RUNTIME
#include "gather/Runtime/GatherMPIRuntime.h"
#endif

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/ExecutionEngine/JitRunner.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

using namespace mlir;

//===----------------------------------------------------------------------===//
// The start-up of an MPI job
//===----------------------------------------------------------------------===//

namespace {
/// What every rank of an MPI job must agree on before the code runs.
struct MPIStartUp {
  /// Whether this process was started by an MPI launcher and initialized
  /// MPI at the start of main.
  bool inJob = false;
  /// Whether this rank has taken part in the verdict (once only).
  bool agreed = false;
  /// The partition plan: shard-grid, shard-dim, a hash of the program.
  int64_t shardGrid = 0;
  int64_t shardDim = -1;
  uint64_t programHash = 0;
  /// The other pipeline options that decide which collectives the ranks
  /// call (hashed with the program): ranks that differ in them would wait
  /// in different collectives.
  std::string collectiveOptions;
};
} // namespace

static MPIStartUp mpiStartUp;

/// Whether an MPI launcher started this process: MPICH's Hydra (and Slurm's
/// PMI-2) set PMI_RANK and PMI_FD (or PMI_PORT), PMIx launchers PMIX_RANK.
static bool isStartedByMPILauncher() {
  for (const char *name : {"PMI_RANK", "PMI_FD", "PMI_PORT", "PMIX_RANK"})
    if (std::getenv(name))
      return true;
  return false;
}

/// The start-up verdict of the MPI job (gatherMPIAgreeToRun) with this
/// rank's `failed`, once: returns only when every rank may run the code (and
/// `!failed` outside a job), else every rank exits with status 1. After it, a
/// failure of this rank alone ends the job (abortMPIJob).
static bool agreeToRun(bool failed) {
#ifdef GATHER_HAVE_MPI_RUNTIME
  if (!mpiStartUp.inJob || mpiStartUp.agreed)
    return !failed;
  mpiStartUp.agreed = true;
  gatherMPIAgreeToRun(failed, mpiStartUp.shardGrid, mpiStartUp.shardDim,
                      mpiStartUp.programHash);
#endif
  return !failed;
}

/// Under an MPI launcher, initializes MPI before anything can fail: a rank
/// that exits before the others reach MPI_Init leaves them waiting there
/// forever; after it, a rank's exit ends the job. A rank that ends through
/// exit() (e.g. the command-line parser's) takes part in the verdict too.
static void startMPIJob() {
#ifdef GATHER_HAVE_MPI_RUNTIME
  if (!isStartedByMPILauncher())
    return;
  gatherMPIStartJob();
  mpiStartUp.inJob = true;
  std::atexit([] { (void)agreeToRun(/*failed=*/true); });
#endif
}

/// A start-up error of this rank (already printed): the verdict, status 1.
static int failStartUp() {
  (void)agreeToRun(/*failed=*/true);
  return 1;
}

/// Ends the MPI job (every rank) after a failure of this rank alone once the
/// ranks have agreed to run; returns `status` outside a job.
static int abortMPIJob(int status) {
#ifdef GATHER_HAVE_MPI_RUNTIME
  if (mpiStartUp.inJob && mpiStartUp.agreed && status != 0) {
    llvm::errs().flush();
    gatherMPIAbortJob(status);
  }
#endif
  return status;
}

/// The program's part of the partition plan: a hash (the same in every
/// process) of the entry and of every op's name, operand and result types
/// and attributes (not the values of elements attributes: constants, which
/// do not change the plan, may be large), and of the pipeline options that
/// decide the collectives.
static uint64_t hashProgram(ModuleOp module, const JitRunnerOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << mpiStartUp.collectiveOptions << '\n';
  os << options.mainFuncName << ' ' << options.mainFuncType << '\n';
  module->walk([&](Operation *op) {
    os << op->getName() << '(';
    llvm::interleaveComma(op->getOperandTypes(), os);
    os << ")->(";
    llvm::interleaveComma(op->getResultTypes(), os);
    os << ')';
    for (NamedAttribute attribute : op->getAttrs())
      if (!isa<ElementsAttr>(attribute.getValue()))
        os << ' ' << attribute.getName() << '=' << attribute.getValue();
    os << '\n';
  });
  return llvm::xxh3_64bits(text);
}

//===----------------------------------------------------------------------===//
// The entry function and the lowering
//===----------------------------------------------------------------------===//

/// If the entry function `name` takes no arguments and returns tensors,
/// renames it and puts in its place a function that calls it and prints each
/// result with the runtime's gatherPrint<T>.
static LogicalResult wrapEntryResults(ModuleOp module, StringRef name) {
  auto entry = module.lookupSymbol<func::FuncOp>(name);
  if (!entry || entry.isExternal() || entry.getNumArguments() != 0 ||
      entry.getNumResults() == 0 ||
      !llvm::all_of(entry.getResultTypes(), llvm::IsaPred<TensorType>))
    return success();
  for (Type type : entry.getResultTypes())
    if (gather::getRuntimeTypeSuffix(cast<TensorType>(type).getElementType())
            .empty())
      return entry.emitError("cannot print results of type ") << type;

  // The wrapper's ops may come from dialects the input does not use.
  MLIRContext *context = module.getContext();
  context->loadDialect<arith::ArithDialect, func::FuncDialect,
                       tensor::TensorDialect>();

  SymbolTable symbolTable(module);
  if (failed(symbolTable.renameToUnique(entry, {&symbolTable})))
    return entry.emitError("cannot rename the entry function");
  entry.setPrivate();

  Location loc = entry.getLoc();
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto wrapper = func::FuncOp::create(builder, loc, name,
                                      FunctionType::get(context, {}, {}));
  builder.setInsertionPointToStart(wrapper.addEntryBlock());
  auto call = func::CallOp::create(builder, loc, entry, ValueRange());
  for (auto [index, result] : llvm::enumerate(call.getResults())) {
    Type elementType = cast<TensorType>(result.getType()).getElementType();
    auto unrankedType = UnrankedTensorType::get(elementType);
    FailureOr<func::FuncOp> print = gather::getOrDeclareRuntimeFunction(
        module, gather::RuntimeTensorFunction::Print, elementType);
    if (failed(print))
      return failure();
    Value unranked = tensor::CastOp::create(builder, loc, unrankedType, result);
    Value indexValue = arith::ConstantIntOp::create(
        builder, loc, static_cast<int64_t>(index), 64);
    Value args[] = {unranked, indexValue};
    func::CallOp::create(builder, loc, *print, args);
  }
  func::ReturnOp::create(builder, loc);
  return success();
}

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

static llvm::cl::opt<std::string> pipelineOptionsText(
    "pipeline-options",
    llvm::cl::desc("Options of the onnx-to-llvm pipeline, e.g. "
                   "\"vector-size=0 num-threads=1\" (scalar, single-threaded)"),
    llvm::cl::init(""));

/// Lowers `op` (a builtin.module) to the LLVM dialect with the onnx-to-llvm
/// pipeline, unless it is already there; wraps an entry function that
/// returns tensors first.
static LogicalResult lowerToLLVMDialect(Operation *op,
                                        JitRunnerOptions &options) {
  inputIsVerified = true;
  auto module = cast<ModuleOp>(op);
  if (mpiStartUp.inJob)
    mpiStartUp.programHash = hashProgram(module, options);
  // No user symbol may take the place of a runtime function, at any level.
  if (failed(gather::verifyRuntimeSymbols(module)))
    return failure();
  if (auto entry = module.lookupSymbol<func::FuncOp>(options.mainFuncName);
      entry && options.mainFuncType != "void" &&
      llvm::any_of(entry.getResultTypes(), llvm::IsaPred<TensorType>))
    return emitError(entry.getLoc(), "entry function '")
           << options.mainFuncName << "' returns tensors: run it with "
           << "--entry-point-result=void to print them";
  if (failed(wrapEntryResults(module, options.mainFuncName)))
    return failure();
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
        (nested->getDialect() && // (null for an unregistered op)
         isa<LLVM::LLVMDialect, omp::OpenMPDialect>(nested->getDialect())))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  if (!found.wasInterrupted())
    return success();

  PassManager pm = PassManager::on<ModuleOp>(op->getContext());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  if (failed(gather::buildONNXToLLVMPipeline(pm, pipelineOptionsText,
                                             op->getLoc())))
    return failure();
  return pm.run(op);
}

/// After lowering: the entry function exists and takes no arguments
/// (JitRunner would only say "entry point not found" or "JIT can't invoke a
/// main function expecting arguments").
static LogicalResult checkEntryFunction(ModuleOp module,
                                        const JitRunnerOptions &options) {
  // (emitError at a location: no note with the whole op.)
  auto function = dyn_cast_or_null<FunctionOpInterface>(
      SymbolTable::lookupSymbolIn(module, options.mainFuncName));
  if (!function)
    return emitError(module.getLoc(), "no function '")
           << options.mainFuncName << "' to run (-e " << options.mainFuncName
           << ")";
  if (function.getNumArguments() != 0)
    return emitError(function.getLoc(), "entry function '")
           << options.mainFuncName
           << "' takes arguments, but gather-runner calls it with none: call "
              "it from a function without arguments";
  return success();
}

/// JitRunner's MLIR transformer: lowerToLLVMDialect, checkEntryFunction,
/// then the runtime libraries the code needs and gather-runner does not
/// link (libgather_cuda_runtime for code that runs on the GPU).
static LogicalResult transformModule(Operation *op, JitRunnerOptions &options) {
  auto module = cast<ModuleOp>(op);
  if (failed(lowerToLLVMDialect(op, options)) ||
      failed(checkEntryFunction(module, options)))
    return failure();
  if (llvm::Error error = gather::loadRuntimeLibraries(module))
    return emitError(module.getLoc()) << llvm::toString(std::move(error));
  return success();
}

/// The linkage of `op` if it is an LLVM-dialect function or global that its
/// module defines (not declares).
static std::optional<LLVM::Linkage> getDefinitionLinkage(Operation *op) {
  if (auto function = dyn_cast<LLVM::LLVMFuncOp>(op))
    if (!function.isExternal())
      return function.getLinkage();
  if (auto global = dyn_cast<LLVM::GlobalOp>(op))
    if (global.getValue() || !global.getInitializer().empty())
      return global.getLinkage();
  return std::nullopt;
}

/// --link-nested-modules: a symbol that both modules define with external
/// linkage (the pipeline's own helpers are internal) is an error at the
/// nested definition, with a note at the outer one (LLVM's linker would only
/// say "symbol multiply defined").
static LogicalResult checkNoLinkClash(ModuleOp module, ModuleOp nested) {
  for (Operation &op : nested.getOps()) {
    auto symbol = dyn_cast<SymbolOpInterface>(&op);
    if (!symbol || getDefinitionLinkage(&op) != LLVM::Linkage::External)
      continue;
    Operation *outer = SymbolTable::lookupSymbolIn(module, symbol.getName());
    if (!outer || getDefinitionLinkage(outer) != LLVM::Linkage::External)
      continue;
    InFlightDiagnostic diag =
        emitError(op.getLoc(), "--link-nested-modules: '")
        << symbol.getName()
        << "' is defined both in the nested module and in the outer one "
           "(make one of them private)";
    diag.attachNote(outer->getLoc()) << "the outer definition";
    return diag;
  }
  return success();
}

/// --link-nested-modules: translates the one nested module and the rest
/// separately and links them into one LLVM IR module.
static std::unique_ptr<llvm::Module>
translateAndLinkNestedModule(Operation *op, llvm::LLVMContext &context) {
  auto module = cast<ModuleOp>(op);
  auto nestedModules = module.getOps<ModuleOp>();
  if (!llvm::hasSingleElement(nestedModules)) {
    emitError(module.getLoc(),
              "--link-nested-modules: the module must hold exactly "
              "one nested builtin.module");
    return nullptr;
  }
  ModuleOp nested = *nestedModules.begin();
  if (failed(checkNoLinkClash(module, nested)))
    return nullptr;
  std::unique_ptr<llvm::Module> nestedLLVM =
      translateModuleToLLVMIR(nested, context);
  if (!nestedLLVM)
    return nullptr;
  Location nestedLoc = nested.getLoc();
  nested.erase();
  std::unique_ptr<llvm::Module> mainLLVM =
      translateModuleToLLVMIR(module, context);
  if (!mainLLVM)
    return nullptr;
  // The linker's errors go to LLVMContext's handler, whose default prints
  // them without a location and exits: collect them instead.
  std::string linkerErrors;
  context.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo *info, void *errors) {
        llvm::raw_string_ostream os(*static_cast<std::string *>(errors));
        llvm::DiagnosticPrinterRawOStream printer(os);
        if (info->getSeverity() == llvm::DS_Error) {
          os << (static_cast<std::string *>(errors)->empty() ? "" : "; ");
          info->print(printer);
        }
      },
      &linkerErrors);
  bool linkFailed = llvm::Linker::linkModules(*mainLLVM, std::move(nestedLLVM));
  context.setDiagnosticHandlerCallBack(nullptr);
  if (linkFailed) {
    emitError(nestedLoc, "--link-nested-modules: linking the nested module "
                         "failed: ")
        << linkerErrors;
    return nullptr;
  }
  return mainLLVM;
}

/// JitRunner's translation to LLVM IR, or --link-nested-modules'; the last
/// step before the code runs, so in an MPI job the start-up verdict follows
/// it.
static std::unique_ptr<llvm::Module>
buildLLVMModule(Operation *op, llvm::LLVMContext &context) {
  // (Input in the LLVM dialect, or lowered by --pass-pipeline, did not come
  // through gather-check-constant-sizes.)
  std::unique_ptr<llvm::Module> module;
  if (succeeded(gather::checkExpandedConstantSizes(op)))
    module = linkNestedModules ? translateAndLinkNestedModule(op, context)
                               : translateModuleToLLVMIR(op, context);
  (void)agreeToRun(/*failed=*/!module);
  return module;
}

/// Until the input is verified, an error from an op's verifier (worded
/// `'<op>' op ...`) is printed and ends gather-runner: the input is invalid
/// IR (JitRunner would call it a parse failure).
static void reportInvalidInputIR(MLIRContext *context) {
  context->getDiagEngine().registerHandler([](Diagnostic &diag) {
    if (inputIsVerified || diag.getSeverity() != DiagnosticSeverity::Error ||
        !StringRef(diag.str()).starts_with("'"))
      return failure(); // The default handler prints it.
    gather::printDiagnostic(llvm::errs(), diag);
    llvm::errs() << "error: invalid input IR: the verifier rejects it\n";
    llvm::errs().flush();
    (void)agreeToRun(/*failed=*/true);
    std::_Exit(1);
  });
}

/// Prints every error (and its notes) as `<file>:<line>:<col>: error: ...`
/// (gather::printDiagnostic; an imported ONNX node's location as
/// `model.onnx: node 'n' (Op)`): JitRunner installs no source-manager
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
#ifdef GATHER_HAVE_MPI_RUNTIME
    // (Every rank runs the same code: all of them end here.)
    if (mpiStartUp.inJob)
      gatherMPIExit(1);
#endif
    std::_Exit(1); // Inside JIT-compiled code: no static destructors.
  }
  sawRuntimeError = true;
}

/// Prints `error: <message>` with one write (the ranks of an MPI job print
/// to one stream at the same time).
static void printError(const llvm::Twine &message) {
  llvm::errs() << ("error: " + message + "\n").str();
}

/// The value of the first of `names` set in the environment, as an integer;
/// -1 if none is set.
static int64_t getEnvInt(std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (const char *value = std::getenv(name))
      return std::atoll(value);
  return -1;
}

/// In an MPI job (MPICH's PMI_SIZE / PMI_RANK, Open MPI's
/// OMPI_COMM_WORLD_SIZE / _RANK), silences stdout on ranks other than 0, so
/// that rank 0 alone prints, also for IR partitioned beforehand. With
/// `shard-grid=N` in --pipeline-options, checks that this process is one of
/// an MPI job of N. Returns false after printing an error.
static bool setUpMPIJob(const gather::ONNXToLLVMPipelineOptions &options) {
  int64_t size = getEnvInt({"PMI_SIZE", "OMPI_COMM_WORLD_SIZE"});
  int64_t rank = getEnvInt({"PMI_RANK", "OMPI_COMM_WORLD_RANK"});
  if (rank > 0) {
    std::fflush(stdout);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
      dup2(null, STDOUT_FILENO);
      close(null);
    }
  }
  if (options.shardGrid <= 0)
    return true;
  int64_t grid = options.shardGrid;
  if (size < 0 && grid != 1) {
    printError("shard-grid=" + llvm::Twine(grid) + " runs on " +
               llvm::Twine(grid) + " MPI processes: start it with mpirun -np " +
               llvm::Twine(grid) + " gather-runner ...");
    return false;
  }
  if (size >= 0 && size != grid) {
    printError("shard-grid=" + llvm::Twine(grid) + ", but the MPI job has " +
               llvm::Twine(size) + (size == 1 ? " process" : " processes") +
               ": run it with mpirun -np " + llvm::Twine(grid));
    return false;
  }
  return true;
}

/// The values of command-line option `name` in `argv` (`-name=v`,
/// `--name=v`, `-name v`), for options needed before JitRunnerMain parses
/// the command line.
static llvm::SmallVector<std::string> getOptionValues(int argc, char **argv,
                                                      llvm::StringRef name) {
  llvm::SmallVector<std::string> values;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (!arg.starts_with("-"))
      continue;
    arg = arg.ltrim('-');
    if (!arg.consume_front(name))
      continue;
    if (arg.consume_front("="))
      values.push_back(arg.str());
    else if (arg.empty() && i + 1 < argc)
      values.push_back(argv[++i]);
  }
  return values;
}

/// An error for each --shared-libs path that is not a regular file
/// (JitRunner only prints a warning and runs without it).
static bool checkSharedLibs(int argc, char **argv) {
  bool ok = true;
  for (const std::string &list : getOptionValues(argc, argv, "shared-libs")) {
    llvm::SmallVector<llvm::StringRef> paths;
    llvm::StringRef(list).split(paths, ',');
    for (llvm::StringRef path : paths) {
      llvm::sys::fs::file_status status;
      std::error_code error = llvm::sys::fs::status(path, status);
      if (!error && llvm::sys::fs::is_regular_file(status))
        continue;
      printError("--shared-libs: cannot load '" + path +
                 "': " + (error ? error.message() : "not a regular file"));
      ok = false;
    }
  }
  return ok;
}

/// Whether file descriptor 1 was closed when gather-runner started (main):
/// /dev/null holds it then, and the run ends with the write error.
static bool standardOutputWasClosed = false;

/// After the run: whether whatever else wrote to the standard output
/// (JitRunner's llvm::outs(), the MLIR runner utilities' stdio and std::cout,
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

static bool isOptLevelFlag(llvm::StringRef arg) {
  arg = arg.ltrim('-');
  return arg == "O0" || arg == "O1" || arg == "O2" || arg == "O3";
}

static int toolMain(int argc, char **argv) {
  startMPIJob();
  // A closed standard output is a write error, reported (the printer's
  // "cannot write result 0 ...", checkStandardOutput), not SIGPIPE.
  llvm::InitLLVM initLLVM(argc, argv, /*InstallPipeSignalExitHandler=*/false);
  std::signal(SIGPIPE, SIG_IGN);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();
  registerPassManagerCLOptions();

  DialectRegistry registry;
  gather::registerONNXToLLVMPipelineDependencies(registry);
  registerAllToLLVMIRTranslations(registry);
  // Any context JitRunner creates gets the handler (the builtin dialect is
  // loaded first, by every context).
  registry.addExtension(+[](MLIRContext *context, BuiltinDialect *) {
    printErrors(context);
    reportInvalidInputIR(context);
  });
  // Passes and pipelines for --pass-pipeline.
  mlir::registerAllPasses();
  gather::registerAllPasses();

  // LLVM optimization on by default: JitRunner only optimizes with -O<n>.
  llvm::SmallVector<char *> args(argv, argv + argc);
  static char defaultOptLevel[] = "-O3";
  if (llvm::none_of(llvm::ArrayRef(args).drop_front(),
                    [](const char *arg) { return isOptLevelFlag(arg); }))
    args.insert(args.begin() + 1, defaultOptLevel);

  gatherSetErrorHandler(handleRuntimeError, /*userData=*/nullptr);

  // Before libomp starts (in the first parallel region): it aborts or hangs
  // on some invalid thread settings.
  if (llvm::Error error = gather::checkOpenMPEnvironment()) {
    printError(llvm::toString(std::move(error)));
    return failStartUp();
  }

  if (!checkSharedLibs(argc, argv))
    return failStartUp();
  // --pipeline-options is needed before JitRunnerMain parses the command
  // line: find it here (the last one counts, as for any option), parse it
  // once.
  llvm::SmallVector<std::string> optionsTexts =
      getOptionValues(argc, argv, "pipeline-options");
  std::string optionsText = optionsTexts.empty() ? "" : optionsTexts.back();
  auto parsed = gather::parseONNXToLLVMPipelineOptions(optionsText);
  if (!parsed) {
    printError("invalid onnx-to-llvm pipeline options: '" + optionsText +
               "': " + llvm::toString(parsed.takeError()));
    return failStartUp();
  }
  std::unique_ptr<gather::ONNXToLLVMPipelineOptions> options =
      std::move(*parsed);
  mpiStartUp.shardGrid = options->shardGrid;
  mpiStartUp.shardDim = options->shardDim;
  mpiStartUp.collectiveOptions =
      "runtime-checks=" + std::to_string(options->runtimeChecks) +
      " shard-assembly=" +
      gather::stringifyEnumOption(gather::kShardAssemblyValues,
                                  options->shardAssembly.getValue())
          .str() +
      " shard-io=" +
      gather::stringifyEnumOption(gather::kShardIOValues,
                                  options->shardIO.getValue())
          .str() +
      " shard-axis-scheme=" +
      gather::stringifyEnumOption(gather::kAxisSchemeValues,
                                  options->shardAxisScheme.getValue())
          .str();
  if (!setUpMPIJob(*options))
    return failStartUp();
  // The target CPU (target-cpu, else the host) decides the form of the
  // gathers; code for another CPU must run here too. Unless the form uses
  // hardware gathers, JitRunner's target machine (the host's) gets
  // +prefer-no-gather: LLVM's vectorizers then do not create gathers either.
  static char preferNoGather[] = "--mattr=+prefer-no-gather";
  {
    auto target =
        gather::TargetInfo::create(options->targetCpu, options->targetFeatures);
    llvm::Error error =
        target ? (*target)->checkRunsOnHost() : target.takeError();
    if (error) {
      printError(llvm::toString(std::move(error)));
      return failStartUp();
    }
    if (!(*target)->usesHardwareGathers(options->gatherForm))
      args.insert(args.begin() + 1, preferNoGather);
  }

  JitRunnerConfig config;
  config.mlirTransformer = transformModule;
  // (Read after JitRunnerMain parsed the command line.)
  config.llvmModuleBuilder = buildLLVMModule;
  int status = JitRunnerMain(static_cast<int>(args.size()), args.data(),
                             registry, config);
  // Before the verdict (buildLLVMModule): a start-up error; after it, a
  // failure of this rank alone (compiling, linking) ends the MPI job.
  if (status != 0 && !mpiStartUp.agreed)
    return failStartUp();
  status = abortMPIJob(status);
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
