// REQUIRES: jit
// --link-nested-modules with dynamic gathers in both modules: each module
// gets its own dealloc_helper (and alloc-site, location globals) from the
// pipeline; they have internal linkage, so the two link without a clash.
// RUN: gather-runner %s -e main --entry-point-result=void --link-nested-modules | FileCheck %s
// CHECK: result 0: tensor<3xf32> = [3, 2, 3]
// CHECK-NEXT: result 1: tensor<3xf32> = [3, 2, 3]
// The run-time check of each module still reports at its own gather.
// RUN: not gather-runner %s -e bad --entry-point-result=void --link-nested-modules 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: link-nested-helpers.mlir:[[@LINE+6]]:12: error: 'onnx.GatherElements' op operand 'indices' holds value 7 at position [2], outside the valid range [-3, 2] for axis 0 of size 3
// BAD-NOT: result

module {
  module @kernels {
    func.func @inner(%d: tensor<3xf32>, %i: tensor<?xi64>) -> tensor<?xf32> {
      %0 = onnx.GatherElements %d, %i : tensor<3xf32>, tensor<?xi64>
      return %0 : tensor<?xf32>
    }
  }
  func.func private @inner(tensor<3xf32>, tensor<?xi64>) -> tensor<?xf32>
  func.func @outer(%d: tensor<3xf32>, %i: tensor<?xi64>) -> tensor<?xf32> {
    %0 = onnx.GatherElements %d, %i : tensor<3xf32>, tensor<?xi64>
    return %0 : tensor<?xf32>
  }
  func.func @main() -> (tensor<?xf32>, tensor<?xf32>) {
    %d = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %c = arith.constant dense<[2, 1, -1]> : tensor<3xi64>
    %i = tensor.cast %c : tensor<3xi64> to tensor<?xi64>
    %a = call @inner(%d, %i) : (tensor<3xf32>, tensor<?xi64>) -> tensor<?xf32>
    %b = call @outer(%d, %i) : (tensor<3xf32>, tensor<?xi64>) -> tensor<?xf32>
    return %a, %b : tensor<?xf32>, tensor<?xf32>
  }
  func.func @bad() -> (tensor<?xf32>, tensor<?xf32>) {
    %d = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %c = arith.constant dense<[2, 1, 7]> : tensor<3xi64>
    %i = tensor.cast %c : tensor<3xi64> to tensor<?xi64>
    %a = call @inner(%d, %i) : (tensor<3xf32>, tensor<?xi64>) -> tensor<?xf32>
    %b = call @outer(%d, %i) : (tensor<3xf32>, tensor<?xi64>) -> tensor<?xf32>
    return %a, %b : tensor<?xf32>, tensor<?xf32>
  }
}
