//===- Pipelines.h - The onnx-to-llvm pipeline ------------------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one definition of gather's lowering pipeline, shared by gather-opt
// (`--onnx-to-llvm`), gather-runner, gather-translate and library users. It
// is the stage functions declared below, run in order (IREE's LLVMCPU
// Passes.cpp style); each stage is also registered as a sub-pipeline named
// `gather-pipeline-<stage>` (add<Stage>Passes in kebab case, e.g.
// addBufferizationPasses: gather-pipeline-bufferization) that takes the same
// options. docs/Pipeline.md draws the pipeline and lists the options;
// test/Pipelines/pipeline-passes.mlir checks its pass list, pass by pass.
//
// The scalar single-threaded form (`vector-size=0 num-threads=1`) is the
// oracle the tests compare the vectorized and threaded forms with. Code built
// with threads calls LLVM's OpenMP runtime (libomp: __kmpc_fork_call, ...).
//
// Run it on a builtin.module. The context must have the dialects and
// extensions that registerONNXToLLVMPipelineDependencies() adds.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_PIPELINES_PIPELINES_H
#define GATHER_PIPELINES_PIPELINES_H

#include "gather/Codegen/TargetInfo.h"
#include "gather/Conversion/ShardToMPIRuntime/ShardToMPIRuntime.h"
#include "gather/Dialect/ONNX/Sharding/ShardingOptions.h"
#include "gather/GPU/GPUTarget.h"

#include "mlir/IR/Location.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>

namespace mlir {
class DialectRegistry;
class OpPassManager;
} // namespace mlir

namespace gather {

struct CodegenPassOptions;

/// The most threads gather's code asks OpenMP for: larger `num-threads`
/// values are clamped to it, and larger OMP_NUM_THREADS values are rejected
/// (checkOpenMPEnvironment in gather/ExecutionEngine/JitCompiler.h). LLVM's
/// OpenMP runtime aborts, or spends minutes creating threads, far above it.
constexpr unsigned kMaxNumThreads = 1024;

/// Options of the `onnx-to-llvm` pipeline and its stages (each one's full
/// meaning: docs/Pipeline.md).
struct ONNXToLLVMPipelineOptions
    : public mlir::PassPipelineOptions<ONNXToLLVMPipelineOptions> {
  PassOptions::Option<bool> runtimeChecks{
      *this, "runtime-checks",
      llvm::cl::desc("Check shapes and index values at run time where the "
                     "verifier could not"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> vectorSize{
      *this, "vector-size",
      llvm::cl::desc("Elements per vector along the innermost dimension, at "
                     "most 256; 0 or 1: scalar loops"),
      llvm::cl::init(16)};
  PassOptions::Option<int64_t> prefetchDistance{
      *this, "prefetch-distance",
      llvm::cl::desc("Bytes ahead that innermost-axis gathers prefetch; 0: "
                     "no prefetches"),
      llvm::cl::init(4096)};
  PassOptions::Option<bool> narrowOffsets{
      *this, "narrow-offsets",
      llvm::cl::desc("32-bit lane offsets for vector reads of data where "
                     "every offset fits (static sizes under narrow-limit "
                     "elements; dynamic ones checked at run time)"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> narrowLimit{
      *this, "narrow-limit",
      llvm::cl::desc("With narrow-offsets: the most elements of a tensor "
                     "read with 32-bit offsets, at most 2^31 - 1"),
      llvm::cl::init(2147483647)};
  PassOptions::Option<int64_t> rowBlockBytes{
      *this, "row-block-bytes",
      llvm::cl::desc("Gathers along an outer axis run their rows in blocks "
                     "that read at most this many bytes of data (the L2 "
                     "cache); 0: row-major order"),
      llvm::cl::init(262144)};
  PassOptions::Option<bool> inRegisterGathers{
      *this, "in-register-gathers",
      llvm::cl::desc("Gather from rows of data that fit in vector registers "
                     "with the target's permutes (AVX-512, AVX2)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> targetCpu{
      *this, "target-cpu",
      llvm::cl::desc("LLVM CPU name the code is for (e.g. znver4, haswell); "
                     "empty: the host"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> targetFeatures{
      *this, "target-features",
      llvm::cl::desc("LLVM features, comma-separated +name/-name; for the "
                     "host, added to its own"),
      llvm::cl::init("")};
  PassOptions::Option<GatherForm> gatherForm{
      *this, "gather-form", llvm::cl::desc("Code shape of vectorized gathers"),
      llvm::cl::init(GatherForm::Auto), getEnumOptionValues(kGatherFormValues)};
  PassOptions::Option<unsigned> numThreads{
      *this, "num-threads",
      llvm::cl::desc("OpenMP threads for large gathers; 0: OpenMP's default, "
                     "1: no OpenMP"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> parallelThreshold{
      *this, "parallel-threshold",
      llvm::cl::desc("Gathers with fewer elements stay single-threaded"),
      llvm::cl::init(8192)};
  PassOptions::Option<bool> unfusedRemarks{
      *this, "unfused-remarks",
      llvm::cl::desc("Remark at each linalg.generic that reads a tensor with "
                     "tensor.extract but does not get gather's code, with "
                     "the reason (gather-codegen)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> shardGrid{
      *this, "shard-grid",
      llvm::cl::desc("Partition the gathers over this many MPI processes (at "
                     "most 2^24); 0: no MPI"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> shardDim{
      *this, "shard-dim",
      llvm::cl::desc("With shard-grid: the dimension to split; -1: the first "
                     "splittable one off the axis, else the axis"),
      llvm::cl::init(-1)};
  PassOptions::Option<ShardAssembly> shardAssembly{
      *this, "shard-assembly",
      llvm::cl::desc("With shard-grid: how a result split off the axis is "
                     "assembled on every process"),
      llvm::cl::init(ShardAssembly::AllGather),
      getEnumOptionValues(kShardAssemblyValues)};
  PassOptions::Option<AxisScheme> shardAxisScheme{
      *this, "shard-axis-scheme",
      llvm::cl::desc("With shard-grid: how a split of the gather axis "
                     "combines the slabs"),
      llvm::cl::init(AxisScheme::Auto), getEnumOptionValues(kAxisSchemeValues)};
  PassOptions::Option<ShardIO> shardIO{
      *this, "shard-io",
      llvm::cl::desc("With shard-grid: what public functions take and "
                     "return"),
      llvm::cl::init(ShardIO::Whole), getEnumOptionValues(kShardIOValues)};

  PassOptions::Option<GPUKind> gpu{
      *this, "gpu", llvm::cl::desc("GPU the gathers run on (docs/GPU.md)"),
      llvm::cl::init(GPUKind::None), getEnumOptionValues(kGPUKindValues)};
  PassOptions::Option<std::string> gpuChip{
      *this, "gpu-chip",
      llvm::cl::desc("With gpu=cuda: the NVIDIA architecture, sm_<N>"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<GPUFormat> gpuFormat{
      *this, "gpu-format",
      llvm::cl::desc("With gpu=cuda: what the binary embeds"),
      llvm::cl::init(GPUFormat::Isa), getEnumOptionValues(kGPUFormatValues)};
  PassOptions::Option<GPUMemory> gpuMemory{
      *this, "gpu-memory",
      llvm::cl::desc("With gpu=cuda: where the entry points' buffers live"),
      llvm::cl::init(GPUMemory::Host), getEnumOptionValues(kGPUMemoryValues)};

  /// Whether the gathers run on a GPU (`gpu` is not `none`).
  bool usesGPU() const { return gpu != GPUKind::None; }

  /// Every option above, sorted by name (for messages that list them).
  llvm::SmallVector<const llvm::cl::Option *> getOptions() const;
};

/// The GPU target of `options` (gpu, gpu-chip, gpu-format, gpu-memory),
/// chosen once for every stage; none for the CPU (gpu=none).
std::optional<GPUTarget> getGPUTarget(const ONNXToLLVMPipelineOptions &options);

/// Checks the options as a whole: `gpu-chip` one of kGPUChips, and with
/// gpu=cuda no CPU option set to other than its default (shard-grid,
/// num-threads, target-cpu, ...: they have no meaning for the GPU code);
/// without it, `gpu-chip`, `gpu-format` and `gpu-memory` at their defaults.
/// The error names the option at fault. (The values of the enumerations,
/// `gpu`, `shard-io`, ..., are their parsers' to check.)
llvm::Error
checkONNXToLLVMPipelineOptions(const ONNXToLLVMPipelineOptions &options);

/// Parses pipeline options as text, as `--onnx-to-llvm="..."` and the tools'
/// `--pipeline-options` take them (e.g. "vector-size=0 num-threads=1"). The
/// error of invalid text names the option at fault and lists what is valid:
/// the option names for an unknown one, the values of an enumeration
/// (`gather-form`, `gpu`, `shard-io`, ...) for a value that is none of
/// them, the option's meaning for a value of the wrong type;
/// then the options are checked together (checkONNXToLLVMPipelineOptions).
llvm::Expected<std::unique_ptr<ONNXToLLVMPipelineOptions>>
parseONNXToLLVMPipelineOptions(llvm::StringRef text);

//===----------------------------------------------------------------------===//
// The stages of onnx-to-llvm, in order. Each appends its passes to `pm`
// (anchored on builtin.module) and is registered as the sub-pipeline
// `gather-pipeline-<stage>`.
//===----------------------------------------------------------------------===//

/// 1. `gather-pipeline-onnx-preprocessing`: run-time size checks of the
/// destinations gathers are copied into (onnx-check-gather-destinations),
/// folding (canonicalize) and onnx-shape-inference, on the onnx dialect.
void addONNXPreprocessingPasses(mlir::OpPassManager &pm,
                                const ONNXToLLVMPipelineOptions &options);

/// 2. `gather-pipeline-sharding`: with `shard-grid` (not 0), the gathers
/// partitioned over that many MPI processes, still on the onnx dialect
/// (onnx-shard-gathers, gather-shard-partition-functions;
/// docs/Sharding.md). Without `shard-grid`, nothing.
void addShardingPasses(mlir::OpPassManager &pm,
                       const ONNXToLLVMPipelineOptions &options);

/// 3. `gather-pipeline-onnx-to-linalg`: onnx to linalg + tensor + arith with
/// run-time checks (convert-onnx-to-linalg), an error at the first onnx op
/// gather does not lower (gather-check-lowered{level=onnx}), canonicalize
/// and cse.
void addONNXToLinalgPasses(mlir::OpPassManager &pm,
                           const ONNXToLLVMPipelineOptions &options);

/// 4. `gather-pipeline-shard-to-mpi`: with `shard-grid`, the shard ops
/// lowered to MPI calls (gather-shard-prepare-for-mpi, convert-shard-to-mpi).
/// Without `shard-grid`, nothing.
void addShardToMPIPasses(mlir::OpPassManager &pm,
                         const ONNXToLLVMPipelineOptions &options);

/// 5. `gather-pipeline-codegen`: the gathers' loop nests, threads and
/// vectors (gather-codegen), the vector.mask ops of IR vectorized upstream
/// folded into the masks of its gathers and transfers
/// (gather-lower-vector-masks), then the form of the vector.gathers for the
/// target CPU (gather-select-form).
void addCodegenPasses(mlir::OpPassManager &pm,
                      const ONNXToLLVMPipelineOptions &options);

/// The options of gather-codegen that addCodegenPasses derives from
/// `options` (gather/Codegen/Passes.h), for tools that run the pass alone
/// with the pipeline's decisions (e.g. with remarks, as gather-bench does).
CodegenPassOptions
getCodegenPassOptions(const ONNXToLLVMPipelineOptions &options);

/// 6. `gather-pipeline-bufferization`: tensors to memrefs, in place into
/// destinations on every path (gather-duplicate-shared-tensors,
/// gather-eliminate-destination-empty-tensors, one-shot-bufferize), buffer
/// deallocation, and every heap allocation checked
/// (gather-check-allocations).
void addBufferizationPasses(mlir::OpPassManager &pm,
                            const ONNXToLLVMPipelineOptions &options);

/// 6b. `gather-pipeline-gpu`: with gpu=cuda, each gather as a GPU kernel
/// with its index check fused and the host copies around it
/// (gather-gpu-kernels), the kernels outlined into gpu.modules
/// (gpu-kernel-outlining), given the NVPTX data layout
/// (gather-gpu-data-layout) and target (nvvm-attach-target{chip=gpu-chip
/// features=+ptx80}), and lowered to NVVM (convert-scf-to-cf,
/// convert-gpu-to-nvvm). Without gpu=cuda, nothing. docs/GPU.md.
void addGPUPasses(mlir::OpPassManager &pm,
                  const ONNXToLLVMPipelineOptions &options);

/// 7. `gather-pipeline-lower-to-llvm`: OpenMP (unless `num-threads=1`),
/// vector.multi_reduction (IR vectorized upstream), scf and cf, then the LLVM
/// dialect; an error at the first op left outside it
/// (gather-check-lowered). Afterwards the module holds only llvm (and omp)
/// dialect ops. With gpu=cuda: no OpenMP, gpu-to-llvm instead of
/// convert-to-llvm, then gpu-module-to-binary{format=gpu-format}: the
/// module holds llvm ops and one gpu.binary per kernel module.
void addLowerToLLVMPasses(mlir::OpPassManager &pm,
                          const ONNXToLLVMPipelineOptions &options);

//===----------------------------------------------------------------------===//
// The pipeline
//===----------------------------------------------------------------------===//

/// Appends the onnx-to-llvm pipeline to `pm`, which must be anchored on
/// builtin.module: gather-lower-nested-modules (the same pipeline on each
/// nested builtin.module), then the seven stages (addONNXToLLVMStages).
/// Afterwards the module holds only llvm dialect ops (plus builtin.module),
/// ready for translation to LLVM IR.
void buildONNXToLLVMPipeline(mlir::OpPassManager &pm,
                             const ONNXToLLVMPipelineOptions &options);

/// Appends the seven stages above, in order: the pipeline without its
/// first pass, for a module with no nested module to lower.
void addONNXToLLVMStages(mlir::OpPassManager &pm,
                         const ONNXToLLVMPipelineOptions &options);

/// Appends the pipeline with the options given as text, as
/// `--onnx-to-llvm="..."` takes them (e.g. "vector-size=0 num-threads=1");
/// on invalid options (parseONNXToLLVMPipelineOptions), or a `pm` anchored
/// on an op other than builtin.module (or any op), emits an error at `loc`
/// and appends nothing. Used by the tools' `--pipeline-options`.
mlir::LogicalResult buildONNXToLLVMPipeline(mlir::OpPassManager &pm,
                                            llvm::StringRef options,
                                            mlir::Location loc);

/// Registers the pipeline as `onnx-to-llvm` for textual pass pipelines
/// (gather-opt --onnx-to-llvm, --pass-pipeline="builtin.module(onnx-to-llvm)"),
/// and each of its stages as `gather-pipeline-<stage>`. Each checks where it
/// is added: nested in a pass manager on another op than builtin.module (or
/// any op), as in `builtin.module(func.func(onnx-to-llvm))`, it is a parse
/// error of the pipeline text (no passes added, no abort); so are invalid
/// options (parseONNXToLLVMPipelineOptions).
void registerONNXToLLVMPipeline();

/// Registers every gather pass (every pass in include/gather/Conversion,
/// Dialect/ONNX/Transforms, Dialect/ONNX/Sharding and Codegen Passes.td),
/// the onnx-to-llvm pipeline and its stages in MLIR's global registries, as
/// mlir::registerAllPasses() does for upstream's. Used by the tools,
/// GatherPlugin and the C API. Calls after the first do nothing (a pipeline
/// name may be registered only once).
void registerAllPasses();

/// Adds to `registry` the onnx dialect, the upstream dialects the pipeline
/// reads and creates (affine, arith, bufferization, cf, complex, dlti, func,
/// gpu, index, linalg, llvm, math, memref, mpi, nvvm, omp, scf, shard,
/// tensor, ub, vector) and the models and dialect extensions its passes rely
/// on (bufferization models, ConvertToLLVM interfaces, ...; the list is in
/// lib/Pipelines/PipelineDialects.cpp). Without the extensions,
/// bufferization and convert-to-llvm silently leave ops behind. Not every
/// upstream dialect: a tool that reads any MLIR adds
/// mlir::registerAllDialects and mlir::registerAllExtensions, as gather-opt
/// does.
void registerONNXToLLVMPipelineDependencies(mlir::DialectRegistry &registry);

/// What registerONNXToLLVMPipelineDependencies adds except gather's onnx
/// dialect: the upstream dialects and extensions, and gather's models
/// attached by op name (the sharding model of any op named
/// onnx.GatherElements). For a tool that registers another `onnx` dialect
/// (onnx-mlir's) instead of gather's: the pipeline then lowers, and with
/// `shard-grid`, partitions that dialect's GatherElements
/// (docs/ONNXMLIRInterop.md).
void registerONNXToLLVMPipelineExtensions(mlir::DialectRegistry &registry);

} // namespace gather

#endif // GATHER_PIPELINES_PIPELINES_H
