/*===- gather-c/Kernel.h - Compile and run kernels from C --------*- C -*-===*\
|*                                                                            *|
|* Part of the gather project.                                                *|
|* Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for        *|
|* license information.                                                       *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The kernel API (gather/ExecutionEngine/JitCompiler.h) for C and FFI hosts: *|
|* compile onnx dialect IR, from text or from an MlirModule, with the         *|
|* onnx-to-llvm pipeline into an MlirExecutionEngine, then look its functions *|
|* up, call them on the caller's buffers and destroy it with MLIR's upstream  *|
|* C API (mlir-c/ExecutionEngine.h, exported by libGatherCAPI.so too).        *|
|* Errors are values: a failed MlirLogicalResult and one message given to the *|
|* caller's callback. Run-time reports (bad index values) go to the kernel's  *|
|* handler (mlirGatherSetKernelErrorHandler) or the process's                 *|
|* (gatherSetErrorHandler in gather/Runtime/GatherRuntime.h).                 *|
|*                                                                            *|
|* The same thread-safety contract as the C++ API holds (JitCompiler.h).      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GATHER_C_KERNEL_H
#define GATHER_C_KERNEL_H

#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include "gather/Runtime/GatherRuntime.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Adds to `registry` what the compile functions below need: the pipeline's
/// dialects and extensions and the translations to LLVM IR
/// (gather::registerJitDependencies).
MLIR_CAPI_EXPORTED void
mlirGatherRegisterJitDependencies(MlirDialectRegistry registry);

/// Lowers `module` in place with onnx-to-llvm{`pipelineOptions`} (the
/// pipeline's option text, `key=value` pairs separated by spaces, e.g.
/// "num-threads=1 vector-size=0"; empty for the defaults; an invalid one is
/// an error through `errorCallback`, nothing is written to stderr) and
/// JIT-compiles it for the host CPU at LLVM optimization level `optLevel`
/// (0-3). On success, `*engine` is the engine (destroy it with
/// mlirExecutionEngineDestroy) and the result is a success; on failure,
/// `*engine` is null, `errorCallback` (may be null) receives the message,
/// with the diagnostics' locations, in one call, and the result is a failure.
/// The module's context must hold mlirGatherRegisterJitDependencies().
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirGatherCompileModule(MlirModule module, MlirStringRef pipelineOptions,
                        int optLevel, MlirExecutionEngine *engine,
                        MlirStringCallback errorCallback, void *userData);

/// Parses `source` (MLIR text) into `context` as the buffer `bufferName`
/// (empty: the name of its first function; every location of the kernel
/// starts with it), then as mlirGatherCompileModule. The module belongs to
/// the engine's compilation and is freed before returning.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirGatherCompileSource(
    MlirContext context, MlirStringRef source, MlirStringRef bufferName,
    MlirStringRef pipelineOptions, int optLevel, MlirExecutionEngine *engine,
    MlirStringCallback errorCallback, void *userData);

/// Gives the kernel compiled into `engine` (by the functions above) its own
/// run-time error handler (GatherErrorHandler, gather/Runtime/
/// GatherRuntime.h): its reports, from any thread, go to `handler` with
/// `userData` instead of the process's handler (gatherSetErrorHandler); a
/// null `handler` sends them to the process's handler again. Fails, with the
/// message given to `errorCallback` (may be null), only for an engine these
/// functions did not make.
/// What a compilation leaves behind to debug it (gather::JitDebugOptions);
/// each empty string (length 0): nothing.
///   irDirectory      the IR before the pipeline and after each pass that
///                    changes it, one file per pass (MLIR's IR tree);
///   crashReproducer  a reproducer when a pass fails or crashes
///                    (`gather-opt --run-reproducer <file>`);
///   objectFile       the JIT's object file.
typedef struct MlirGatherJitDebugOptions {
  MlirStringRef irDirectory;
  MlirStringRef crashReproducer;
  MlirStringRef objectFile;
} MlirGatherJitDebugOptions;

/// mlirGatherCompileSource, writing what `debug` asks for (a file or
/// directory that cannot be written is an error).
MLIR_CAPI_EXPORTED MlirLogicalResult mlirGatherCompileSourceWithDebugOptions(
    MlirContext context, MlirStringRef source, MlirStringRef bufferName,
    MlirStringRef pipelineOptions, int optLevel,
    MlirGatherJitDebugOptions debug, MlirExecutionEngine *engine,
    MlirStringCallback errorCallback, void *userData);

MLIR_CAPI_EXPORTED MlirLogicalResult mlirGatherSetKernelErrorHandler(
    MlirExecutionEngine engine, GatherErrorHandler handler, void *handlerData,
    MlirStringCallback errorCallback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* GATHER_C_KERNEL_H */
