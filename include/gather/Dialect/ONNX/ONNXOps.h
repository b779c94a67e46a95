//===- ONNXOps.h - Operations of the onnx dialect ---------------*- C++ -*-===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// Declares the ops of the `onnx` dialect (ONNXOps.td), e.g.
// gather::ONNX::GatherElementsOp for ONNX GatherElements (opset 13).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_ONNXOPS_H
#define GATHER_DIALECT_ONNX_ONNXOPS_H

#include "gather/Dialect/ONNX/ONNXDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "gather/Dialect/ONNX/ONNXOps.h.inc"

#endif // GATHER_DIALECT_ONNX_ONNXOPS_H
