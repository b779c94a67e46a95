// REQUIRES: jit, mpi
// A partitioned gather run 3,001 times in one process (a loop; a host that
// calls a kernel as often does the same): each collective over a group of
// processes used to make a new MPI communicator per run and never free it,
// and MPICH fails after about 2,000 ("Too many communicators"). Each site
// now makes its communicator once (gather-shard-cache-communicators). Each
// run rotates row 0 left and row 1 right by one: 3,001 runs rotate by one.
// RUN: timeout 300 %mpirun -np 2 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=2' | FileCheck %s
// RUN: timeout 300 %mpirun -np 2 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=2 shard-dim=1' | FileCheck %s
// RUN: timeout 300 %mpirun -np 2 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=2 shard-dim=1 shard-axis-scheme=all-to-all' | FileCheck %s
// CHECK: result 0: tensor<2x4xf32> = {{\[}}[2, 3, 4, 1], [8, 5, 6, 7]]
// CHECK-NOT: error

func.func @main() -> tensor<2x4xf32> {
  %d = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %i = arith.constant dense<[[1, 2, 3, 0], [3, 0, 1, 2]]> : tensor<2x4xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %runs = arith.constant 3001 : index
  %r = scf.for %k = %c0 to %runs step %c1 iter_args(%x = %d) -> (tensor<2x4xf32>) {
    %y = onnx.GatherElements %x, %i axis = 1 : tensor<2x4xf32>, tensor<2x4xi64>
    scf.yield %y : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}
