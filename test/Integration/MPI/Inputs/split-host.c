/* The host of split-host.test: each MPI process passes only its slabs (its
 * block of rows, gather/Runtime/ShardBlocks.h) of data, indices and the
 * destination to a kernel compiled with shard-io=split, and checks them
 * against the gather computed on the whole tensors. With --wrong-slab,
 * process 1 passes one row of data too many; with --skip-on-1, process 1
 * never calls the kernel (it finalizes MPI); with --twice-on-0, process 0
 * calls it a second time, alone. With --wrong-slab-returning, the wrong
 * slab with an error handler that only prints and returns. With
 * --exit0-on-1, process 0 calls the kernel again while process 1 ends with
 * gatherMPIExit(0). With --overlap-on-0, process 0 calls the kernel on a
 * second thread while its first call waits for process 1, which comes 2 s
 * late. */
#include <mpi.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gather-kernel-host.h"

enum { ROWS = 5, COLS = 4, K = 3 };

/* ShardBlocks::offset: the first row of process `rank` of `processes`. */
static int64_t blockOffset(int64_t size, int64_t processes, int64_t rank) {
  int64_t quotient = size / processes, remainder = size % processes;
  return rank * quotient + (rank < remainder ? rank : remainder);
}

static MemRef2D descriptor(void *base, int64_t rows, int64_t cols) {
  MemRef2D d = {base, base, 0, {rows, cols}, {cols, 1}};
  return d;
}

/* The kernel's operands, for the call on a second thread. */
static MemRef2D d, i, o;
static void *callKernel(void *unused) {
  (void)unused;
  _mlir_ciface_gather(&d, &i, &o);
  return NULL;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, processes = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &processes);
  int returning = argc > 1 && !strcmp(argv[1], "--wrong-slab-returning");
  gatherSetErrorHandler(returning ? onErrorReturn : onError, NULL);
  int wrong = argc > 1 && (!strcmp(argv[1], "--wrong-slab") || returning);
  int skip = argc > 1 && !strcmp(argv[1], "--skip-on-1") && rank == 1;
  int exit0 = argc > 1 && !strcmp(argv[1], "--exit0-on-1");
  int twice =
      argc > 1 && (!strcmp(argv[1], "--twice-on-0") || exit0) && rank == 0;
  int overlap = argc > 1 && !strcmp(argv[1], "--overlap-on-0");
  int64_t lo = blockOffset(ROWS, processes, rank);
  int64_t count = blockOffset(ROWS, processes, rank + 1) - lo;
  int64_t dataRows = count + (wrong && rank == 1);
  /* Only the slabs: the whole tensors are only generated, row by row. */
  float *data = malloc(sizeof(float) * (dataRows + 1) * COLS);
  int64_t *indices = malloc(sizeof(int64_t) * (count + 1) * K);
  float *out = malloc(sizeof(float) * (count + 1) * K);
  for (int64_t r = 0; r < dataRows; ++r)
    for (int64_t c = 0; c < COLS; ++c)
      data[r * COLS + c] = (float)(10 * (lo + r) + c);
  for (int64_t r = 0; r < count; ++r)
    for (int64_t k = 0; k < K; ++k)
      indices[r * K + k] = ((lo + r) * 7 + k * 3) % COLS - (k == 1 ? COLS : 0);
  d = descriptor(data, dataRows, COLS);
  i = descriptor(indices, count, K);
  o = descriptor(out, count, K);
  if (skip) {
    printf("process 1 does not call the kernel\n");
    fflush(stdout);
  } else if (overlap && rank == 0) {
    pthread_t thread;
    pthread_create(&thread, NULL, callKernel, NULL);
    usleep(500 * 1000);
    _mlir_ciface_gather(&d, &i, &o);
    pthread_join(thread, NULL);
  } else {
    if (overlap)
      sleep(2);
    _mlir_ciface_gather(&d, &i, &o);
  }
  if (exit0 && rank == 1) {
    printf("process 1 ends with gatherMPIExit(0)\n");
    fflush(stdout);
    gatherMPIExit(0);
  }
  if (twice) {
    printf("process 0 calls the kernel again\n");
    fflush(stdout);
    _mlir_ciface_gather(&d, &i, &o);
  }
  int ok = 1;
  for (int64_t r = 0; r < count && !skip; ++r)
    for (int64_t k = 0; k < K; ++k) {
      int64_t n = indices[r * K + k];
      float expected = (float)(10 * (lo + r) + (n < 0 ? n + COLS : n));
      if (out[r * K + k] != expected)
        ok = 0;
    }
  if (!skip)
    printf("process %d rows [%lld, %lld): %s\n", rank, (long long)lo,
           (long long)(lo + count), ok ? "OK" : "MISMATCH");
  free(data);
  free(indices);
  free(out);
  MPI_Finalize();
  return ok ? 0 : 1;
}
