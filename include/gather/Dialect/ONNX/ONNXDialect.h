//===- ONNXDialect.h - The onnx dialect and its types -----------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `onnx` dialect (C++ namespace gather::ONNX) and its types. The string
// element type `!onnx.string` is `gather::ONNX::StringType`.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_ONNXDIALECT_H
#define GATHER_DIALECT_ONNX_ONNXDIALECT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Types.h"

#include "gather/Dialect/ONNX/ONNXOpsDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "gather/Dialect/ONNX/ONNXOpsTypes.h.inc"

namespace gather::ONNX {

/// Whether `op` is in the `onnx` namespace but not an op of gather's onnx
/// dialect: an op gather's dialect does not define (onnx-mlir's
/// `onnx.TopK`, ... kept unregistered in generic form) or an op of another
/// registered `onnx` dialect.
bool isForeignONNXOp(mlir::Operation *op);

/// onnx-mlir's placeholder of an omitted optional operand (unregistered,
/// generic form), which the ONNX importer makes too: not a node of the
/// model, whatever dialect its users are of.
inline constexpr llvm::StringLiteral kNoValueOpName = "onnx.NoValue";

} // namespace gather::ONNX

#endif // GATHER_DIALECT_ONNX_ONNXDIALECT_H
