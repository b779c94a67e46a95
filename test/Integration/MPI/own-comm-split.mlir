// REQUIRES: jit, mpi
// The program's own mpi.comm_split, with another color each time through a
// loop, next to a partitioned gather: gather-shard-cache-communicators keeps
// only the communicators convert-shard-to-mpi makes, so each of the
// program's splits is made anew (each process ranks 0 in its own group of
// one) and the gather equals one process's.
// RUN: timeout 120 %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1 | FileCheck %s
// CHECK: [0,  0,  0]
// CHECK: result 0: tensor<2x4xf32> = {{\[}}[2, 3, 4, 1], [8, 5, 6, 7]]
// CHECK-NOT: error

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() -> tensor<2x4xf32> {
  %world = mpi.comm_world : !mpi.comm
  %retval, %rank = mpi.comm_rank(%world) : !mpi.retval, i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %buf = memref.alloca() : memref<3xi32>
  %key = arith.constant 0 : i32
  scf.for %k = %c0 to %c3 step %c1 {
    %ki = arith.index_cast %k : index to i32
    // A color of its own for each process and each time: groups of one.
    %two = arith.constant 2 : i32
    %base = arith.muli %ki, %two : i32
    %color = arith.addi %base, %rank : i32
    %comm = mpi.comm_split(%world, %color, %key) : !mpi.comm
    %r, %inner = mpi.comm_rank(%comm) : !mpi.retval, i32
    memref.store %inner, %buf[%k] : memref<3xi32>
  }
  %p = memref.cast %buf : memref<3xi32> to memref<*xi32>
  call @printMemrefI32(%p) : (memref<*xi32>) -> ()
  %d = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %i = arith.constant dense<[[1, 2, 3, 0], [3, 0, 1, 2]]> : tensor<2x4xi64>
  %o = onnx.GatherElements %d, %i axis = 1 : tensor<2x4xf32>, tensor<2x4xi64>
  return %o : tensor<2x4xf32>
}
