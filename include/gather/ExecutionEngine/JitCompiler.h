//===- JitCompiler.h - Compile onnx IR to a callable JIT kernel -*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Compiles a module of onnx dialect IR with gather's onnx-to-llvm pipeline
// and JIT-compiles it with MLIR's ExecutionEngine (mlir/ExecutionEngine/
// ExecutionEngine.h) for the host CPU, so that a C++ caller can invoke its
// functions.
//
// Kernel form (destination-passing style, no allocation or copy per call):
//
//   func.func @gather(%data: memref<1024x1024xf32>,
//                     %indices: memref<1024x1024xi64>,
//                     %out: memref<1024x1024xf32>)
//       attributes {llvm.emit_c_interface} {
//     %d = bufferization.to_tensor %data restrict : ... to tensor<...>
//     %i = bufferization.to_tensor %indices restrict : ... to tensor<...>
//     %r = onnx.GatherElements %d, %i axis = 1 : tensor<...>, tensor<...>
//     bufferization.materialize_in_destination %r in restrict writable %out
//         : (tensor<...>, memref<...>) -> ()
//     return
//   }
//
// getGatherElementsKernelSource() writes this text. After compilation,
// `engine->lookup("_mlir_ciface_gather")` gives a `void (*)(StridedMemRefType
// <T, R> *data, StridedMemRefType<I, R> *indices, StridedMemRefType<T, R>
// *out)` (mlir/ExecutionEngine/CRunnerUtils.h) with identity (row-major)
// layouts; sizes may be dynamic (`?`: `out`'s sizes are then checked at run
// time, and the result is still computed in `out`, with no allocation or
// copy). `data` and `indices` must not alias
// `out` (`restrict`). Invalid index values or shapes are reported through
// gather's runtime to the kernel's handler (setKernelErrorHandler) or the
// process's (gatherSetErrorHandler in gather/Runtime/GatherRuntime.h); the
// default handler prints the message and exits with status 1.
//
// Code built with threads calls LLVM's OpenMP runtime: the library that
// links this one links libomp, whose symbols the engine finds in the process.
//
// Threads. compileAndJit and compileSourceAndJit may be called from many
// threads at once, on one context per thread or on one shared context
// (with MLIRContext's multithreading enabled, its default): on its first
// call for a context, compileSourceAndJit adds and loads every dialect the
// JIT needs under a lock, so that no later parse or pass loads one (MLIR
// loads dialects lazily, and loading changes the context). A module given to
// compileAndJit on a shared context must come from a context prepared that
// way (one compileSourceAndJit call, or registerJitDependencies() and
// MLIRContext::loadAllAvailableDialects() before the threads start). Each
// call reports the diagnostics of its own thread only. One module must not
// be compiled by two threads at once. The engines are independent: each may
// be called from any thread, concurrently with the others and with
// compilations. Run-time reports go to the kernel's own error handler
// (setKernelErrorHandler) if it has one, otherwise to the process's
// (gatherSetErrorHandler), on the thread that runs the kernel, or an OpenMP
// worker thread for threaded code. test/Integration/Runner/jit-threads.test
// checks this contract.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_EXECUTIONENGINE_JITCOMPILER_H
#define GATHER_EXECUTIONENGINE_JITCOMPILER_H

#include "gather/Pipelines/Pipelines.h"
#include "gather/Runtime/GatherRuntime.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>

namespace mlir {
class DialectRegistry;
class MLIRContext;
class ModuleOp;
} // namespace mlir

namespace gather {

/// Adds what compileAndJit needs to `registry`: the pipeline's dialects and
/// extensions (registerONNXToLLVMPipelineDependencies) and the translations
/// to LLVM IR of the LLVM, OpenMP, GPU (gpu.binary, gpu.launch_func) and
/// NVVM dialects.
void registerJitDependencies(mlir::DialectRegistry &registry);

/// Checks the thread settings LLVM's OpenMP runtime (libomp) reads from the
/// environment when it starts, since it aborts or hangs on some invalid
/// ones: OMP_NUM_THREADS and OMP_THREAD_LIMIT must be unset or (OpenMP 5.2,
/// section 21.1.2) a comma-separated list of decimal integers in
/// [1, kMaxNumThreads] (OMP_THREAD_LIMIT: one integer); OMP_STACKSIZE,
/// KMP_STACKSIZE and GOMP_STACKSIZE unset or (section 21.2.2) a positive
/// integer with an optional unit B, K, M or G (K if none) of at most
/// kMaxStackSize bytes. Returns an error naming the variable and its value
/// otherwise. compileAndJit calls it for
/// code with threads; gather-runner before running anything.
llvm::Error checkOpenMPEnvironment();

/// The largest OpenMP thread stack size checkOpenMPEnvironment accepts
/// (1 GiB; libomp aborts where it cannot allocate the stacks).
inline constexpr uint64_t kMaxStackSize = uint64_t(1) << 30;

/// What compileAndJit leaves behind to debug a compilation (each empty:
/// nothing).
struct JitDebugOptions {
  /// A directory that gets the IR before the pipeline and after each of its
  /// passes that changes it, one file per pass as MLIR's
  /// `--mlir-print-ir-tree-dir` writes them (`<dir>/builtin_module_<n>/
  /// <k>_<pass>.mlir`, in order).
  std::string irDirectory;
  /// A file that gets a reproducer of the pipeline when a pass fails or
  /// crashes (the input module and the pipeline; `gather-opt
  /// --run-reproducer <file>` runs it again), as
  /// `--mlir-pass-pipeline-crash-reproducer` does. (The pipeline then runs
  /// on a thread of LLVM's crash recovery, so the error of the call also
  /// collects the diagnostics of other threads' compilations on a shared
  /// context while it runs.)
  std::string crashReproducer;
  /// A file that gets the JIT's object file of the module (an ELF
  /// relocatable file: `llvm-objdump -d` shows the code that runs).
  std::string objectFile;
  /// Tell GDB and perf about the JIT code (JitEngineOptions in
  /// gather/ExecutionEngine/JitEngine.h; off by default: each copies the
  /// whole object).
  bool registerWithDebuggers = false;
};

/// Lowers `module` in place with buildONNXToLLVMPipeline(`options`) and
/// JIT-compiles it for the host CPU (or `target-cpu` / `target-features`,
/// which must run on the host: TargetInfo::checkRunsOnHost) with LLVM
/// optimization level `optLevel` (0-3; the LLVM IR pipeline and code
/// generation). The target machine gets `+prefer-no-gather` unless the
/// chosen gather form uses hardware gathers (TargetInfo::getCodeGenFeatures).
/// The module's context must hold registerJitDependencies() (otherwise one
/// line says what is missing, and nothing is lowered). With threads
/// (`numThreads` != 1), fails first if checkOpenMPEnvironment() does. Linking
/// is eager: code for the GPU gets libgather_cuda_runtime loaded
/// (loadRuntimeLibraries in gather/ExecutionEngine/RuntimeLibraries.h, an
/// error if it cannot be); a function the module declares but the process
/// does not define (e.g. gatherReportIndexError without libgather_runtime.so)
/// is an error naming it and its location, and every function the module
/// defines with external linkage (the entry points, `_mlir_ciface_` wrappers
/// included) is looked up before returning, so those lookups do not fail
/// later. Errors carry the diagnostics (with locations) of the pass that
/// failed.
/// `debug` says what to write for debugging (JitDebugOptions); a file that
/// cannot be written is an error.
llvm::Expected<std::unique_ptr<mlir::ExecutionEngine>>
compileAndJit(mlir::ModuleOp module, const ONNXToLLVMPipelineOptions &options,
              unsigned optLevel = 3, const JitDebugOptions &debug = {});

/// Parses `source` (MLIR text) into `context` (which gets the
/// registerJitDependencies() dialects), then compileAndJit(). The source's
/// buffer is named `bufferName`, or getKernelBufferName(`source`) if it is
/// empty: every compile-time diagnostic and run-time report of the kernel
/// then starts with `<bufferName>:<line>:<col>:`, so that a host with many
/// kernels can tell them apart.
llvm::Expected<std::unique_ptr<mlir::ExecutionEngine>>
compileSourceAndJit(mlir::MLIRContext &context, llvm::StringRef source,
                    const ONNXToLLVMPipelineOptions &options,
                    unsigned optLevel = 3, llvm::StringRef bufferName = "",
                    const JitDebugOptions &debug = {});

/// Gives the kernel compiled into `engine` (by compileAndJit or
/// compileSourceAndJit) its own run-time error handler: its reports, from
/// any thread (OpenMP worker threads included), go to `handler` with
/// `userData` instead of the process's handler (gatherSetErrorHandler); a
/// null `handler` sends them to the process's handler again. May be called
/// at any time, from any thread, also while the kernel runs (the pair is
/// replaced as one). Fails only for an engine that compileAndJit did not
/// make (it has no error sink, kErrorSinkName in
/// gather/RuntimeABI/RuntimeABI.h).
llvm::Error setKernelErrorHandler(mlir::ExecutionEngine &engine,
                                  GatherErrorHandler handler, void *userData);

/// The address of the C wrapper `_mlir_ciface_<function>` in `engine`. The
/// error says whether `function` is in the module without one (its
/// func.func lacks the `llvm.emit_c_interface` attribute, which
/// getGatherElementsKernelSource's kernels carry) or not there at all.
llvm::Expected<void *> lookupCInterface(mlir::ExecutionEngine &engine,
                                        llvm::StringRef function);

/// The name compileSourceAndJit gives the buffer of `source` by default: the
/// symbol of the first func.func (or else llvm.func) defined or declared in
/// the text, e.g. `gather` for getGatherElementsKernelSource("gather", ...);
/// "kernel" if there is none.
llvm::StringRef getKernelBufferName(llvm::StringRef source);

/// The MLIR text of the kernel above: a function `name` gathering along
/// `axis` from `data` of shape `dataShape` and element type `dataType`
/// (MLIR spelling, e.g. "f32") with `indices` of shape `indicesShape` and
/// type `indicesType` ("i32" or "i64") into `out` of the shape of
/// `indices`. A negative size is a dynamic one (`?`); for those, the
/// lowering checks at run time that `out` has the size of `indices` (a
/// mismatch is reported through gatherReportDestinationShapeError and the
/// gather skipped: bufferization.materialize_in_destination itself does not
/// check sizes).
std::string getGatherElementsKernelSource(llvm::StringRef name,
                                          llvm::ArrayRef<int64_t> dataShape,
                                          llvm::StringRef dataType,
                                          llvm::ArrayRef<int64_t> indicesShape,
                                          llvm::StringRef indicesType,
                                          int64_t axis);

} // namespace gather

#endif // GATHER_EXECUTIONENGINE_JITCOMPILER_H
