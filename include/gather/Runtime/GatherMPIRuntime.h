//===- GatherMPIRuntime.h - MPI support for sharded code --------*- C++ -*-===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// libgather_mpi_runtime.so (built when MPICH is found; links libmpich and
// libgather_runtime): what code compiled with `onnx-to-llvm{shard-grid=N}`
// calls besides MPI itself. gather-runner and the JIT kernel API
// (GatherExecutionEngine) link it; other hosts link it with their MPI program
// (`mpicc.mpich ... -lgather_mpi_runtime`).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIME_GATHERMPIRUNTIME_H
#define GATHER_RUNTIME_GATHERMPIRUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Called at the entry of every compiled function that communicates, with
/// the number of processes of its grid. Initializes MPI unless the host has
/// (MPI_Init; MPI_Finalize then runs at exit), and reports an error
/// (gatherReport..., GatherRuntime.h) unless MPI_COMM_WORLD has exactly
/// `numProcesses` processes. The first call also installs an error handler
/// that, after printing the message, finalizes MPI and exits with status 1:
/// every process reaches an error together (errors are combined across
/// processes), so all of them end with status 1 and none is killed.
void gatherMPIInit(int64_t numProcesses);

#ifdef __cplusplus
}
#endif

#endif // GATHER_RUNTIME_GATHERMPIRUNTIME_H
