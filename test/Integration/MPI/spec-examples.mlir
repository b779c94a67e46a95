// REQUIRES: jit, mpi
// The ONNX spec's three GatherElements examples on 2 and 4 MPI processes:
// rank 0 prints what one process prints, the other ranks nothing. The 2x2
// example splits over 2 processes (rows, or with shard-dim=1 the axis); the
// 3x3 ones split into uneven blocks (2 and 1 rows; 1, 1, 1 and an empty one
// on 4 processes).
// RUN: %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' | FileCheck %s
// RUN: %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-dim=1' | FileCheck %s
// RUN: %mpirun -np 4 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=4' | FileCheck %s
// The same with shard-io=split (each process its slabs).
// RUN: %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-io=split' | FileCheck %s
// RUN: %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-dim=1 shard-io=split' | FileCheck %s
// RUN: %mpirun -np 4 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=4 shard-io=split' | FileCheck %s

// CHECK:      result 0: tensor<2x2xf32> = {{\[\[}}1, 1], [4, 3]]
// CHECK-NEXT: result 1: tensor<2x3xf32> = {{\[\[}}4, 8, 3], [7, 2, 3]]
// CHECK-NEXT: result 2: tensor<2x3xf32> = {{\[\[}}7, 5, 3], [4, 2, 3]]
// CHECK-NOT: result

func.func @gather_axis1(%data: tensor<2x2xf32>, %indices: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<2x2xf32>, tensor<2x2xi64>
  return %out : tensor<2x2xf32>
}

func.func @gather_axis0(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %out = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<2x3xi64>
  return %out : tensor<2x3xf32>
}

func.func @main() -> (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %d0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i0 = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %o0 = call @gather_axis1(%d0, %i0) : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  %d1 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %i1 = arith.constant dense<[[1, 2, 0], [2, 0, 0]]> : tensor<2x3xi64>
  %o1 = call @gather_axis0(%d1, %i1) : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  %i2 = arith.constant dense<[[-1, -2, 0], [-2, 0, 0]]> : tensor<2x3xi64>
  %o2 = call @gather_axis0(%d1, %i2) : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %o0, %o1, %o2 : tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
