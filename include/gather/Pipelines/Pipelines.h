//===- Pipelines.h - The onnx-to-llvm pipeline ------------------*- C++ -*-===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// The one definition of gather's lowering pipeline, shared by gather-opt
// (`--onnx-to-llvm`), gather-runner, gather-translate and library users:
//
//   onnx --onnx-check-gather-destinations-->           run-time size checks of
//                                                 DPS destinations
//        --canonicalize, onnx-shape-inference-->  folded, refined onnx
//        --convert-onnx-to-linalg-->              linalg + tensor + arith
//                                                 (+ run-time checks)
//        --gather-codegen-->   scf.forall + vector.gather
//        --gather-select-form-->                  the gather form chosen for
//                                                 the target CPU
//        --gather-duplicate-shared-tensors,
//        gather-eliminate-destination-empty-tensors,
//          one-shot-bufferize-->                  memref (in place into a
//                                                 destination, on every path)
//        --buffer-deallocation-pipeline, gather-check-allocations
//          (failed or impossible allocations reported), scf-forall-to-parallel,
//          convert-scf-to-openmp, convert-linalg-to-loops--> scf + omp
//        --expand-strided-metadata, lower-affine, convert-scf-to-cf--> cf
//        --convert-vector-to-llvm, convert-onnx-strings-to-llvm,
//          convert-to-llvm, reconcile-unrealized-casts--> llvm dialect
//
// With `shard-grid=N`, the gathers are first partitioned over N MPI
// processes (onnx-shard-gathers, sharding-propagation, shard-partition,
// gather-shard-prepare-for-mpi, convert-shard-to-mpi; docs/Sharding.md).
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

#include "mlir/IR/Location.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class DialectRegistry;
class OpPassManager;
} // namespace mlir

namespace gather {

/// The most threads gather's code asks OpenMP for: larger `num-threads`
/// values are clamped to it, and larger OMP_NUM_THREADS values are rejected
/// (checkOpenMPEnvironment in gather/ExecutionEngine/JitCompiler.h). LLVM's
/// OpenMP runtime aborts, or spends minutes creating threads, far above it.
constexpr unsigned kMaxNumThreads = 1024;

/// Options of the `onnx-to-llvm` pipeline.
struct ONNXToLLVMPipelineOptions
    : public mlir::PassPipelineOptions<ONNXToLLVMPipelineOptions> {
  PassOptions::Option<bool> runtimeChecks{
      *this, "runtime-checks",
      llvm::cl::desc("Check shapes and index values at run time where the "
                     "verifier could not (convert-onnx-to-linalg's option)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> vectorSize{
      *this, "vector-size",
      llvm::cl::desc("Vectorize gathers with vectors of this many elements "
                     "along the innermost dimension (vector.gather), at most "
                     "256; 0 or 1: scalar loops"),
      llvm::cl::init(16)};
  PassOptions::Option<int64_t> prefetchDistance{
      *this, "prefetch-distance",
      llvm::cl::desc("Bytes ahead that gathers along the innermost axis "
                     "prefetch rows of data and index values "
                     "(memref.prefetch; docs/CodeShape.md); 0: no prefetches"),
      llvm::cl::init(4096)};
  PassOptions::Option<std::string> targetCpu{
      *this, "target-cpu",
      llvm::cl::desc("LLVM CPU name the code is for (e.g. znver4, "
                     "skylake-avx512, haswell); empty: the host. Chooses the "
                     "form of vectorized gathers (gather-select-form, "
                     "docs/CodeShape.md)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> targetFeatures{
      *this, "target-features",
      llvm::cl::desc("LLVM subtarget features, comma-separated +name/-name "
                     "(e.g. +avx2,-avx512f); for the host, added to its own"),
      llvm::cl::init("")};
  PassOptions::Option<GatherForm> gatherForm{
      *this, "gather-form", llvm::cl::desc("Code shape of vectorized gathers"),
      llvm::cl::init(GatherForm::Auto), getGatherFormOptionValues()};
  PassOptions::Option<unsigned> numThreads{
      *this, "num-threads",
      llvm::cl::desc("Threads for large gathers (OpenMP, LLVM's libomp); 0: "
                     "the OpenMP default (OMP_NUM_THREADS, else one per "
                     "core); 1: single-threaded code without OpenMP; values "
                     "above 1024 are clamped to 1024"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> parallelThreshold{
      *this, "parallel-threshold",
      llvm::cl::desc("Gathers with a static number of elements below this "
                     "stay single-threaded"),
      llvm::cl::init(8192)};
  PassOptions::Option<int64_t> shardGrid{
      *this, "shard-grid",
      llvm::cl::desc("Partition the gathers over a 1-D grid of this many MPI "
                     "processes (onnx-shard-gathers, sharding-propagation, "
                     "shard-partition, convert-shard-to-mpi; docs/Sharding.md);"
                     " 0: one process, no MPI"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> shardDim{
      *this, "shard-dim",
      llvm::cl::desc("With shard-grid: the dimension to split (-1: the first "
                     "splittable dimension other than the axis, else the "
                     "axis)"),
      llvm::cl::init(-1)};
};

/// Appends the onnx-to-llvm pipeline to `pm`, which must be anchored on
/// builtin.module. Afterwards the module holds only llvm dialect ops (plus
/// builtin.module), ready for translation to LLVM IR.
void buildONNXToLLVMPipeline(mlir::OpPassManager &pm,
                             const ONNXToLLVMPipelineOptions &options);

/// Appends the pipeline with the options given as text, as
/// `--onnx-to-llvm="..."` takes them (e.g. "vector-size=0 num-threads=1");
/// on invalid options, emits an error at `loc` and appends nothing. Used by
/// the tools' `--pipeline-options`.
mlir::LogicalResult buildONNXToLLVMPipeline(mlir::OpPassManager &pm,
                                            llvm::StringRef options,
                                            mlir::Location loc);

/// Registers the pipeline as `onnx-to-llvm` for textual pass pipelines
/// (gather-opt --onnx-to-llvm, --pass-pipeline="builtin.module(onnx-to-llvm)").
void registerONNXToLLVMPipeline();

/// Registers every gather pass (convert-onnx-to-linalg, onnx-shape-inference,
/// gather-codegen) and the onnx-to-llvm pipeline in MLIR's
/// global registries, as mlir::registerAllPasses() does for upstream's. Used
/// by the tools, GatherPlugin and the C API. Calls after the first do
/// nothing (a pipeline name may be registered only once).
void registerAllPasses();

/// Adds to `registry` the onnx dialect, every upstream dialect and the
/// dialect extensions (bufferization models, ConvertToLLVM interfaces) the
/// pipeline relies on. Without the extensions, bufferization and
/// convert-to-llvm silently leave ops behind.
void registerONNXToLLVMPipelineDependencies(mlir::DialectRegistry &registry);

/// What registerONNXToLLVMPipelineDependencies adds except gather's onnx
/// dialect: every upstream dialect and extension, and gather's models
/// attached by op name (the sharding model of any op named
/// onnx.GatherElements). For a tool that registers another `onnx` dialect
/// (onnx-mlir's) instead of gather's: the pipeline then lowers, and with
/// `shard-grid`, partitions that dialect's GatherElements
/// (docs/ONNXMLIRInterop.md).
void registerONNXToLLVMPipelineExtensions(mlir::DialectRegistry &registry);

} // namespace gather

#endif // GATHER_PIPELINES_PIPELINES_H
