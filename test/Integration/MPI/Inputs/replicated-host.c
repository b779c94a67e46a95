/* The host of replicated-inputs.test: every MPI process passes the whole
 * tensors to a kernel compiled with shard-io=whole, as it must; with
 * --differ, process 1 passes an index out of range at [0, 1] (7, outside
 * [-4, 3]) where process 0 passes a valid one (1): what the host must not
 * do. */
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gather-kernel-host.h"

enum { ROWS = 5, COLS = 4, K = 3 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  gatherSetErrorHandler(onError, NULL);
  float data[ROWS * COLS], out[ROWS * K];
  int64_t indices[ROWS * K];
  for (int r = 0; r < ROWS; ++r)
    for (int c = 0; c < COLS; ++c)
      data[r * COLS + c] = (float)(10 * r + c);
  for (int r = 0; r < ROWS; ++r)
    for (int k = 0; k < K; ++k)
      indices[r * K + k] = (r * 7 + k * 3) % COLS;
  indices[1] = 1;
  if (argc > 1 && !strcmp(argv[1], "--differ") && rank == 1)
    indices[1] = 7;
  MemRef2D d = {data, data, 0, {ROWS, COLS}, {COLS, 1}},
           i = {indices, indices, 0, {ROWS, K}, {K, 1}},
           o = {out, out, 0, {ROWS, K}, {K, 1}};
  _mlir_ciface_gather(&d, &i, &o);
  int ok = 1;
  for (int r = 0; r < ROWS; ++r)
    for (int k = 0; k < K; ++k)
      if (out[r * K + k] != (float)(10 * r + indices[r * K + k]))
        ok = 0;
  printf("process %d: %s\n", rank, ok ? "OK" : "MISMATCH");
  MPI_Finalize();
  return ok ? 0 : 1;
}
