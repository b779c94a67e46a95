/* What the C hosts of split-host.test and replicated-inputs.test share:
 * the kernel `gather` (2-D memrefs of data, indices and the result) and
 * gather's runtime functions they call (GatherRuntime.h,
 * GatherMPIRuntime.h), declared as a C host without gather's headers
 * would. */
#ifndef GATHER_TEST_MPI_GATHER_KERNEL_HOST_H
#define GATHER_TEST_MPI_GATHER_KERNEL_HOST_H

#include <stdint.h>
#include <stdio.h>

typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} MemRef2D;

void _mlir_ciface_gather(MemRef2D *data, MemRef2D *indices, MemRef2D *out);

typedef void (*GatherErrorHandler)(const char *message, void *userData);
void gatherSetErrorHandler(GatherErrorHandler handler, void *userData);
void gatherMPIExit(int status);

/* Errors of the compiled code reach every process alike (index errors, a
 * slab of the wrong size): each prints and ends with MPI finalized, so that
 * the launcher kills none before it has printed. */
static void onError(const char *message, void *userData) {
  (void)userData;
  fprintf(stderr, "%s\n", message);
  gatherMPIExit(1);
}

/* A handler that only prints: the runtime still ends the process where the
 * code cannot go on, and ends it as the MPI runtime ends a job. */
static void onErrorReturn(const char *message, void *userData) {
  (void)userData;
  fprintf(stderr, "%s\n", message);
}

#endif
