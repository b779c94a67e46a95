// REQUIRES: jit, mpi
// A gather that reads another gather's result (as data or as indices):
// partitioning the first replaced the value the second still held, and
// onnx-shard-gathers crashed (SIGSEGV) on every split. Each process count
// prints one process's values.
// RUN: gather-runner %s -e main --entry-point-result=void | FileCheck %s
// RUN: %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' | FileCheck %s
// RUN: %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-dim=1' | FileCheck %s
// RUN: %mpirun -np 3 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=3 shard-dim=0 shard-assembly=all-reduce' | FileCheck %s
// A bad index in the second gather's indices, which the first gather made:
// every process reports the first bad position, the job exits 1.
// RUN: not gather-runner %S/Inputs/chained-gathers-bad-index.mlir -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not %mpirun -np 2 gather-runner %S/Inputs/chained-gathers-bad-index.mlir -e main --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: chained-gathers-bad-index.mlir:3:9: error: 'onnx.GatherElements' op operand 'indices' holds value 3 at position [0, 2], outside the valid range [-3, 2] for axis 0 of size 3
// BAD-NOT: result
// CHECK: result 0: tensor<4x6xf32> = {{\[}}[1, 6, 3, 5, 5, 4], [7, 7, 9, 8, 11, 9], [13, 18, 15, 13, 17, 15], [19, 22, 21, 22, 23, 22]]
// CHECK: result 1: tensor<6x4xf32> = {{\[}}[9, 6, 15, 8], [21, 6, 11, 16], [9, 18, 11, 16], [13, 14, 15, 16], [1, 6, 15, 12], [21, 22, 3, 4]]
// CHECK: result 2: tensor<6x4xf32> = {{\[}}[9, 6, 15, 8], [21, 6, 11, 16], [9, 18, 11, 16], [13, 14, 15, 16], [1, 6, 15, 12], [21, 22, 3, 4]]

func.func @g(%d: tensor<4x6xf32> {bufferization.writable = true}, %i: tensor<4x3xi64>) -> tensor<4x6xf32> {
  %o = onnx.GatherElements %d, %i axis = 1 : tensor<4x6xf32>, tensor<4x3xi64>
  %r = tensor.insert_slice %o into %d[0, 1] [4, 3] [1, 2] : tensor<4x3xf32> into tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
func.func @g2(%d: tensor<6x4xf32>, %i: tensor<6x4xi64>) -> tensor<6x4xf32> {
  %o = onnx.GatherElements %d, %i axis = 0 : tensor<6x4xf32>, tensor<6x4xi64>
  %o2 = onnx.GatherElements %o, %i axis = 0 : tensor<6x4xf32>, tensor<6x4xi64>
  %r = tensor.insert_slice %o2 into %d[0, 0] [6, 4] [1, 1] : tensor<6x4xf32> into tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}
// The second gather's indices are the first's result (cast to i64).
func.func @g3(%d: tensor<6x4xf32>, %i: tensor<6x4xi64>) -> tensor<6x4xf32> {
  %o = onnx.GatherElements %i, %i axis = 0 : tensor<6x4xi64>, tensor<6x4xi64>
  %o2 = onnx.GatherElements %d, %o axis = 0 : tensor<6x4xf32>, tensor<6x4xi64>
  return %o2 : tensor<6x4xf32>
}
func.func @main() -> (tensor<4x6xf32>, tensor<6x4xf32>, tensor<6x4xf32>) {
  %d0 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0, 17.0, 18.0], [19.0, 20.0, 21.0, 22.0, 23.0, 24.0]]> : tensor<4x6xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %d = linalg.copy ins(%d0 : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %i = arith.constant dense<[[5, 4, 3], [0, 1, 2], [-1, -6, 2], [3, 3, 3]]> : tensor<4x3xi64>
  %r = call @g(%d, %i) : (tensor<4x6xf32>, tensor<4x3xi64>) -> tensor<4x6xf32>
  %t0 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0], [17.0, 18.0, 19.0, 20.0], [21.0, 22.0, 23.0, 24.0]]> : tensor<6x4xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %t = linalg.copy ins(%t0 : tensor<6x4xf32>) outs(%e2 : tensor<6x4xf32>) -> tensor<6x4xf32>
  %j = arith.constant dense<[[5, 4, 3, 2], [0, 1, 2, 3], [-1, -6, 2, 1], [3, 3, 3, 3], [1, 1, 0, 0], [2, 5, 4, 4]]> : tensor<6x4xi64>
  %r2 = call @g2(%t, %j) : (tensor<6x4xf32>, tensor<6x4xi64>) -> tensor<6x4xf32>
  %r3 = call @g3(%t0, %j) : (tensor<6x4xf32>, tensor<6x4xi64>) -> tensor<6x4xf32>
  return %r, %r2, %r3 : tensor<4x6xf32>, tensor<6x4xf32>, tensor<6x4xf32>
}
