// REQUIRES: jit
// GatherElements inside loops: a result carried through scf.for iter_args
// (gathered again each iteration), and a gather in a loop body.
// RUN: gather-runner %s -e main --entry-point-result=void | FileCheck %s
// RUN: gather-runner %s -e main --entry-point-result=void -O0 | FileCheck %s

// Rotating [1, 2, 3, 4] left by one, three times: [4, 1, 2, 3].
// CHECK: result 0: tensor<4xf32> = [4, 1, 2, 3]
// Row k of the second result gathers with index -1 - k.
// CHECK-NEXT{LITERAL}: result 1: tensor<3x3xi32> = [[3, 3, 3], [2, 2, 2], [1, 1, 1]]

func.func @main() -> (tensor<4xf32>, tensor<3x3xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %rotate = arith.constant dense<[1, 2, 3, -4]> : tensor<4xi64>
  %rotated = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %data) -> (tensor<4xf32>) {
    %g = onnx.GatherElements %acc, %rotate : tensor<4xf32>, tensor<4xi64>
    scf.yield %g : tensor<4xf32>
  }
  %row = arith.constant dense<[[1, 2, 3]]> : tensor<1x3xi32>
  %init = tensor.empty() : tensor<3x3xi32>
  %rows = scf.for %k = %c0 to %c3 step %c1 iter_args(%out = %init) -> (tensor<3x3xi32>) {
    %ki = arith.index_cast %k : index to i32
    %m1 = arith.constant -1 : i32
    %idx_value = arith.subi %m1, %ki : i32
    %e = tensor.empty() : tensor<1x3xi32>
    %idx = linalg.fill ins(%idx_value : i32) outs(%e : tensor<1x3xi32>) -> tensor<1x3xi32>
    %g = onnx.GatherElements %row, %idx axis = 1 : tensor<1x3xi32>, tensor<1x3xi32>
    %u = tensor.insert_slice %g into %out[%k, 0] [1, 3] [1, 1] : tensor<1x3xi32> into tensor<3x3xi32>
    scf.yield %u : tensor<3x3xi32>
  }
  return %rotated, %rows : tensor<4xf32>, tensor<3x3xi32>
}
