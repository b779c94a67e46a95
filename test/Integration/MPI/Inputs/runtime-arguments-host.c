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
