// A C host of gatherMPIAlltoallLookup (GatherMPIRuntime.h): `data` of
// [2, 4, 3] floats (element p holds p) split along its axis of 4 over 2
// processes; each process holds only its slab ([2, 2, 3]) and asks for
// every position of the whole `data` (process 1 in reverse order), then
// checks the values. --bad-position: process 0 also asks for position 24
// (outside `data`); --short-slab: process 1 says its slab holds one index
// of the axis, not its two; --short-slab-no-init: the same in a host that
// never calls gatherMPIInit.
#include "gather/Runtime/GatherMPIRuntime.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int noInit = argc > 1 && strcmp(argv[1], "--short-slab-no-init") == 0;
  if (!noInit)
    gatherMPIInit(2);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int badPosition = argc > 1 && strcmp(argv[1], "--bad-position") == 0;
  int shortSlab = noInit || (argc > 1 && strcmp(argv[1], "--short-slab") == 0);
  enum { kOuter = 2, kAxis = 4, kInner = 3, kWhole = kOuter * kAxis * kInner };
  // This process's slab: indices [2 * rank, 2 * rank + 2) of the axis.
  float slab[kOuter][2][kInner];
  for (int o = 0; o < kOuter; ++o)
    for (int k = 0; k < 2; ++k)
      for (int i = 0; i < kInner; ++i)
        slab[o][k][i] = (float)((o * kAxis + 2 * rank + k) * kInner + i);
  int64_t positions[kWhole + 1];
  float values[kWhole + 1];
  int64_t count = kWhole;
  for (int64_t p = 0; p < kWhole; ++p)
    positions[p] = rank == 0 ? p : kWhole - 1 - p;
  if (badPosition && rank == 0)
    positions[count++] = kWhole;
  gatherMPIAlltoallLookup(positions, count, values, slab, 2 * rank,
                          shortSlab && rank == 1 ? 1 : 2, kOuter, kAxis, kInner,
                          sizeof(float), 0, 0, 0);
  int ok = 1;
  for (int64_t p = 0; p < count; ++p)
    ok = ok && values[p] == (float)positions[p];
  printf("process %d: %d values %s\n", rank, (int)count, ok ? "OK" : "WRONG");
  MPI_Finalize();
  return 0;
}
