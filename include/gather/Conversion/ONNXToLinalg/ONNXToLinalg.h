//===- ONNXToLinalg.h - ONNX GatherElements to linalg -----------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The lowering of ONNX GatherElements (opset 13) as a function that any
// pattern can call, whatever op it rewrites: it needs only the operands,
// `axis` and the result type, not gather's `onnx` dialect. It is what
// `convert-onnx-to-linalg` does for every op named `onnx.GatherElements`
// (gather's, onnx-mlir's, or an unregistered one); the result is then
// vectorized, parallelized and bufferized by the rest of the onnx-to-llvm
// pipeline (gather/Pipelines/Pipelines.h).
//
// Example, in a pattern of another `onnx` dialect:
//
//   FailureOr<Value> result = gather::buildGatherElements(
//       rewriter, op.getLoc(), adaptor.getData(), adaptor.getIndices(),
//       op.getAxis(), op.getType());
//   if (failed(result))
//     return failure();
//   rewriter.replaceOp(op, *result);
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H
#define GATHER_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace gather {

/// Options of buildGatherElements.
struct GatherElementsLoweringOptions {
  /// Check shapes and index values at run time where they are not known at
  /// compile time, reporting violations through gather's runtime
  /// (gather/Runtime/GatherRuntime.h) with the op's location. Off: the
  /// caller guarantees valid inputs (the code still never reads or writes
  /// outside a buffer).
  bool runtimeChecks = true;
  /// With runtimeChecks: also check the index values. Off for a gather
  /// whose caller checks them itself (ONNX::kIndicesCheckedByCallerAttrName:
  /// a process's part of a partitioned gather, whose check is global); the
  /// gather then reads index 0 for a value out of range.
  bool checkIndexValues = true;
};

/// Builds at the insertion point of `builder` the computation of ONNX
/// GatherElements (ai.onnx, opset 13; see `onnx.GatherElements` in
/// ONNXOps.td for the semantics):
///   - `data`: a tensor of rank r >= 1, any element type;
///   - `indices`: a tensor of rank r with element type i32 or i64;
///   - `axis`: in [-r, r-1];
///   - `resultType`: a tensor type compatible with the shape of `indices`
///     and with the element type of `data` (it may be less static, e.g.
///     unranked).
/// At most one operand may be unranked (the other gives the rank). Returns
/// the result, a value of `resultType`, computed by tensor.empty and an
/// all-parallel linalg.generic (plus tensor/arith/scf for the checks).
/// Invalid operands, `axis` or result type (the rules of the op's verifier)
/// give failure, after an error at `loc` worded as the verifier's
/// (`'onnx.GatherElements' op ...`).
///
/// With run-time checks, the builder must be inside a builtin.module: the
/// runtime's report functions are declared there (reserved names, see
/// `convert-onnx-to-linalg`), and `loc` is stored there as a string
/// constant (an llvm.mlir.global) that the reports print.
mlir::FailureOr<mlir::Value>
buildGatherElements(mlir::OpBuilder &builder, mlir::Location loc,
                    mlir::Value data, mlir::Value indices, int64_t axis,
                    mlir::Type resultType,
                    const GatherElementsLoweringOptions &options = {});

} // namespace gather

#endif // GATHER_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H
