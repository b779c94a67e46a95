//===- ONNXDialect.h - The onnx dialect and its types -----------*- C++ -*-===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// The `onnx` dialect (C++ namespace gather::onnx) and its types. The string
// element type `!onnx.string` is `gather::onnx::StringType`.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_ONNXDIALECT_H
#define GATHER_DIALECT_ONNX_ONNXDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/Types.h"

#include "gather/Dialect/ONNX/ONNXOpsDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "gather/Dialect/ONNX/ONNXOpsTypes.h.inc"

#endif // GATHER_DIALECT_ONNX_ONNXDIALECT_H
