//===- Passes.td - Conversion passes of gather -------------*- tablegen -*-===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_PASSES_TD
#define GATHER_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertONNXToLinalgPass : Pass<"convert-onnx-to-linalg"> {
  let summary = "Lower onnx dialect ops to linalg, tensor and arith";
  let description = [{
    Rewrites every `onnx.GatherElements` into a `tensor.empty` and an
    all-parallel `linalg.generic` over the shape of `indices` whose body
    reads `data` with `tensor.extract`:

    - the index value is sign-extended to `index`, so i32 and i64 indices
      behave alike;
    - a negative index i becomes i + s (s = data.shape[axis]);
    - a negative `axis` is normalized to axis + rank;
    - an index still outside [0, s) after that is replaced by 0, so the
      generated code never reads outside `data` whatever the input.

    Dynamic dimensions are supported (sizes come from `tensor.dim`); unranked
    operands are rejected with a diagnostic. The pass fails if any op of the
    `onnx` dialect is left.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // GATHER_CONVERSION_PASSES_TD
