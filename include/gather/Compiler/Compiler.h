//===- Compiler.h - Ahead-of-time compilation to libraries -----*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The route from a model to a program (gather-compile, docs/Deploying.md):
//
//   1. partitionModel: a module whose functions hold ONNX nodes gather does
//      not lower (ONNX::isForeignONNXOp) has its gathers outlined into
//      kernels of their own (onnx-outline-gathers{emit=kernels}); the other
//      nodes are listed, left to the host;
//   2. getEntryPoints: the public functions and their tensor types, before
//      lowering (each gets `llvm.emit_c_interface`);
//   3. the onnx-to-llvm pipeline (buildONNXToLLVMPipeline), in process;
//   4. emitObjectFile: LLVM IR, optimized and compiled by LLVM's target
//      machine for the pipeline's target CPU (no external compiler);
//   5. linkSharedLibrary: the object linked by Debian's lld into a shared
//      library that needs gather's runtime (and libomp for threaded code);
//   6. writeCHeader: one C declaration per entry point.
//
// compileModule runs them all. Every step's error is a located diagnostic
// (the model's node for an imported model) or an llvm::Error that says what
// failed.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_COMPILER_COMPILER_H
#define GATHER_COMPILER_COMPILER_H

#include "gather/Pipelines/Pipelines.h"
#include "gather/Support/EnumOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class PassManager;
} // namespace mlir

namespace gather {

class TargetInfo;

/// What gather-compile writes (`--emit`).
enum class EmitKind {
  /// The module after the pipeline (LLVM dialect), as MLIR text.
  MLIR,
  /// LLVM IR text, with the target's triple and data layout.
  LLVMIR,
  /// A relocatable object file (position independent), plus the C header.
  Object,
  /// A shared library, plus the C header (the default).
  Library,
};

/// The values of `--emit`, in one list (gather/Support/EnumOptions.h).
inline constexpr EnumOptionValue<EmitKind> kEmitKindValues[] = {
    {EmitKind::Library, "lib",
     "a shared library and its C header (the default)"},
    {EmitKind::Object, "obj", "an object file and its C header"},
    {EmitKind::LLVMIR, "llvmir", "LLVM IR text, optimized"},
    {EmitKind::MLIR, "mlir", "the LLVM dialect module after the pipeline"},
};

/// The nodes of `module` gather does not lower, after partitionModel: one
/// line each, `node '<name>' (<op type>)` for an imported node, else the op's
/// name and location.
struct ModelPartition {
  std::vector<std::string> hostNodes;
  /// Whether the gathers were outlined (some node is left to the host).
  bool outlined = false;
};

/// Step 1: if a function of `module` holds an op of the onnx namespace that
/// gather does not lower, outlines every gather into a kernel and keeps the
/// kernels alone (onnx-outline-gathers{emit=kernels}); otherwise leaves the
/// module as it is. Fails (with the pass's diagnostics) only if the
/// outlining does.
mlir::FailureOr<ModelPartition> partitionModel(mlir::ModuleOp module);

/// One entry point of a compiled module, as its C declaration gives it.
struct EntryPoint {
  std::string name;
  /// The argument and result types before lowering (tensors, memrefs or
  /// scalars).
  llvm::SmallVector<mlir::Type> arguments, results;
  /// The arguments' names in C: the imported graph's input names
  /// (`onnx.name`), `data` and `indices` for an outlined kernel, else
  /// `arg<i>`.
  llvm::SmallVector<std::string> argumentNames;
  /// The location of the function (the gather's node for a kernel).
  mlir::Location location;
};

/// Step 2: the public functions with bodies of `module` (before lowering),
/// each marked `llvm.emit_c_interface` so that it gets its C wrapper. With
/// `checkForC`, fails with a located error for an entry point the C header
/// cannot declare (a
/// name that is not a C identifier, a type other than a ranked tensor or
/// memref of a supported element type, or an integer, index or float
/// scalar).
mlir::FailureOr<std::vector<EntryPoint>> getEntryPoints(mlir::ModuleOp module,
                                                        bool checkForC = true);

/// The symbol by which a library or object of gather-compile describes its
/// entry points (what gather-run reads to call them): a NUL-terminated
/// string, one line per entry point, `<name> <function type>`, e.g.
/// `main_graph_gather_0 (tensor<2x4xf32>, tensor<2x2xi64>) ->
/// tensor<2x2xf32>`.
inline constexpr llvm::StringLiteral kEntryPointsSymbolName =
    "__gather_entry_points";

/// The symbol by which a library or object of gather-compile records the
/// target its code needs: a NUL-terminated string, the CPU name, a newline
/// and the full subtarget feature list the code was generated with
/// (TargetInfo::getCodeGenFeatures), e.g. `znver4\n+avx2,+avx512f,...`.
inline constexpr llvm::StringLiteral kTargetSymbolName = "__gather_target";

/// Adds to `module` the constant global kTargetSymbolName for the target of
/// the pipeline `options` (an error if it has none).
llvm::Error addTargetGlobal(mlir::ModuleOp module,
                            const ONNXToLLVMPipelineOptions &options);

/// An error unless the code of the library `library`, whose
/// kTargetSymbolName holds `text`, can run on this host (the CPU features
/// its code needs are the host's): loading it could otherwise end in an
/// illegal instruction. The message names the library and the missing
/// features.
llvm::Error checkLibraryTarget(llvm::StringRef text, llvm::StringRef library);

/// The text of kEntryPointsSymbolName for `entryPoints`.
std::string describeEntryPoints(llvm::ArrayRef<EntryPoint> entryPoints);

/// Adds to `module` an external constant global `name` holding `text` and
/// a NUL (an llvm.mlir.global, which the pipeline keeps): what a library
/// says of itself to its loaders.
void addStringGlobal(mlir::ModuleOp module, llvm::StringRef name,
                     llvm::StringRef text);

/// Adds to `module` the constant global kEntryPointsSymbolName describing
/// `entryPoints` (an llvm.mlir.global, which the pipeline keeps).
void addEntryPointsGlobal(mlir::ModuleOp module,
                          llvm::ArrayRef<EntryPoint> entryPoints);

/// Parses describeEntryPoints' text (their locations: `location`); an error
/// says which line does not parse.
llvm::Expected<std::vector<EntryPoint>>
parseEntryPoints(llvm::StringRef text, mlir::MLIRContext *context,
                 mlir::Location location);

/// Translates `lowered` (LLVM dialect, after the pipeline) to LLVM IR in
/// `llvmContext`, with the triple and data layout of `target`; first checks
/// that no constant expands past gather's limit
/// (gather/Support/ConstantSizes.h). Errors are located diagnostics.
mlir::FailureOr<std::unique_ptr<llvm::Module>>
translateForTarget(mlir::ModuleOp lowered, const TargetInfo &target,
                   llvm::LLVMContext &llvmContext);

/// Step 4: translates `lowered` (LLVM dialect, after the pipeline) to LLVM
/// IR, optimizes it at `optLevel` (0-3) and writes, for the pipeline's
/// target (`target-cpu`, `target-features`, the host's by default; the
/// gather form decides `+prefer-no-gather` as for the JIT), LLVM IR text
/// (`emit` LLVMIR) or a position-independent object file (Object, Library)
/// to `output`. Errors are diagnostics at the module's location.
mlir::LogicalResult emitObjectFile(mlir::ModuleOp lowered,
                                   const ONNXToLLVMPipelineOptions &options,
                                   unsigned optLevel, EmitKind emit,
                                   llvm::raw_pwrite_stream &output);

/// The libraries a module's code calls, for the link (step 5).
struct RuntimeNeeds {
  bool openMP = false;
  bool cuda = false;
  bool mpi = false;
  /// MLIR's runner utilities that define a function the code declares
  /// (`memrefCopy`, `printMemrefF32`, ...), by path.
  std::vector<std::string> runnerUtilities;
};
/// What `lowered` (after the pipeline) calls: OpenMP's runtime (omp ops or
/// __kmpc_ calls), gather's CUDA runtime (usesCUDARuntime), its MPI runtime
/// (MPI_ and gatherMPI calls) and MLIR's runner utilities (a declared
/// function one of them defines). A declared function that none of these,
/// gather's runtime nor the C library defines is a located error.
mlir::FailureOr<RuntimeNeeds> getRuntimeNeeds(mlir::ModuleOp lowered);

/// Step 5: links `objectFile` into the shared library `output` with the lld
/// found when gather was configured (kLinkerPath), against
/// libgather_runtime.so (the one this process uses, found with dladdr) and,
/// as `needs` says, libomp, libgather_cuda_runtime.so and
/// libgather_mpi_runtime.so (which brings MPI); their directories
/// go into the library's RUNPATH. The linker's own messages are part of the
/// error.
llvm::Error linkSharedLibrary(llvm::StringRef objectFile,
                              llvm::StringRef output, RuntimeNeeds needs);

/// Step 6: writes a C header (usable from C and C++) declaring, for each
/// entry point, `void _mlir_ciface_<name>(<result>*, <argument>*...)` on the
/// descriptors of gather/Runtime/MemRefDescriptor.h, each with its
/// shapes, element types, location and the rule for its results (the call
/// allocates them; the caller frees each one's `allocated` with free()).
/// `guard` names the include guard.
void writeCHeader(llvm::ArrayRef<EntryPoint> entryPoints, llvm::StringRef guard,
                  llvm::raw_ostream &os);

/// The options of compileModule.
struct CompileOptions {
  /// As --onnx-to-llvm takes them (parseONNXToLLVMPipelineOptions).
  std::string pipelineOptions;
  unsigned optLevel = 3;
  EmitKind emit = EmitKind::Library;
  /// The file to write (`-o`).
  std::string outputFile;
  /// The C header to write beside an object or a library (empty: none).
  std::string headerFile;
  /// Called on the pass manager of the pipeline before it runs (e.g.
  /// mlir::applyPassManagerCLOptions: IR printing, crash reproducers,
  /// timing); its failure stops the compilation.
  std::function<mlir::LogicalResult(mlir::PassManager &)> configurePassManager;
};

/// Steps 1 to 6 on `module` (lowered in place), writing `outputFile` (and
/// `headerFile`). Diagnostics go to the module's context's handlers.
mlir::FailureOr<ModelPartition> compileModule(mlir::ModuleOp module,
                                              const CompileOptions &options);

} // namespace gather

#endif // GATHER_COMPILER_COMPILER_H
