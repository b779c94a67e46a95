/*===- gather-c/Compile.h - gather-compile from C and FFI hosts --*- C -*-===*\
|*                                                                            *|
|* Part of the gather project.                                                *|
|* Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for        *|
|* license information.                                                       *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* gather-compile as a function (gather/Compiler/Compiler.h,                  *|
|* docs/Deploying.md), for hosts that build libraries at run time: the Python *|
|* package, build systems. Errors are values, as in gather-c/Kernel.h.        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GATHER_C_COMPILE_H
#define GATHER_C_COMPILE_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Compiles the ONNX model (a name ending in `.onnx`) or MLIR file `input`
/// as gather-compile does into the shared library `output` and, unless
/// `header` is empty, its C header: the gathers of a model with other nodes
/// outlined, the pipeline options `pipelineOptions` (space-separated
/// `key=value`, empty for the defaults), LLVM level `optLevel` (0-3). The
/// library describes its entry points in the symbol `__gather_entry_points`
/// (gather-run and the Python package read it). On failure, `errorCallback`
/// (may be null) receives every diagnostic, located, one per line, in one
/// call; nothing is printed. Thread-safe (each call has its own context).
MLIR_CAPI_EXPORTED MlirLogicalResult mlirGatherCompileFileToLibrary(
    MlirStringRef input, MlirStringRef output, MlirStringRef header,
    MlirStringRef pipelineOptions, int optLevel,
    MlirStringCallback errorCallback, void *userData);

/// Whether the code of the library `library` (a path, for the message),
/// whose symbol `__gather_target` holds `target` (gather-compile records
/// the CPU and features its code was generated for), can run on this host.
/// On failure, `errorCallback` (may be null) receives the message, which
/// names the features the host lacks: calling the library could end in an
/// illegal instruction. Thread-safe.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirGatherCheckLibraryTarget(MlirStringRef target, MlirStringRef library,
                             MlirStringCallback errorCallback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* GATHER_C_COMPILE_H */
