// A C host that calls one collective of gather's MPI runtime
// (GatherMPIRuntime.h) with the bad argument argv[1] names: each is
// reported through the error handler and ends the job with status 1 (the
// compiler's calls never pass these; a C caller can).
#include "gather/Runtime/GatherMPIRuntime.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  gatherMPIInit(1);
  const char *what = argc > 1 ? argv[1] : "";
  float buffer[8] = {0};
  int64_t positions[2] = {0, 1};
  float result[2];
  if (!strcmp(what, "sum-count"))
    gatherMPIAllreduceSumBits(buffer, -5, 4, 0, 0, 0);
  else if (!strcmp(what, "sum-element-bytes"))
    gatherMPIAllreduceSumBits(buffer, 2, 3, 0, 0, 0);
  else if (!strcmp(what, "sum-overflow"))
    gatherMPIAllreduceSumBits(buffer, INT64_MAX / 2, 8, 0, 0, 0);
  else if (!strcmp(what, "sum-null"))
    gatherMPIAllreduceSumBits(NULL, 2, 4, 0, 0, 0);
  else if (!strcmp(what, "allgatherv-negative"))
    gatherMPIAllgatherv(buffer, 2, -4, 4, 0, 0, 0);
  else if (!strcmp(what, "allgatherv-overflow"))
    gatherMPIAllgatherv(buffer, INT64_MAX / 2, 4, 4, 0, 0, 0);
  else if (!strcmp(what, "lookup-count"))
    gatherMPIAlltoallLookup(positions, -5, result, buffer, 0, 4, 2, 4, 1, 4, 0,
                            0, 0);
  else if (!strcmp(what, "lookup-element-bytes"))
    gatherMPIAlltoallLookup(positions, 2, result, buffer, 0, 4, 2, 4, 1, -4, 0,
                            0, 0);
  else if (!strcmp(what, "lookup-zero-element-bytes"))
    gatherMPIAlltoallLookup(positions, 2, result, buffer, 0, 4, 2, 4, 1, 0, 0,
                            0, 0);
  else if (!strcmp(what, "lookup-overflow"))
    gatherMPIAlltoallLookup(positions, 2, result, buffer, 0, 4, INT64_MAX / 2,
                            4, 1, 4, 0, 0, 0);
  else if (!strcmp(what, "lookup-slab"))
    gatherMPIAlltoallLookup(positions, 2, result, buffer, 3, 4, 2, 4, 1, 4, 0,
                            0, 0);
  else if (!strcmp(what, "lookup-null"))
    gatherMPIAlltoallLookup(NULL, 2, result, buffer, 0, 4, 2, 4, 1, 4, 0, 0, 0);
  else if (!strcmp(what, "split-null"))
    gatherMPICommSplitOnce((int64_t)MPI_COMM_WORLD, 0, 0, NULL);
  else if (!strcmp(what, "lookup-huge-count"))
    // 2^40 positions: the runtime's own arrays do not fit in memory.
    gatherMPIAlltoallLookup(positions, (int64_t)1 << 40, result, buffer, 0, 4,
                            2, 4, 1, 4, 0, 0, 0);
  else if (!strcmp(what, "allgatherv-dim-over-int"))
    // 2^33 + 8 indices: more than MPI_Allgatherv's int counts hold.
    gatherMPIAllgatherv(buffer, 1, 1, ((int64_t)1 << 33) + 8, 0, 0, 0);
  else if (!strcmp(what, "split-bad-parent")) {
    int64_t slot = 0;
    gatherMPICommSplitOnce(12345, 0, 0, &slot);
  } else if (!strcmp(what, "split-negative-color")) {
    int64_t slot = 0;
    gatherMPICommSplitOnce((int64_t)MPI_COMM_WORLD, -3, 0, &slot);
  } else if (!strcmp(what, "sum-color-undefined"))
    gatherMPIAllreduceSumBits(buffer, 2, 4, 2, MPI_UNDEFINED, 0);
  else if (!strcmp(what, "exit-256"))
    gatherMPIExit(256);
  else {
    // The good calls: each works.
    gatherMPIAllreduceSumBits(buffer, 8, 4, 0, 0, 0);
    gatherMPIAlltoallLookup(positions, 2, result, buffer, 0, 4, 2, 4, 1, 4, 0,
                            0, 0);
    printf("good calls: OK\n");
  }
  printf("returned from %s\n", what);
  MPI_Finalize();
  return 0;
}
