//===- ONNXDialect.h - The onnx dialect and its types -----------*- C++ -*-===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// The `onnx` dialect (C++ namespace gather::ONNX) and its types. The string
// element type `!onnx.string` is `gather::ONNX::StringType`.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_ONNXDIALECT_H
#define GATHER_DIALECT_ONNX_ONNXDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Types.h"

#include "gather/Dialect/ONNX/ONNXOpsDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "gather/Dialect/ONNX/ONNXOpsTypes.h.inc"

namespace gather {
/// The suffix of gather's runtime functions (gatherPrint<Suffix>,
/// gatherCompare<Suffix>, gatherWriteTensorProto<Suffix>; see
/// gather/Runtime/GatherRuntime.h) for tensors of `elementType`: F32 F64 F16
/// BF16 I1 I8 I16 I32 I64 UI8 UI16 UI32 UI64 ComplexF32 ComplexF64 String,
/// or "" for a type the runtime does not handle.
llvm::StringRef getRuntimeTypeSuffix(mlir::Type elementType);

/// Returns the private declaration of runtime function `name` (one taking
/// tensors as memrefs through MLIR's C interface, like gatherPrint*) in
/// `module`, creating it with `type`, the `llvm.emit_c_interface` attribute
/// and read-only (`bufferization.access = "read"`) tensor arguments.
mlir::func::FuncOp getOrDeclareRuntimeCInterfaceFunction(
    mlir::ModuleOp module, llvm::StringRef name, mlir::FunctionType type);
} // namespace gather

#endif // GATHER_DIALECT_ONNX_ONNXDIALECT_H
