// REQUIRES: jit, mpi
// Another `onnx` dialect's GatherElements (the stand-in of test/lib, as
// onnx-mlir's), partitioned over 2 MPI processes by gather-test-opt's
// pipeline, computes what one process computes: rows split (no
// communication) and the axis split (masked gathers and an all-reduce).
// RUN: gather-test-opt %s --onnx-to-llvm='shard-grid=2' -o %t.sharded.mlir
// RUN: %mpirun -np 2 gather-runner %t.sharded.mlir -e main --entry-point-result=void | FileCheck %s
// RUN: gather-test-opt %s --onnx-to-llvm -o %t.mlir
// RUN: gather-runner %t.mlir -e main --entry-point-result=void | FileCheck %s

// Rows: out[r][c] = data[r][indices[r][c]], 3 columns.
// CHECK{LITERAL}: tensor<4x2xf32> = [[3, 1], [4, 6], [9, 8], [10, 12]]
// Axis (columns, 4 of them) split: out[r][c] = data[r][indices[r][c]].
// CHECK{LITERAL}: tensor<3x2xf32> = [[4, 1], [7, 6], [12, 9]]
// CHECK-NOT: tensor

func.func private @gatherPrintF32(tensor<*xf32> {bufferization.access = "read"}, i64) attributes {llvm.emit_c_interface}

func.func @rows(%d: tensor<4x3xf32>, %i: tensor<4x2xi64>) -> tensor<4x2xf32> {
  %0 = "onnx.GatherElements"(%d, %i) {axis = 1 : si64} : (tensor<4x3xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

func.func @columns(%d: tensor<3x4xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %0 = "onnx.GatherElements"(%d, %i) {axis = -1 : si64} : (tensor<3x4xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

func.func @main() {
  %n = arith.constant 0 : i64
  %d = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]> : tensor<4x3xf32>
  %i = arith.constant dense<[[2, 0], [0, -1], [2, 1], [0, 2]]> : tensor<4x2xi64>
  %o = call @rows(%d, %i) : (tensor<4x3xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  %u = tensor.cast %o : tensor<4x2xf32> to tensor<*xf32>
  call @gatherPrintF32(%u, %n) : (tensor<*xf32>, i64) -> ()
  %d2 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]> : tensor<3x4xf32>
  %i2 = arith.constant dense<[[3, 0], [2, -3], [-1, 0]]> : tensor<3x2xi32>
  %o2 = call @columns(%d2, %i2) : (tensor<3x4xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %u2 = tensor.cast %o2 : tensor<3x2xf32> to tensor<*xf32>
  call @gatherPrintF32(%u2, %n) : (tensor<*xf32>, i64) -> ()
  return
}
