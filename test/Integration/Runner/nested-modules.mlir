// REQUIRES: jit
// onnx-to-llvm compiles the gathers of a nested builtin.module too (with the
// whole pipeline: gather-lower-nested-modules), and --link-nested-modules
// links it in: the outer module calls its functions, run-time checks
// included.
// RUN: gather-runner %s -e outer --entry-point-result=void --link-nested-modules | FileCheck %s --check-prefix=OUTER
// OUTER: result 0: tensor<2x2xf32> = {{\[\[}}1, 1], [4, 3]]
// RUN: gather-runner %s -e call_inner --entry-point-result=void --link-nested-modules | FileCheck %s --check-prefix=INNER
// INNER: result 0: tensor<2x3xi32> = {{\[\[}}30, 10, 20], [60, 60, 40]]
// RUN: not gather-runner %s -e call_bad --entry-point-result=void --link-nested-modules 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: nested-modules.mlir:[[# @LINE + 25]]:12: error: 'onnx.GatherElements' op operand 'indices' holds value 5 at position [1], outside the valid range [-2, 1] for axis 0 of size 2

// A nested module inside a function (here in an scf.execute_region) is a
// located error that says what is unsupported.
// RUN: not gather-runner %S/Inputs/nested-module-in-execute-region.mlir -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=PLACEMENT
// PLACEMENT: nested-module-in-execute-region.mlir:6:7: error: a builtin.module inside 'scf.execute_region' is not supported: onnx-to-llvm compiles a nested builtin.module only as an op of another builtin.module's body (move it there)
// PLACEMENT-NEXT: nested-module-in-execute-region.mlir:2:3: note: in this function
// PLACEMENT-NOT: result

module {
  module @kernels {
    func.func @inner() -> tensor<2x3xi32> {
      %d = arith.constant dense<[[10, 20, 30], [40, 50, 60]]> : tensor<2x3xi32>
      %i = arith.constant dense<[[2, 0, 1], [2, -1, 0]]> : tensor<2x3xi64>
      %0 = onnx.GatherElements %d, %i {axis = 1 : si64} : tensor<2x3xi32>, tensor<2x3xi64>
      return %0 : tensor<2x3xi32>
    }
    func.func @id(%i: tensor<2xi64>) -> tensor<?xi64> {
      %0 = tensor.cast %i : tensor<2xi64> to tensor<?xi64>
      return %0 : tensor<?xi64>
    }
    func.func @bad() -> tensor<?xf32> {
      %d = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
      %c = arith.constant dense<[0, 5]> : tensor<2xi64>
      %i = call @id(%c) : (tensor<2xi64>) -> tensor<?xi64>
      %0 = onnx.GatherElements %d, %i : tensor<2xf32>, tensor<?xi64>
      return %0 : tensor<?xf32>
    }
  }
  func.func private @inner() -> tensor<2x3xi32>
  func.func private @bad() -> tensor<?xf32>
  func.func @call_inner() -> tensor<2x3xi32> {
    %0 = call @inner() : () -> tensor<2x3xi32>
    return %0 : tensor<2x3xi32>
  }
  func.func @call_bad() -> tensor<?xf32> {
    %0 = call @bad() : () -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
  func.func @outer() -> tensor<2x2xf32> {
    %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %i = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
    %0 = onnx.GatherElements %d, %i {axis = 1 : si64} : tensor<2x2xf32>, tensor<2x2xi64>
    return %0 : tensor<2x2xf32>
  }
}
