//===- Pipelines.cpp - The onnx-to-llvm pipeline and its stages -----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Pipelines.h"
#include "gather/Codegen/Passes.h"
#include "gather/Conversion/ONNXToLLVM/ONNXToLLVM.h"
#include "gather/Conversion/Passes.h"
#include "gather/Conversion/ShardToMPIRuntime/ShardToMPIRuntime.h"
#include "gather/Dialect/ONNX/ONNXDialect.h"
#include "gather/Dialect/ONNX/Sharding/Sharding.h"
#include "gather/Dialect/ONNX/Transforms/Passes.h"
#include "gather/GPU/Passes.h"
#include "gather/Pipelines/Passes.h"
#include "gather/Support/PassOptions.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/ShardToMPI/ShardToMPI.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>

using namespace mlir;

//===----------------------------------------------------------------------===//
// The stages of onnx-to-llvm
//===----------------------------------------------------------------------===//

void gather::addONNXPreprocessingPasses(
    OpPassManager &pm, const ONNXToLLVMPipelineOptions &options) {
  // A gather's result copied into a destination of dynamic sizes: checked
  // before the canonicalizer folds tensor-level copies away.
  ONNX::CheckGatherDestinationsPassOptions destinationOptions;
  destinationOptions.runtimeChecks = options.runtimeChecks;
  pm.addPass(ONNX::createCheckGatherDestinationsPass(destinationOptions));
  // A user's masked writes of a whole tensor as blends, before the
  // canonicalizer drops their masks (MLIR 22 folds such a write of a read).
  pm.addNestedPass<func::FuncOp>(createBlendMaskedWritesPass());
  // Fold what is known at compile time (constant gathers, identities), then
  // refine unranked and dynamic result types.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(ONNX::createONNXShapeInferencePass());
}

void gather::addShardingPasses(OpPassManager &pm,
                               const ONNXToLLVMPipelineOptions &options) {
  // Partition the gathers over MPI processes, at the onnx level (a negative
  // shard-grid reaches onnx-shard-gathers, which rejects it).
  if (options.shardGrid == 0)
    return;
  ONNX::ONNXShardGathersPassOptions shardOptions;
  shardOptions.gridSize = options.shardGrid;
  shardOptions.shardDim = options.shardDim;
  shardOptions.io = options.shardIO;
  shardOptions.axisScheme = options.shardAxisScheme;
  pm.addPass(ONNX::createONNXShardGathersPass(shardOptions));
  pm.addPass(ONNX::createShardPartitionFunctionsPass());
}

void gather::addONNXToLinalgPasses(OpPassManager &pm,
                                   const ONNXToLLVMPipelineOptions &options) {
  // onnx -> linalg + tensor + arith (+ run-time checks).
  ConvertONNXToLinalgPassOptions toLinalgOptions;
  toLinalgOptions.runtimeChecks = options.runtimeChecks;
  pm.addPass(createConvertONNXToLinalgPass(toLinalgOptions));
  // Ops of the onnx namespace that gather does not lower (onnx-mlir's
  // onnx.TopK, ...): an error at each one, now.
  CheckLoweredPassOptions onnxLeftOptions;
  onnxLeftOptions.level = CheckLevel::ONNX;
  pm.addPass(createCheckLoweredPass(onnxLeftOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void gather::addShardToMPIPasses(OpPassManager &pm,
                                 const ONNXToLLVMPipelineOptions &options) {
  if (options.shardGrid == 0)
    return;
  ShardPrepareForMPIPassOptions prepareOptions;
  prepareOptions.assembly = options.shardAssembly;
  pm.addPass(createShardPrepareForMPIPass(prepareOptions));
  pm.addPass(createConvertShardToMPIPass());
  // One communicator per mpi.comm_split site, not one per call.
  pm.addPass(createShardCacheCommunicatorsPass());
  pm.addPass(createSymbolDCEPass()); // The private shard.grid.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// Whether the code is threaded (OpenMP): every num-threads but 1, on the
/// CPU.
static bool usesThreads(const gather::ONNXToLLVMPipelineOptions &options) {
  return options.numThreads != 1 && !options.usesGPU();
}

gather::CodegenPassOptions
gather::getCodegenPassOptions(const ONNXToLLVMPipelineOptions &options) {
  CodegenPassOptions codegenOptions;
  // gather-form=scalar: scalar loops, whatever the vector size.
  codegenOptions.vectorSize =
      options.gatherForm == GatherForm::Scalar ? 0 : options.vectorSize;
  codegenOptions.parallel = usesThreads(options);
  codegenOptions.parallelThreshold = options.parallelThreshold;
  codegenOptions.prefetchDistance = options.prefetchDistance;
  codegenOptions.narrowOffsets = options.narrowOffsets;
  codegenOptions.narrowLimit = options.narrowLimit;
  codegenOptions.rowBlockBytes = options.rowBlockBytes;
  codegenOptions.inRegisterGathers = options.inRegisterGathers;
  codegenOptions.targetCpu = options.targetCpu;
  codegenOptions.targetFeatures = options.targetFeatures;
  codegenOptions.unfusedRemarks = options.unfusedRemarks;
  return codegenOptions;
}

void gather::addCodegenPasses(OpPassManager &pm,
                              const ONNXToLLVMPipelineOptions &options) {
  // On the GPU, the gathers become kernels after bufferization
  // (addGPUPasses).
  if (options.usesGPU())
    return;
  // Gathers that a pipeline bufferized before this one, on tensors again;
  // then the gathers' loops, each fused with its index check; threads
  // (scf.forall) and vectors (vector.gather).
  OpPassManager &functions = pm.nest<func::FuncOp>();
  functions.addPass(createRaiseBufferGathersPass());
  functions.addPass(createCodegenPass(getCodegenPassOptions(options)));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // IR vectorized upstream (the transform dialect) for tiles that do not
  // divide the shape: its vector.mask ops, folded into the masks of the
  // gathers and transfers they wrap (neither gather-select-form nor
  // bufferization handles the region).
  pm.addNestedPass<func::FuncOp>(createLowerVectorMasksPass());
  // The form of the vector.gathers for the target CPU (which it also checks
  // and stamps on the functions when explicit).
  SelectFormPassOptions formOptions;
  formOptions.targetCpu = options.targetCpu;
  formOptions.targetFeatures = options.targetFeatures;
  formOptions.gatherForm = options.gatherForm;
  pm.addPass(createSelectFormPass(formOptions));
}

void gather::addBufferizationPasses(OpPassManager &pm,
                                    const ONNXToLLVMPipelineOptions &options) {
  // The to_tensor ops that a partial bufferization before this pipeline
  // left, restrict where that is so (One-Shot Bufferize takes no others).
  pm.addPass(createRestrictToTensorsPass());
  // No tensor.empty or constant tensor shared by many ops (CSE merged equal
  // ones): bufferization's analysis would take time quadratic in their uses.
  pm.addPass(createDuplicateSharedTensorsPass());
  // tensor -> memref. A gather materialized into a destination buffer
  // (destination-passing style) is computed in place on every path (shape
  // checks, threaded or serial loops): no allocation, no copy.
  pm.addPass(createEliminateDestinationEmptyTensorsPass());
  // The masked writes of a whole tensor that gather-lower-vector-masks
  // made, as blends (bufferization would lose their masked lanes).
  pm.addNestedPass<func::FuncOp>(createBlendMaskedWritesPass());
  // Identity layouts at function boundaries: the C interface of entry points
  // then takes plain row-major buffers.
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // Gathers whose results are carried through loops (iter_args).
  bufferizeOptions.allowReturnAllocsFromLoops = true;
  // New buffers (tensor.empty) are row-major too: a loop's result yielded
  // by an scf.if then keeps the identity layout (no strided cast, no copy).
  bufferizeOptions.unknownTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Each result its own buffer: the caller frees every one (MLIR 22's
  // ownership-based-buffer-deallocation returns a shared one twice).
  pm.addNestedPass<func::FuncOp>(createCopyAliasedResultsPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
  // Every heap allocation checked: an impossible size or a null buffer is
  // reported through the runtime ("out of memory"), never used.
  pm.addPass(createCheckAllocationsPass());
}

void gather::addGPUPasses(OpPassManager &pm,
                          const ONNXToLLVMPipelineOptions &options) {
  if (std::optional<GPUTarget> target = getGPUTarget(options))
    addGPUKernelPasses(pm, *target);
}

void gather::addLowerToLLVMPasses(OpPassManager &pm,
                                  const ONNXToLLVMPipelineOptions &options) {
  // scf.forall -> omp.parallel + omp.wsloop. canonicalize removes the
  // memref.alloca_scope that convert-scf-to-openmp puts around a loop body
  // where nothing in it may allocate on the stack (the others:
  // gather-lower-alloca-scopes, below).
  if (usesThreads(options)) {
    pm.addPass(createForallToParallelLoopPass());
    ConvertSCFToOpenMPPassOptions openMPOptions;
    openMPOptions.numThreads =
        std::min<unsigned>(options.numThreads, kMaxNumThreads);
    pm.addPass(createConvertSCFToOpenMPPass(openMPOptions));
    pm.addPass(createCanonicalizerPass());
  }

  // linalg, vector transfers -> scf -> cf. vector.multi_reduction (from
  // upstream's vectorizer: reductions such as a matmul's) first, which
  // convert-vector-to-llvm does not lower.
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass());
  // gather-codegen's in-register gathers: the target's permutes (after
  // bufferization, which rejects llvm.call_intrinsic).
  pm.addNestedPass<func::FuncOp>(createLowerRowPermutesPass());
  // Vector reads and writes of i1 buffers through i8 views (convert-vector-
  // to-llvm would pack their bits).
  pm.addNestedPass<func::FuncOp>(createWidenI1AccessesPass());
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass());
  // Copies of strided buffers as loops: no call of the runner library's
  // memrefCopy, which hosts of the kernel API do not load.
  pm.addNestedPass<func::FuncOp>(createLowerStridedCopiesPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // The alloca scopes left (a loop body with a call or a memref.alloca)
  // as stack save and restore: convert-scf-to-cf would give them blocks.
  pm.addNestedPass<func::FuncOp>(createLowerAllocaScopesPass());
  // Without pattern rollback: the lowering of each scf op splits its block,
  // and recording every moved op for a rollback that its patterns never
  // need makes many loops and branches in one block ~10x slower.
  SCFToControlFlowPassOptions scfToCFOptions;
  scfToCFOptions.allowPatternRollback = false;
  pm.addPass(createSCFToControlFlowPass(scfToCFOptions));

  // Everything -> llvm. Vector ops need their own pass before
  // convert-to-llvm, which does not lower them.
  pm.addPass(createConvertVectorToLLVMPass());
  // String constants with one symbol table (convert-to-llvm would build
  // one per constant).
  pm.addPass(createConvertONNXStringsToLLVMPass());
  if (std::optional<GPUTarget> target = getGPUTarget(options))
    addGPUToLLVMPasses(pm, *target);
  else
    pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // Helpers that every module holds (dealloc_helper, ...) link without a
  // clash.
  pm.addPass(createInternalizePrivateSymbolsPass());
  // A splat constant too large to expand: an error, not an exhausted
  // memory in the translation to LLVM IR.
  pm.addPass(createCheckConstantSizesPass());
  // Anything still outside the LLVM dialect: an error naming the first op.
  pm.addPass(createCheckLoweredPass());
}

//===----------------------------------------------------------------------===//
// The pipeline
//===----------------------------------------------------------------------===//

void gather::buildONNXToLLVMPipeline(OpPassManager &pm,
                                     const ONNXToLLVMPipelineOptions &options) {
  // Nested builtin.modules first, each with this whole pipeline.
  LowerNestedModulesPassOptions nestedOptions;
  llvm::raw_string_ostream os(nestedOptions.pipelineOptions);
  options.print(os);
  // print() writes `{a=1 b=2}`; the option takes `a=1 b=2`.
  StringRef printed = StringRef(nestedOptions.pipelineOptions).trim();
  if (printed.consume_front("{"))
    printed.consume_back("}");
  nestedOptions.pipelineOptions = printed.str();
  pm.addPass(createLowerNestedModulesPass(nestedOptions));
  addONNXToLLVMStages(pm, options);
}

void gather::addONNXToLLVMStages(OpPassManager &pm,
                                 const ONNXToLLVMPipelineOptions &options) {
  addONNXPreprocessingPasses(pm, options);
  addShardingPasses(pm, options);
  addONNXToLinalgPasses(pm, options);
  addShardToMPIPasses(pm, options);
  addCodegenPasses(pm, options);
  addBufferizationPasses(pm, options);
  addGPUPasses(pm, options);
  addLowerToLLVMPasses(pm, options);
}

//===----------------------------------------------------------------------===//
// Options as text, and the pass managers the pipelines go into
//===----------------------------------------------------------------------===//

SmallVector<const llvm::cl::Option *>
gather::ONNXToLLVMPipelineOptions::getOptions() const {
  SmallVector<const llvm::cl::Option *> options;
  for (const auto &entry : OptionsMap)
    options.push_back(entry.second);
  llvm::sort(options, [](const llvm::cl::Option *a, const llvm::cl::Option *b) {
    return a->ArgStr < b->ArgStr;
  });
  return options;
}

/// The spellings of the values of each option of `options` whose values
/// are an enumeration, by option name.
static llvm::StringMap<SmallVector<StringRef>>
getEnumOptionValueNames(gather::ONNXToLLVMPipelineOptions &options) {
  llvm::StringMap<SmallVector<StringRef>> names;
  auto add = [&](auto &option) {
    auto &parser = option.getParser();
    SmallVector<StringRef> &values = names[option.ArgStr];
    for (unsigned i = 0, e = parser.getNumOptions(); i < e; ++i)
      values.push_back(parser.getOption(i));
  };
  add(options.gatherForm);
  add(options.shardAssembly);
  add(options.shardAxisScheme);
  add(options.shardIO);
  add(options.gpu);
  add(options.gpuFormat);
  add(options.gpuMemory);
  return names;
}

/// A hint for a value that holds more options: `a=1,b=2` (the separator is
/// a space, as in `--onnx-to-llvm="a=1 b=2"`).
static std::string commaHint(StringRef value) {
  if (value.contains(',') && value.contains('='))
    return "; options are separated by spaces, not commas";
  return "";
}

/// The options of `options` whose values are integers, by name: whether
/// each is unsigned. (Checked here, since llvm::cl's parser prints its own
/// line to stderr for a value that is not one.)
static llvm::StringMap<bool>
getIntegerOptions(gather::ONNXToLLVMPipelineOptions &options) {
  llvm::StringMap<bool> names;
  for (llvm::cl::Option *option :
       {static_cast<llvm::cl::Option *>(&options.vectorSize),
        static_cast<llvm::cl::Option *>(&options.prefetchDistance),
        static_cast<llvm::cl::Option *>(&options.narrowLimit),
        static_cast<llvm::cl::Option *>(&options.rowBlockBytes),
        static_cast<llvm::cl::Option *>(&options.parallelThreshold),
        static_cast<llvm::cl::Option *>(&options.shardGrid),
        static_cast<llvm::cl::Option *>(&options.shardDim)})
    names[option->ArgStr] = false;
  names[options.numThreads.ArgStr] = true;
  return names;
}

llvm::Expected<std::unique_ptr<gather::ONNXToLLVMPipelineOptions>>
gather::parseONNXToLLVMPipelineOptions(StringRef text) {
  auto options = std::make_unique<ONNXToLLVMPipelineOptions>();
  SmallVector<const llvm::cl::Option *> known = options->getOptions();
  SmallVector<StringRef> names = llvm::map_to_vector(
      known, [](const llvm::cl::Option *option) { return option->ArgStr; });
  auto fail = [](const Twine &message) {
    return llvm::createStringError(message);
  };
  llvm::StringMap<SmallVector<StringRef>> enumValues =
      getEnumOptionValueNames(*options);
  llvm::StringMap<bool> integerOptions = getIntegerOptions(*options);
  for (const OptionItem &item : splitOptionItems(text)) {
    const auto *found = llvm::find_if(known, [&](const llvm::cl::Option *o) {
      return o->ArgStr == item.key;
    });
    if (found == known.end())
      return fail("unknown option '" + item.key + "'; " +
                  listValid("options", item.key, names));
    // A bool: `key` alone is true, `key=` is no value (llvm::cl would take
    // it as true).
    if ((*found)->getValueExpectedFlag() == llvm::cl::ValueOptional &&
        item.hasValue && !isBoolOptionText(item.value))
      return fail("invalid value '" + item.value + "' for option '" + item.key +
                  "' (true or false)");
    // An enumeration: one of its values (its parser knows them).
    auto values = enumValues.find(item.key);
    if (values != enumValues.end() &&
        !llvm::is_contained(values->second, item.value))
      return fail("invalid value '" + item.value + "' for option '" + item.key +
                  "'; " + listValid("values", item.value, values->second) +
                  commaHint(item.value));
    // An integer: decimal (signed or not as the option is).
    auto integer = integerOptions.find(item.key);
    if (integer != integerOptions.end()) {
      int64_t signedValue;
      uint64_t unsignedValue;
      bool valid = integer->second
                       ? !item.value.getAsInteger(10, unsignedValue) &&
                             unsignedValue <= UINT32_MAX
                       : !item.value.getAsInteger(10, signedValue);
      if (!valid)
        return fail(
            "invalid value '" + item.value + "' for option '" + item.key +
            "': not " + (integer->second ? "an unsigned 32-bit" : "a 64-bit") +
            " integer (" + (*found)->HelpStr + ")" + commaHint(item.value));
    }
    // A value of the wrong type otherwise (reasons written to `os`).
    std::string reason;
    llvm::raw_string_ostream os(reason);
    if (failed(options->parseFromString(item.text, os)))
      return fail("invalid value '" + item.value + "' for option '" + item.key +
                  "' (" + (*found)->HelpStr + ")" + commaHint(item.value));
  }
  if (llvm::Error error = checkONNXToLLVMPipelineOptions(*options))
    return std::move(error);
  return options;
}

std::optional<gather::GPUTarget>
gather::getGPUTarget(const ONNXToLLVMPipelineOptions &options) {
  if (!options.usesGPU())
    return std::nullopt;
  GPUTarget target;
  target.kind = options.gpu;
  target.chip = options.gpuChip;
  target.features = kGPUFeatures.str();
  target.format = options.gpuFormat;
  target.memory = options.gpuMemory;
  return target;
}

llvm::Error gather::checkONNXToLLVMPipelineOptions(
    const ONNXToLLVMPipelineOptions &options) {
  auto fail = [](const Twine &message) {
    return llvm::createStringError(message);
  };
  if (!llvm::is_contained(kGPUChips, options.gpuChip.getValue()))
    return fail("invalid value '" + options.gpuChip.getValue() +
                "' for option 'gpu-chip': PTX ISA 8.0 (" + kGPUFeatures +
                ") targets " +
                llvm::join(std::begin(kGPUChips), std::end(kGPUChips), ", "));
  ONNXToLLVMPipelineOptions defaults;
  if (!options.usesGPU()) {
    // The GPU code's options, each with whether it differs from its
    // default.
    std::pair<const llvm::cl::Option *, bool> gpuOptions[] = {
        {&options.gpuChip, options.gpuChip != defaults.gpuChip},
        {&options.gpuFormat,
         options.gpuFormat.getValue() != defaults.gpuFormat.getValue()},
        {&options.gpuMemory,
         options.gpuMemory.getValue() != defaults.gpuMemory.getValue()},
    };
    for (auto [option, set] : gpuOptions)
      if (set)
        return fail("option '" + option->ArgStr +
                    "' is for GPU code: it needs gpu=cuda");
    return llvm::Error::success();
  }
  // The CPU code's options, each with whether it differs from its default.
  std::pair<const llvm::cl::Option *, bool> cpuOptions[] = {
      {&options.shardGrid, options.shardGrid != defaults.shardGrid},
      {&options.shardDim, options.shardDim != defaults.shardDim},
      {&options.shardAssembly,
       options.shardAssembly.getValue() != defaults.shardAssembly.getValue()},
      {&options.shardIO,
       options.shardIO.getValue() != defaults.shardIO.getValue()},
      {&options.shardAxisScheme, options.shardAxisScheme.getValue() !=
                                     defaults.shardAxisScheme.getValue()},
      {&options.numThreads, options.numThreads != defaults.numThreads},
      {&options.targetCpu, options.targetCpu != defaults.targetCpu},
      {&options.targetFeatures,
       options.targetFeatures != defaults.targetFeatures},
      {&options.gatherForm, options.gatherForm != defaults.gatherForm},
      {&options.vectorSize, options.vectorSize != defaults.vectorSize},
      {&options.prefetchDistance,
       options.prefetchDistance != defaults.prefetchDistance},
      {&options.narrowOffsets, options.narrowOffsets != defaults.narrowOffsets},
      {&options.narrowLimit, options.narrowLimit != defaults.narrowLimit},
      {&options.rowBlockBytes, options.rowBlockBytes != defaults.rowBlockBytes},
      {&options.inRegisterGathers,
       options.inRegisterGathers != defaults.inRegisterGathers},
      {&options.parallelThreshold,
       options.parallelThreshold != defaults.parallelThreshold},
  };
  for (auto [option, set] : cpuOptions)
    if (set)
      return fail("option '" + option->ArgStr + "' is for CPU code: it " +
                  "cannot be combined with gpu=" +
                  stringifyEnumOption(kGPUKindValues, options.gpu.getValue()));
  return llvm::Error::success();
}

/// Whether `pm` can take the passes of the gather pipeline `name`: module
/// passes, so a pass manager on builtin.module or on any op (not one nested
/// on func.func, where adding them is a fatal error of MLIR's). Else reports
/// it through `errorHandler`.
static LogicalResult
checkPipelineAnchor(OpPassManager &pm, StringRef name,
                    function_ref<LogicalResult(const Twine &)> errorHandler) {
  StringRef anchor = pm.getOpAnchorName();
  if (anchor == ModuleOp::getOperationName() ||
      anchor == OpPassManager::getAnyOpAnchorName())
    return success();
  return errorHandler("'" + name + "' runs on 'builtin.module', not on '" +
                      anchor + "' (its passes are module passes): put it at " +
                      "the top level, as in builtin.module(" + name + ")");
}

LogicalResult gather::buildONNXToLLVMPipeline(OpPassManager &pm,
                                              StringRef options, Location loc) {
  auto parsed = parseONNXToLLVMPipelineOptions(options);
  if (!parsed)
    return emitError(loc) << "invalid onnx-to-llvm pipeline options: '"
                          << options
                          << "': " << llvm::toString(parsed.takeError());
  if (failed(checkPipelineAnchor(pm, "onnx-to-llvm", [&](const Twine &message) {
        return emitError(loc) << message;
      })))
    return failure();
  buildONNXToLLVMPipeline(pm, **parsed);
  return success();
}

void gather::registerONNXToLLVMPipeline() {
  using Builder = void (*)(OpPassManager &, const ONNXToLLVMPipelineOptions &);
  struct Stage {
    const char *name;
    const char *description;
    Builder build;
  };
  static const Stage stages[] = {
      {"onnx-to-llvm",
       "Lower onnx dialect IR to the LLVM dialect (stages: docs/Pipeline.md)",
       buildONNXToLLVMPipeline},
      {"gather-pipeline-onnx-preprocessing",
       "onnx-to-llvm stage 1: destination checks, folding, shape inference",
       addONNXPreprocessingPasses},
      {"gather-pipeline-sharding",
       "onnx-to-llvm stage 2: gathers split over shard-grid MPI processes",
       addShardingPasses},
      {"gather-pipeline-onnx-to-linalg",
       "onnx-to-llvm stage 3: onnx to linalg, tensor and arith",
       addONNXToLinalgPasses},
      {"gather-pipeline-shard-to-mpi",
       "onnx-to-llvm stage 4: shard ops to MPI calls (with shard-grid)",
       addShardToMPIPasses},
      {"gather-pipeline-codegen",
       "onnx-to-llvm stage 5: the gathers' loops, threads and vectors",
       addCodegenPasses},
      {"gather-pipeline-bufferization",
       "onnx-to-llvm stage 6: tensors to memrefs, checked allocations",
       addBufferizationPasses},
      {"gather-pipeline-gpu",
       "onnx-to-llvm stage 6b: with gpu=cuda, the gathers as GPU kernels",
       addGPUPasses},
      {"gather-pipeline-lower-to-llvm",
       "onnx-to-llvm stage 7: OpenMP, scf, cf, then the LLVM dialect",
       addLowerToLLVMPasses},
  };
  // As PassPipelineRegistration<ONNXToLLVMPipelineOptions>, with errors
  // instead of MLIR's fatal error or a bare "no such option".
  for (const Stage &stage : stages) {
    StringRef name = stage.name;
    Builder build = stage.build;
    registerPassPipeline(
        name, stage.description,
        [name, build](OpPassManager &pm, StringRef optionsText,
                      function_ref<LogicalResult(const Twine &)> errorHandler) {
          auto options = parseONNXToLLVMPipelineOptions(optionsText);
          if (!options)
            return errorHandler("invalid options of '" + name +
                                "': " + llvm::toString(options.takeError()));
          if (failed(checkPipelineAnchor(pm, name, errorHandler)))
            return failure();
          build(pm, **options);
          return success();
        },
        [](function_ref<void(const detail::PassOptions &)> optionsHandler) {
          optionsHandler(ONNXToLLVMPipelineOptions());
        });
  }
}

void gather::registerAllPasses() {
  static const bool registered = [] {
    registerGatherConversionPasses();
    ONNX::registerONNXTransformsPasses();
    ONNX::registerONNXShardingPasses();
    registerGatherCodegenPasses();
    registerGatherPipelinesPasses();
    registerGatherGPUPasses();
    registerONNXToLLVMPipeline();
    return true;
  }();
  (void)registered;
}
