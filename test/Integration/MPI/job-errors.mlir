// REQUIRES: jit, mpi
// shard-grid=N needs an MPI job of N processes.
// RUN: not gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1 | FileCheck %s --check-prefix=NO-JOB
// NO-JOB: error: shard-grid=2 runs on 2 MPI processes: start it with mpirun -np 2 gather-runner ...
// RUN: not %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=4' 2>&1 | FileCheck %s --check-prefix=WRONG-SIZE
// WRONG-SIZE-COUNT-2: error: shard-grid=4, but the MPI job has 2 processes: run it with mpirun -np 4
// RUN: not %mpirun -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: error: shard-grid=2, but the MPI job has 1 process: run it with mpirun -np 2
// Compiled code run by another host checks the job too (gatherMPIInit).
// RUN: gather-opt %s --onnx-to-llvm='shard-grid=2' -o %t.ll.mlir
// RUN: not %mpirun -np 1 gather-runner %t.ll.mlir -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=HOST
// HOST: error: onnx.GatherElements: the code was partitioned for 2 processes (shard-grid), but the MPI job has 1; run it with mpirun -np 2

func.func @gather(%data: tensor<2x2xf32>, %indices: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<2x2xf32>, tensor<2x2xi64>
  return %out : tensor<2x2xf32>
}

func.func @main() {
  %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %o = call @gather(%d, %i) : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return
}
