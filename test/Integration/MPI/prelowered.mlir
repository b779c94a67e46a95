// REQUIRES: jit, mpi
// IR partitioned and lowered beforehand (gather-opt), run by gather-runner
// in an MPI job without --pipeline-options: rank 0 alone prints, as with
// shard-grid.
// RUN: gather-opt %s --onnx-to-llvm='shard-grid=2' -o %t.ll.mlir
// RUN: %mpirun -np 2 gather-runner %t.ll.mlir -e main --entry-point-result=void | FileCheck %s

// CHECK{LITERAL}: tensor<4x2xf32> = [[1, 2], [7, 6], [10, 10], [16, 13]]
// CHECK-NOT: tensor

func.func private @gatherPrintF32(tensor<*xf32> {bufferization.access = "read"}, i64) attributes {llvm.emit_c_interface}

func.func @gather(%data: tensor<4x4xf32>, %indices: tensor<4x2xi64>) -> tensor<4x2xf32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<4x4xf32>, tensor<4x2xi64>
  return %out : tensor<4x2xf32>
}

func.func @main() {
  %d = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]> : tensor<4x4xf32>
  %i = arith.constant dense<[[0, 1], [2, -3], [1, 1], [3, -4]]> : tensor<4x2xi64>
  %o = call @gather(%d, %i) : (tensor<4x4xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  %u = tensor.cast %o : tensor<4x2xf32> to tensor<*xf32>
  %n = arith.constant 0 : i64
  call @gatherPrintF32(%u, %n) : (tensor<*xf32>, i64) -> ()
  return
}
