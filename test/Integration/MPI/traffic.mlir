// REQUIRES: jit, mpi
// UNSUPPORTED: asan
// The bytes each process sends (test/lib/MPITraffic, preloaded into the
// ranks) against the model of docs/Sharding.md that the collective's remark
// prints, per scheme and for 2, 4 and 8 processes: the result assembled by
// an all-gather ((N-1)/N of the 256-byte result) or an all-reduce (2(N-1)/N),
// the axis split (masked gathers summed: 2(N-1)/N), and the index-error
// consensus (one 8-byte all-reduce: 2(N-1)/N x 8).
// RUN: rm -rf %t && mkdir %t
// The axis schemes (shard-axis-scheme): data assembled by an all-gather
// ((N-1)/N of its 256 bytes), and the all-to-all lookup ((N-1) x 8 bytes of
// counts, (N-1)/N^2 x 64 x (8 + 4) of requests and values, then the result
// assembled: (N-1)/N x 256). Each row of the indices reads every column
// once, so every process asks every slab for as many values as the model's
// even spread says.
// RUN: %python %S/Inputs/traffic.py %s %gather_obj_root/bin %mpi_traffic %t all-gather:2 all-gather:4 all-gather:8 all-reduce:2 all-reduce:4 all-reduce:8 axis:2 axis:4 axis:8 all-gather-data:2 all-gather-data:4 all-gather-data:8 all-to-all:2 all-to-all:4 all-to-all:8 | FileCheck %s

// CHECK-COUNT-2: all-gather N=2 rank {{[0-9]}}: model 128 sent 128 (MPI_Allgatherv) check 8 in 1{{$}}
// CHECK-COUNT-4: all-gather N=4 rank {{[0-9]}}: model 192 sent 192 (MPI_Allgatherv) check 12 in 1{{$}}
// CHECK-COUNT-8: all-gather N=8 rank {{[0-9]}}: model 224 sent 224 (MPI_Allgatherv) check 14 in 1{{$}}
// CHECK-COUNT-2: all-reduce N=2 rank {{[0-9]}}: model 256 sent 256 (MPI_Allreduce) check 8 in 1{{$}}
// CHECK-COUNT-4: all-reduce N=4 rank {{[0-9]}}: model 384 sent 384 (MPI_Allreduce) check 12 in 1{{$}}
// CHECK-COUNT-8: all-reduce N=8 rank {{[0-9]}}: model 448 sent 448 (MPI_Allreduce) check 14 in 1{{$}}
// CHECK-COUNT-2: axis N=2 rank {{[0-9]}}: model 256 sent 256 (MPI_Allreduce) check 8 in 1{{$}}
// CHECK-COUNT-4: axis N=4 rank {{[0-9]}}: model 384 sent 384 (MPI_Allreduce) check 12 in 1{{$}}
// CHECK-COUNT-8: axis N=8 rank {{[0-9]}}: model 448 sent 448 (MPI_Allreduce) check 14 in 1{{$}}
// CHECK-COUNT-2: all-gather-data N=2 rank {{[0-9]}}: model 128 sent 128 (MPI_Allgatherv) check 0 in 0{{$}}
// CHECK-COUNT-4: all-gather-data N=4 rank {{[0-9]}}: model 192 sent 192 (MPI_Allgatherv) check 0 in 0{{$}}
// CHECK-COUNT-8: all-gather-data N=8 rank {{[0-9]}}: model 224 sent 224 (MPI_Allgatherv) check 0 in 0{{$}}
// CHECK-COUNT-2: all-to-all N=2 rank {{[0-9]}}: model 328 sent 328 (MPI_Allgatherv+MPI_Alltoall+MPI_Alltoallv) check 8 in 1{{$}}
// CHECK-COUNT-4: all-to-all N=4 rank {{[0-9]}}: model 360 sent 360 (MPI_Allgatherv+MPI_Alltoall+MPI_Alltoallv) check 12 in 1{{$}}
// CHECK-COUNT-8: all-to-all N=8 rank {{[0-9]}}: model 364 sent 364 (MPI_Allgatherv+MPI_Alltoall+MPI_Alltoallv) check 14 in 1{{$}}
// CHECK-NOT: MISMATCH

func.func @gather(%data: tensor<8x8xf32>, %indices: tensor<8x8xi64>) -> tensor<8x8xf32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<8x8xf32>, tensor<8x8xi64>
  return %out : tensor<8x8xf32>
}

func.func @main() {
  %d = arith.constant dense<1.5> : tensor<8x8xf32>
  %i = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7], [-7, -6, -5, -4, -3, -2, -1, -8], [2, 3, 4, 5, 6, 7, 0, 1], [-5, -4, -3, -2, -1, -8, -7, -6], [4, 5, 6, 7, 0, 1, 2, 3], [-3, -2, -1, -8, -7, -6, -5, -4], [6, 7, 0, 1, 2, 3, 4, 5], [-1, -8, -7, -6, -5, -4, -3, -2]]> : tensor<8x8xi64>
  %o = call @gather(%d, %i) : (tensor<8x8xf32>, tensor<8x8xi64>) -> tensor<8x8xf32>
  return
}
