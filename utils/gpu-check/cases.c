//===- cases.c - The GPU check's differential case runner -----------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The case runner of gather's GPU check (docs/GPU.md, "Checking on a GPU"):
// compiled by utils/gpu-check.sh with the kernels of cases.py (their table,
// cases.h) for the GPU with host memory (-DCASES_MEMORY=0), the GPU with
// device memory (-DCASES_MEMORY=1) or the CPU (host memory).
//
//   cases IN OUT
//
// IN holds records, little-endian: the kernel's number (i64), the data's
// and the indices' sizes (i64 each), the data's elements, the indices'.
// Each is run once; OUT gets, per record, the result's sizes (i64 each) and
// elements. A run-time error of a kernel (a bad index) is reported by
// gather's default handler: its located lines, exit status 1.
//
//===----------------------------------------------------------------------===//
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  void (*function)(int64_t *result, int64_t *data, int64_t *indices);
  int64_t rank, elementSize, indexSize;
} Kernel;

#include "aot.h"
#include "cases.h"

static void fail(const char *what) {
  fprintf(stderr, "cases: %s\n", what);
  exit(2);
}

static void readAll(FILE *in, void *buffer, size_t bytes) {
  if (bytes && fread(buffer, 1, bytes, in) != bytes)
    fail("truncated input");
}

/// A buffer of `bytes` where the kernels read it: on the device with device
/// memory, else the host buffer itself.
static void *place(void *host, uint64_t bytes) {
#if CASES_MEMORY
  void *device = bytes ? mgpuMemAlloc(bytes, NULL, 0) : NULL;
  if (bytes)
    copyAndWait(device, host, bytes);
  return device;
#else
  (void)bytes;
  return host;
#endif
}

int main(int argc, char **argv) {
  if (argc != 3)
    fail("usage: cases IN OUT");
  FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "wb");
  if (!in || !out)
    fail("cannot open the files");
  int64_t number;
  int64_t kernels = sizeof(kKernels) / sizeof(kKernels[0]);
  while (fread(&number, sizeof(number), 1, in) == 1) {
    if (number < 0 || number >= kernels)
      fail("no such kernel");
    const Kernel *kernel = &kKernels[number];
    int64_t rank = kernel->rank, sizes[10], dataCount = 1, indicesCount = 1;
    readAll(in, sizes, sizeof(int64_t) * 2 * rank);
    for (int64_t d = 0; d < rank; ++d) {
      dataCount *= sizes[d];
      indicesCount *= sizes[rank + d];
    }
    uint64_t dataBytes = dataCount * kernel->elementSize;
    uint64_t indicesBytes = indicesCount * kernel->indexSize;
    uint64_t resultBytes = indicesCount * kernel->elementSize;
    // (One byte more: no zero-size malloc.)
    char *data = malloc(dataBytes + 1), *indices = malloc(indicesBytes + 1);
    char *result = malloc(resultBytes + 1);
    if (!data || !indices || !result)
      fail("out of memory");
    readAll(in, data, dataBytes);
    readAll(in, indices, indicesBytes);
    void *dataThere = place(data, dataBytes);
    void *indicesThere = place(indices, indicesBytes);
    int64_t dataMemRef[23], indicesMemRef[23], resultMemRef[23];
    describeMemRef(dataMemRef, dataThere, sizes, rank);
    describeMemRef(indicesMemRef, indicesThere, sizes + rank, rank);
    kernel->function(resultMemRef, dataMemRef, indicesMemRef);
    char *elements = (char *)(intptr_t)resultMemRef[1] +
                     resultMemRef[2] * kernel->elementSize;
#if CASES_MEMORY
    if (resultBytes)
      copyAndWait(result, elements, resultBytes);
    mgpuMemFree((void *)(intptr_t)resultMemRef[0], NULL);
    mgpuMemFree(dataThere, NULL);
    mgpuMemFree(indicesThere, NULL);
#else
    if (resultBytes)
      memcpy(result, elements, resultBytes);
    free((void *)(intptr_t)resultMemRef[0]);
#endif
    fwrite(resultMemRef + 3, sizeof(int64_t), rank, out);
    fwrite(result, 1, resultBytes, out);
    free(data);
    free(indices);
    free(result);
  }
  return fclose(out) == 0 ? 0 : 2;
}
