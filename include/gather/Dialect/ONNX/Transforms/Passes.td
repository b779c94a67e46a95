//===- Passes.td - Transforms of the onnx dialect ----------*- tablegen -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_TRANSFORMS_PASSES_TD
#define GATHER_DIALECT_ONNX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ONNXShapeInferencePass
    : Pass<"onnx-shape-inference", "::mlir::ModuleOp"> {
  let summary = "Refine unranked and dynamic result types of onnx ops";
  let description = [{
    Replaces the declared result type of every `onnx.GatherElements` by the
    most static type compatible with both the declared type and the type
    inferred from its operands (the shape of `indices`, the element type of
    `data`): `tensor<*xf32>` or `tensor<?x3xf32>` becomes `tensor<2x3xf32>`
    when `indices` is `tensor<2x3xi64>`.

    Refined values flow on:
    - into other onnx ops, which are refined in turn;
    - into `func.return` of a private function (in any nested module):
      the function's result types are refined too, and so are the results
      of the `func.call`s to it (repeated to a fixed point, so refinement
      crosses calls). Public functions keep their signature, an ABI for
      callers outside the module, unless `refine-public-functions` is set;
      their returns get a `tensor.cast` back to the declared type;
    - any other user keeps the type it had, through a `tensor.cast` from the
      refined type.

    A declared static dimension that conflicts with the inferred one is an
    error (the op verifier reports it first).
  }];
  let options = [
    Option<"refinePublicFunctions", "refine-public-functions", "bool",
           /*default=*/"false",
           "Also refine the result types of public functions (changes their "
           "signature)">,
  ];
  let dependentDialects = [
    "::mlir::func::FuncDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def CheckGatherDestinationsPass
    : Pass<"onnx-check-gather-destinations", "::mlir::ModuleOp"> {
  let summary = "Check at run time that a gather's destination has the "
                "result's sizes";
  let description = [{
    A kernel in destination-passing style copies the result of
    `onnx.GatherElements` into a destination it was given:
    `bufferization.materialize_in_destination` into a memref or a tensor, or
    `linalg.copy` into a tensor. Neither op checks sizes that are dynamic
    (`?`) on either side, and a smaller memref would be written past its
    end. For every dimension that is dynamic in the result or the
    destination, this pass compares the two sizes at run time; on a
    mismatch it calls `gatherReportDestinationShapeError(location, dim,
    resultSize, destinationSize)` of gather's runtime (with `runtime-checks`; the first
    mismatch only) and skips the copy (always): a memref destination is left
    as it was, a tensor destination is passed on unchanged.

    It runs first in the onnx-to-llvm pipeline, before the canonicalizer
    folds tensor-level copies away.
  }];
  let options = [
    Option<"runtimeChecks", "runtime-checks", "bool", /*default=*/"true",
           "Report a mismatch through gather's runtime (the copy is skipped "
           "either way)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // GATHER_DIALECT_ONNX_TRANSFORMS_PASSES_TD
