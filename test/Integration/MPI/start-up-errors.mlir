// REQUIRES: jit, mpi
// A start-up error on one rank ends every rank with status 1: gather-runner
// initializes MPI first, and every rank takes part in one start-up verdict
// (gatherMPIAgreeToRun) before the code runs. Each case misconfigures one
// rank of an MPMD launch (`-np 1 ... : -np 1 ...`) and runs under `timeout`:
// before, the other rank waited in MPI_Init forever.
// RUN: sh -c "timeout 60 %mpirun -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' : -np 1 env OMP_NUM_THREADS=abc gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,THREADS
// THREADS-DAG: error: OMP_NUM_THREADS='abc' is invalid
// RUN: sh -c "timeout 60 %mpirun -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' : -np 1 env OMP_STACKSIZE=64G gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,STACK
// STACK-DAG: error: OMP_STACKSIZE='64G' is invalid
// RUN: sh -c "timeout 60 %mpirun -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' : -np 1 env OMP_THREAD_LIMIT=0 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,LIMIT
// LIMIT-DAG: error: OMP_THREAD_LIMIT='0' is invalid
// RUN: sh -c "timeout 60 %mpirun -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' : -np 1 gather-runner %s -e missing --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,ENTRY
// ENTRY-DAG: error: no function 'missing' to run (-e missing)
// RUN: sh -c "timeout 60 %mpirun -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' : -np 1 gather-runner %t.missing.mlir -e main --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,FILE
// FILE-DAG: cannot open input file '{{.*}}missing.mlir': No such file or directory
// CHECK-DAG: error: MPI rank 1 failed to start (its error is above): rank 0 stops too
// CHECK-NOT: result
// CHECK: exit status 1

// shard-grid given to one rank only (either): a partition plan that differs
// is an error on every rank.
// RUN: sh -c "timeout 60 %mpirun -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' : -np 1 gather-runner %s -e main --entry-point-result=void 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=PLAN,GRID-ON-0
// RUN: sh -c "timeout 60 %mpirun -np 1 gather-runner %s -e main --entry-point-result=void : -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=PLAN,GRID-ON-1
// GRID-ON-0-COUNT-2: error: the MPI ranks were started with different partition plans: rank 0: shard-grid=2 shard-dim=-1 program [[P:[0-9a-f]+]]; rank 1: shard-grid=0 shard-dim=-1 program [[P]]; start every rank with the same input, entry and --pipeline-options
// GRID-ON-1-COUNT-2: error: the MPI ranks were started with different partition plans: rank 0: shard-grid=0 shard-dim=-1 program [[P:[0-9a-f]+]]; rank 1: shard-grid=2 shard-dim=-1 program [[P]]; start every rank
// An MPMD launch with different shard-dim (before: rank 0 printed the sum of
// unrelated elements' bit patterns, exit status 0).
// RUN: sh -c "timeout 60 %mpirun -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-dim=0' : -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-dim=1' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=PLAN,DIM
// DIM-COUNT-2: error: the MPI ranks were started with different partition plans: rank 0: shard-grid=2 shard-dim=0 program [[P:[0-9a-f]+]]; rank 1: shard-grid=2 shard-dim=1 program [[P]]; start every rank
// Different programs (another axis) with the same options.
// RUN: sed 's/axis = 1/axis = 0/' %s > %t.axis0.mlir
// RUN: sh -c "timeout 60 %mpirun -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' : -np 1 gather-runner %t.axis0.mlir -e main --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=PLAN,PROGRAM
// PROGRAM-COUNT-2: error: the MPI ranks were started with different partition plans: rank 0: shard-grid=2 shard-dim=-1 program [[P:[0-9a-f]+]]; rank 1: shard-grid=2 shard-dim=-1 program {{[0-9a-f]+}}; start every rank
// Options that decide the collectives (shard-assembly, runtime-checks) are
// part of the plan: ranks that differ in them would wait in different
// collectives.
// RUN: sh -c "timeout 60 %mpirun -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-assembly=all-gather' : -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-assembly=all-reduce' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=PLAN,PROGRAM
// RUN: sh -c "timeout 60 %mpirun -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' : -np 1 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 runtime-checks=false' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=PLAN,PROGRAM
// PLAN-NOT: result
// PLAN: exit status 1

func.func @gather(%data: tensor<2x2xf32>, %indices: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<2x2xf32>, tensor<2x2xi64>
  return %out : tensor<2x2xf32>
}

func.func @main() -> tensor<2x2xf32> {
  %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %o = call @gather(%d, %i) : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return %o : tensor<2x2xf32>
}
