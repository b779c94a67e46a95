//===- GatherMPIRuntime.cpp - MPI support for sharded code ----------------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//

#include "gather/Runtime/GatherMPIRuntime.h"
#include "RuntimeInternal.h"
#include "gather/Runtime/GatherRuntime.h"

#include <mpi.h>

#include <cstdlib>
#include <string>

static void finalizeMPI() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}

/// Prints the message, then ends this process like every other one: MPI
/// finalized, exit status 1.
static void mpiErrorHandler(const char *message, void *) {
  gatherPrintMessageAndExit(message, finalizeMPI);
}

extern "C" void gatherMPIInit(int64_t numProcesses) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    MPI_Init(nullptr, nullptr);
    std::atexit(finalizeMPI);
    gatherSetErrorHandler(mpiErrorHandler, nullptr);
  }
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != numProcesses)
    gather::runtime::reportMessage(
        "onnx.GatherElements: the code was partitioned for " +
        std::to_string(numProcesses) +
        " processes (shard-grid), but the MPI job has " + std::to_string(size) +
        "; run it with mpirun -np " + std::to_string(numProcesses));
}
