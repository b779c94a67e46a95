// REQUIRES: jit, mpi
// Gathers on tensors without elements (a size 0 in `data`, `indices` or
// both) next to a non-empty one, on any number of processes: rank 0 prints
// what one process prints. Empty gathers stay replicated
// (hand-annotated splits of empty tensors: hand-annotated.mlir).
// RUN: gather-runner %s -e main --entry-point-result=void -O0 > %t.1
// RUN: FileCheck %s --input-file=%t.1
// RUN: gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=1' > %t.g1
// RUN: diff %t.1 %t.g1
// RUN: %mpirun -np 2 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=2' > %t.2
// RUN: diff %t.1 %t.2
// RUN: %mpirun -np 3 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=3' > %t.3
// RUN: diff %t.1 %t.3
// RUN: %mpirun -np 2 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=2 shard-dim=1' > %t.2b
// RUN: diff %t.1 %t.2b

// CHECK{LITERAL}: result 0: tensor<0x3xf32> = []
// CHECK-NEXT{LITERAL}: result 1: tensor<2x0xi32> = [[], []]
// CHECK-NEXT{LITERAL}: result 2: tensor<0x4xf64> = []
// CHECK-NEXT{LITERAL}: result 3: tensor<3x2xf32> = [[3, 1], [5, 6], [9, 7]]
// CHECK-NOT: result

func.func @k(%d0: tensor<0x3xf32>, %i0: tensor<0x3xi64>,
             %d1: tensor<2x6xi32>, %i1: tensor<2x0xi64>,
             %d2: tensor<0x4xf64>, %i2: tensor<0x4xi32>,
             %d3: tensor<3x3xf32>, %i3: tensor<3x2xi64>)
    -> (tensor<0x3xf32>, tensor<2x0xi32>, tensor<0x4xf64>, tensor<3x2xf32>) {
  %a = onnx.GatherElements %d0, %i0 axis = 1 : tensor<0x3xf32>, tensor<0x3xi64>
  %b = onnx.GatherElements %d1, %i1 axis = 1 : tensor<2x6xi32>, tensor<2x0xi64>
  %c = onnx.GatherElements %d2, %i2 axis = 0 : tensor<0x4xf64>, tensor<0x4xi32>
  %e = onnx.GatherElements %d3, %i3 axis = 1 : tensor<3x3xf32>, tensor<3x2xi64>
  return %a, %b, %c, %e : tensor<0x3xf32>, tensor<2x0xi32>, tensor<0x4xf64>, tensor<3x2xf32>
}

func.func @main() -> (tensor<0x3xf32>, tensor<2x0xi32>, tensor<0x4xf64>, tensor<3x2xf32>) {
  %d0 = arith.constant dense<0.0> : tensor<0x3xf32>
  %i0 = arith.constant dense<0> : tensor<0x3xi64>
  %d1 = arith.constant dense<[[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]]> : tensor<2x6xi32>
  %i1 = arith.constant dense<0> : tensor<2x0xi64>
  %d2 = arith.constant dense<0.0> : tensor<0x4xf64>
  %i2 = arith.constant dense<0> : tensor<0x4xi32>
  %d3 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %i3 = arith.constant dense<[[2, 0], [1, -1], [-1, 0]]> : tensor<3x2xi64>
  %r:4 = call @k(%d0, %i0, %d1, %i1, %d2, %i2, %d3, %i3) : (tensor<0x3xf32>, tensor<0x3xi64>, tensor<2x6xi32>, tensor<2x0xi64>, tensor<0x4xf64>, tensor<0x4xi32>, tensor<3x3xf32>, tensor<3x2xi64>) -> (tensor<0x3xf32>, tensor<2x0xi32>, tensor<0x4xf64>, tensor<3x2xf32>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<0x3xf32>, tensor<2x0xi32>, tensor<0x4xf64>, tensor<3x2xf32>
}
