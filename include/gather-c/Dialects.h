/*===- gather-c/Dialects.h - C API of gather's dialect ------------*- C -*-===*\
|*                                                                            *|
|* Part of the gather project.                                                *|
|* Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for        *|
|* license information.                                                       *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The C API of gather, in the style of MLIR's upstream dialect C APIs        *|
|* (mlir-c/Dialect/) and examples/standalone/include/Standalone-c: C and      *|
|* FFI users load the onnx dialect into an MlirContext and run gather's       *|
|* passes and the onnx-to-llvm pipeline through mlir-c/Pass.h.                *|
|*                                                                            *|
|* Library: libGatherCAPI.so (CMake target gather::GatherCAPI). It also       *|
|* exports MLIR's core C API (mlir-c/IR.h, mlir-c/Pass.h, ...) and the func   *|
|* dialect's (mlir-c/Dialect/Func.h), which Debian's MLIR ships only as       *|
|* static archives.                                                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GATHER_C_DIALECTS_H
#define GATHER_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The onnx dialect (gather::ONNX::ONNXDialect): mlirGetDialectHandle__onnx__
/// for mlirDialectHandleRegisterDialect / mlirDialectHandleLoadDialect /
/// mlirDialectHandleInsertDialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(ONNX, onnx);

/// Adds to `registry` the onnx dialect and the upstream dialects and dialect
/// extensions that gather's onnx-to-llvm pipeline reads, creates and relies
/// on (gather::registerONNXToLLVMPipelineDependencies). Without the
/// extensions, bufferization and convert-to-llvm silently leave ops behind.
/// The dialects are those listed in gather/Pipelines/Pipelines.h, not every
/// upstream dialect.
MLIR_CAPI_EXPORTED void
mlirGatherRegisterPipelineDependencies(MlirDialectRegistry registry);

/// Registers every gather pass (every pass in the Passes.td files under
/// include/gather), the onnx-to-llvm pipeline and its gather-pipeline-*
/// stages for textual pipelines, e.g. mlirParsePassPipeline(pm,
/// "builtin.module(onnx-to-llvm{num-threads=1})", ...)
/// (gather::registerAllPasses). Calls after the first do nothing.
MLIR_CAPI_EXPORTED void mlirGatherRegisterPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* GATHER_C_DIALECTS_H */
