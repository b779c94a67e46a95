// REQUIRES: jit
// A gather of a splat constant (its read of `data` folded into the value,
// codegen-splat-data.mlir): every element is the splat's value, no warning,
// and an index value out of range is still reported at run time.
// RUN: gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: not gather-runner %s -e out_of_range --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=BAD --implicit-check-not=warning:

// CHECK{LITERAL}: result 0: tensor<2x3xf32> = [[1.5, 1.5, 1.5], [1.5, 1.5, 1.5]]
// CHECK-NEXT{LITERAL}: result 1: tensor<2x3xi32> = [[-7, -7, -7], [-7, -7, -7]]
// BAD: splat-data-run.mlir:[[# @LINE + 4]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 8 at position [1, 2], outside the valid range [-8, 7] for axis 1 of size 8

func.func @g(%i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %d = arith.constant dense<1.5> : tensor<4x8xf32>
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4x8xf32>, tensor<?x?xi64> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @h(%i: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %d = arith.constant dense<-7> : tensor<3x5xi32>
  %0 = onnx.GatherElements %d, %i axis = 0 : tensor<3x5xi32>, tensor<?x?xi32> -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

func.func @main() -> (tensor<?x?xf32>, tensor<?x?xi32>) {
  %i0 = arith.constant dense<[[0, -1, 7], [3, -8, 2]]> : tensor<2x3xi64>
  %c0 = tensor.cast %i0 : tensor<2x3xi64> to tensor<?x?xi64>
  %r0 = call @g(%c0) : (tensor<?x?xi64>) -> tensor<?x?xf32>
  %i1 = arith.constant dense<[[0, -1, 2], [-3, 1, 0]]> : tensor<2x3xi32>
  %c1 = tensor.cast %i1 : tensor<2x3xi32> to tensor<?x?xi32>
  %r1 = call @h(%c1) : (tensor<?x?xi32>) -> tensor<?x?xi32>
  return %r0, %r1 : tensor<?x?xf32>, tensor<?x?xi32>
}

func.func @out_of_range() -> tensor<?x?xf32> {
  %i = arith.constant dense<[[0, 1, 2], [3, 4, 8]]> : tensor<2x3xi64>
  %c = tensor.cast %i : tensor<2x3xi64> to tensor<?x?xi64>
  %r = call @g(%c) : (tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
