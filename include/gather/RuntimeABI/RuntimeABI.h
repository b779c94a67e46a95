//===- RuntimeABI.h - gather's runtime as compiled code sees it -*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The compiler's side of the contract between compiled code and gather's
// runtime libraries (libgather_runtime, libgather_onnx_runtime,
// libgather_mpi_runtime, libgather_cuda_runtime; their C side is
// GatherRuntime.h, GatherMPIRuntime.h and GatherCUDARuntime.h): the names
// and types of the runtime functions that compiled code calls, the element
// types the runtime handles (ElementTypes.def), the names reserved for the
// runtime, and their declarations in a module. Every runtime function name
// is written in RuntimeABI.cpp only, except the CUDA runtime's mgpu*, which
// MLIR's GPU lowering chooses (CUDARuntimeFunctions.def; the two that
// gather-gpu-load-lazily calls have rows here too). Emitting calls:
// gather/RuntimeABI/RuntimeReporter.h.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIMEABI_RUNTIMEABI_H
#define GATHER_RUNTIMEABI_RUNTIMEABI_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

namespace gather {

/// The name of a module's error sink (GatherErrorSink in GatherRuntime.h):
/// a weak, zero-initialized `!llvm.struct<(ptr, ptr)>` global that every
/// report site of the module (GatherReportSite, getOrCreateLocationGlobal
/// in RuntimeReporter.h) points to; hosts look it up in a JIT-compiled
/// kernel to give the kernel its own error handler.
inline constexpr llvm::StringLiteral kErrorSinkName = "__gather_error_sink";

/// The file name of libgather_cuda_runtime (GatherCUDARuntime.h), which a
/// host loads when compiled code calls it (isCUDARuntimeFunctionName).
inline constexpr llvm::StringLiteral kCUDARuntimeLibraryName =
    "libgather_cuda_runtime.so";

/// The file name of libgather_mpi_runtime (GatherMPIRuntime.h), which code
/// partitioned over MPI processes (shard-grid) calls, and through it MPI.
inline constexpr llvm::StringLiteral kMPIRuntimeLibraryName =
    "libgather_mpi_runtime.so";

/// The runtime's functions that compiled code calls with scalars and
/// pointers (see GatherRuntime.h and GatherMPIRuntime.h for each).
enum class RuntimeFunction {
  /// gatherReportIndexError(site, value, position, rank, axis, size).
  ReportIndexError,
  /// gatherReportIndexErrorsOmitted(site, count, axis, axisSize).
  ReportIndexErrorsOmitted,
  /// gatherReportShapeError(site, dim, indicesSize, dataSize, axis).
  ReportShapeError,
  /// gatherReportRankError(site, operand, rank, expectedRank).
  ReportRankError,
  /// gatherReportResultShapeError(site, dim, indicesSize, resultSize).
  ReportResultShapeError,
  /// gatherReportDestinationShapeError(site, dim, resultSize,
  /// destinationSize).
  ReportDestinationShapeError,
  /// gatherReportSlabShapeError(site, argument, dim, process, expected,
  /// given, wholeSize, processes).
  ReportSlabShapeError,
  /// gatherReportAllocationErrorIf(failed, bytes, site, what).
  ReportAllocationErrorIf,
  /// gatherMPIInit(numProcesses) (libgather_mpi_runtime).
  MPIInit,
  /// gatherMPIAllreduceSumBits(buffer, count, elementBytes, splitId, color,
  /// key) (libgather_mpi_runtime).
  MPIAllreduceSumBits,
  /// gatherMPIAllgatherv(buffer, outer, sliceBytes, dimSize, splitId,
  /// color, key) (libgather_mpi_runtime).
  MPIAllgatherv,
  /// gatherMPIAlltoallLookup(positions, count, result, data, dataStart,
  /// dataExtent, outer, axisSize, inner, elementBytes, splitId, color, key)
  /// (libgather_mpi_runtime).
  MPIAlltoallLookup,
  /// gatherMPICommSplitOnce(parent, color, key, slot) -> communicator
  /// (libgather_mpi_runtime).
  MPICommSplitOnce,
  /// gatherMPIKernelEnter(site) (libgather_mpi_runtime).
  MPIKernelEnter,
  /// gatherMPIKernelExit() (libgather_mpi_runtime).
  MPIKernelExit,
  /// gatherCUDAGetKernel(moduleSlot, kernelSlot, binary, size, format,
  /// optLevel, name) -> kernel (libgather_cuda_runtime).
  CUDAGetKernel,
  /// gatherCUDAUnloadModule(moduleSlot) (libgather_cuda_runtime).
  CUDAUnloadModule,
  /// mgpuLaunchKernel(kernel, gridX, gridY, gridZ, blockX, blockY, blockZ,
  /// sharedMemoryBytes, stream, params, extra, paramsCount)
  /// (CUDARuntimeFunctions.def).
  CUDALaunchKernel,
  /// mgpuStreamSynchronize(stream) (CUDARuntimeFunctions.def).
  CUDAStreamSynchronize,
};

/// The runtime's functions on tensors, one per element type (suffix, see
/// getRuntimeTypeSuffix): `<stem><Suffix>`, taking the tensors as unranked
/// memrefs through MLIR's C interface (`llvm.emit_c_interface`).
enum class RuntimeTensorFunction {
  /// gatherPrint<Suffix>(tensor<*xT>, i64 resultIndex).
  Print,
  /// gatherCompare<Suffix>(tensor<*xT> actual, tensor<*xT> expected,
  /// i64 index, f64 atol, f64 rtol).
  Compare,
  /// gatherWriteTensorProto<Suffix>(tensor<*xT>, tensor<*xi8> path)
  /// (libgather_onnx_runtime).
  WriteTensorProto,
};

/// The C name of `function`, e.g. "gatherReportIndexError".
llvm::StringRef getRuntimeFunctionName(RuntimeFunction function);

/// The type with which compiled code declares `function` (a func.func; the
/// `location` and other pointers are !llvm.ptr, so the LLVM dialect must be
/// loaded).
mlir::FunctionType getRuntimeFunctionType(mlir::MLIRContext *context,
                                          RuntimeFunction function);

/// The suffix of the runtime's functions on tensors of `elementType`
/// (ElementTypes.def: F32, ComplexF64, String for !onnx.string, ...), or ""
/// for a type the runtime does not handle.
llvm::StringRef getRuntimeTypeSuffix(mlir::Type elementType);

/// The element type of runtime suffix `suffix` (getRuntimeTypeSuffix), or
/// null if there is none or its dialect is not loaded (!onnx.string).
mlir::Type getRuntimeElementType(mlir::MLIRContext *context,
                                 llvm::StringRef suffix);

/// The name of `function` on tensors of `elementType`, e.g.
/// "gatherPrintF32" (the stem alone for a type the runtime does not handle).
std::string getRuntimeFunctionName(RuntimeTensorFunction function,
                                   mlir::Type elementType);

/// The type with which compiled code declares `function` on tensors of
/// `elementType`.
mlir::FunctionType getRuntimeFunctionType(RuntimeTensorFunction function,
                                          mlir::Type elementType);

/// The private declaration of `function` in `module`, created if missing
/// (callers check reserved names first, see verifyRuntimeSymbols).
mlir::func::FuncOp getOrDeclareRuntimeFunction(mlir::ModuleOp module,
                                               RuntimeFunction function);

/// The private declaration of `function` in `module`, checked: fails with
/// "symbol '<name>' is reserved for gather's runtime and must be an external
/// func.func of type <type>" at the symbol if `module` already has a symbol
/// of that name that is not such a declaration (e.g. a user function).
llvm::FailureOr<mlir::func::FuncOp>
getOrDeclareCheckedRuntimeFunction(mlir::ModuleOp module,
                                   RuntimeFunction function);

/// As above for `function` on tensors of `elementType`, created with the
/// `llvm.emit_c_interface` attribute and read-only
/// (`bufferization.access = "read"`) tensor arguments.
llvm::FailureOr<mlir::func::FuncOp>
getOrDeclareRuntimeFunction(mlir::ModuleOp module,
                            RuntimeTensorFunction function,
                            mlir::Type elementType);

/// Whether `name` is reserved for gather's runtime: it starts with
/// gatherReport, gatherPrint, gatherCompare, gatherWriteTensorProto,
/// gatherSetErrorHandler or gatherSetPrintLimit, possibly after the
/// `_mlir_ciface_` prefix of MLIR's C interface wrappers.
bool isReservedRuntimeName(llvm::StringRef name);

/// Whether `name` is a function of libgather_cuda_runtime: one of MLIR's
/// mgpu* functions (CUDARuntimeFunctions.def) or gather's gatherCUDA*
/// (GatherCUDARuntime.h).
bool isCUDARuntimeFunctionName(llvm::StringRef name);

/// The type of an error sink (kErrorSinkName): `!llvm.struct<(ptr, ptr)>`.
mlir::LLVM::LLVMStructType getErrorSinkType(mlir::MLIRContext *context);

/// Checks that `symbol`, named kErrorSinkName, is an error sink: a mutable,
/// defined, weak or external, not thread-local llvm.mlir.global of
/// getErrorSinkType() in address space 0 (what the JIT can look up and the
/// runtime can write); otherwise emits "symbol
/// '__gather_error_sink' is reserved for gather's runtime ..." and fails.
mlir::LogicalResult verifyErrorSink(mlir::Operation *symbol);

/// Checks every symbol with a reserved name (isReservedRuntimeName, and
/// kErrorSinkName: verifyErrorSink) in `root` and the modules nested in it:
/// it must be an external function
/// declaration (func.func or llvm.func), and a func.func of a runtime
/// function (RuntimeFunction, RuntimeTensorFunction) must have its type.
/// Otherwise emits "symbol '<name>' is reserved for gather's runtime ..." at
/// the symbol and fails. A definition would replace the runtime's function
/// when the code is linked; a wrong type would make calls read wrong
/// arguments.
mlir::LogicalResult verifyRuntimeSymbols(mlir::Operation *root);

} // namespace gather

#endif // GATHER_RUNTIMEABI_RUNTIMEABI_H
