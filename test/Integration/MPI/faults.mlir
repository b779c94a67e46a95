// REQUIRES: jit, mpi
// UNSUPPORTED: asan
// A process that fails in the middle of a call (test/lib/MPITraffic injects
// the fault on entering a collective, while the others wait in it) never
// leaves the others waiting: MPICH's launcher ends the job when a process is
// killed or exits without MPI_Finalize, with that process's status; an error
// of one process alone reported through gather's runtime ends the job with
// MPI_Abort after a bounded wait (10 s) for the others. Every run is under
// `timeout` (status 124 would fail the check) and prints no result.
// (MPICH's own line for MPI_Abort, "application called MPI_Abort", is not
// checked: MPI_Abort prints it as it ends the job, and the launcher does not
// always forward it first; the status of the job is checked.)
// RUN: sh -c "timeout 60 %mpirun -np 2 -genv LD_PRELOAD %mpi_traffic -genv GATHER_MPI_FAULT 1:MPI_Allgatherv:kill gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,KILL
// RUN: sh -c "timeout 60 %mpirun -np 3 -genv LD_PRELOAD %mpi_traffic -genv GATHER_MPI_FAULT 2:MPI_Allreduce:kill gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=3 shard-dim=1' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,KILL
// RUN: sh -c "timeout 60 %mpirun -np 2 -genv LD_PRELOAD %mpi_traffic -genv GATHER_MPI_FAULT 0:MPI_Allgatherv:_exit gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,EXIT
// RUN: sh -c "timeout 60 %mpirun -np 2 -genv LD_PRELOAD %mpi_traffic -genv GATHER_MPI_FAULT 1:MPI_Allreduce:abort gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-assembly=all-reduce' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,ABORT
// RUN: sh -c "timeout 60 %mpirun -np 2 -genv LD_PRELOAD %mpi_traffic -genv GATHER_MPI_FAULT 1:MPI_Allgatherv:report gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,REPORT

// CHECK-NOT: result
// KILL: GATHER_MPI_FAULT: rank {{[12]}} fails (kill) in MPI_{{Allgatherv|Allreduce}}
// KILL: BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES
// KILL: exit status 9
// EXIT: GATHER_MPI_FAULT: rank 0 fails (_exit) in MPI_Allgatherv
// EXIT: exit status 3
// ABORT: GATHER_MPI_FAULT: rank 1 fails (abort) in MPI_Allreduce
// ABORT: exit status 3
// REPORT: GATHER_MPI_FAULT: rank 1 fails (report) in MPI_Allgatherv
// REPORT-NEXT: error: an error of this process alone, in MPI_Allgatherv
// REPORT-NEXT: error: MPI rank 1 stopped on the error above, the other ranks did not within 10 s: the job ends (MPI_Abort)
// REPORT: exit status 1
// CHECK-NOT: result

func.func @gather(%data: tensor<4x4xf32>, %indices: tensor<4x2xi64>) -> tensor<4x2xf32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<4x4xf32>, tensor<4x2xi64>
  return %out : tensor<4x2xf32>
}

func.func @main() -> tensor<4x2xf32> {
  %d = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]> : tensor<4x4xf32>
  %i = arith.constant dense<[[0, 1], [2, -3], [1, 1], [3, -4]]> : tensor<4x2xi64>
  %o = call @gather(%d, %i) : (tensor<4x4xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return %o : tensor<4x2xf32>
}
