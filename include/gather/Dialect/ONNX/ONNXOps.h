//===- ONNXOps.h - Operations of the onnx dialect ---------------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "gather/Dialect/ONNX/ONNXOps.h.inc"

namespace gather::ONNX {
/// Whether a value of type `a` may stand where type `b` is expected in the
/// ONNX ops' regions and returns: the same type, or tensors of the same
/// element type with compatible shapes (`tensor<2x3xf32>` for
/// `tensor<?x3xf32>` or `tensor<*xf32>`, and back).
bool areCompatibleValueTypes(mlir::Type a, mlir::Type b);

/// Checks the rules of onnx.GatherElements' verifier (see its description in
/// ONNXOps.td) on operands `data` and `indices`, `axis` and, if not null,
/// the result type; on a violation, emits an error through `emitOpError`
/// (which returns a diagnostic the message is appended to, e.g.
/// `op->emitOpError()`) and returns failure. Used by the op's verifier and
/// by gather::buildGatherElements for ops of other dialects.
mlir::LogicalResult
verifyGatherElements(llvm::function_ref<mlir::InFlightDiagnostic()> emitOpError,
                     mlir::Value data, mlir::Value indices, int64_t axis,
                     mlir::Type resultType = nullptr);

/// The ONNX rule for an index value along an axis of size s (GatherElements,
/// opset 13, "Inputs", indices: "All index values are expected to be within
/// bounds [-s, s-1] along axis of size s"; a negative value counts from the
/// back), as IR at the builder's insertion point: `index` (a scalar i32 or
/// i64 value, sign-extended) and `axisSize` (an `index` value s >= 0) give
///   normalized = index < 0 ? index + s : index     (`index` type)
///   inRange    = 0 <= normalized < s               (i1, one unsigned compare:
///                                                   values still negative
///                                                   are out of range too)
/// Returns {normalized, inRange} (arith ops only). The arithmetic is done in
/// i32 when it is exact there (i32 index values and a static s <=
/// INT32_MAX: index + s cannot overflow for index < 0, and the unsigned
/// compare with s orders the values as in `index`), else in `index`. Used by
/// the lowering of onnx.GatherElements, its run-time checks and its
/// sharding.
std::pair<mlir::Value, mlir::Value> buildNormalizedIndex(mlir::OpBuilder &b,
                                                         mlir::Location loc,
                                                         mlir::Value index,
                                                         mlir::Value axisSize);

/// As buildNormalizedIndex, but the first value is the coordinate to read:
///   safe = inRange ? normalized : 0                (`index` type)
/// so that an index out of range reads element 0 along the axis.
std::pair<mlir::Value, mlir::Value> buildSafeIndex(mlir::OpBuilder &b,
                                                   mlir::Location loc,
                                                   mlir::Value index,
                                                   mlir::Value axisSize);

} // namespace gather::ONNX

#endif // GATHER_DIALECT_ONNX_ONNXOPS_H
