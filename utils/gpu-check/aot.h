//===- aot.h - What the GPU check's programs share --------------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The host side of the GPU check's ahead-of-time programs (cases.c,
// bench.cpp): the functions of gather's CUDA runtime they call
// (GatherCUDARuntime.h declares the same), a synchronous copy, and memref
// descriptors as int64 words, the layout of a row-major
// `StridedMemRefType` of any rank.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_UTILS_GPU_CHECK_AOT_H
#define GATHER_UTILS_GPU_CHECK_AOT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
void *mgpuMemAlloc(uint64_t bytes, void *stream, uint8_t isHostShared);
void mgpuMemFree(void *pointer, void *stream);
void mgpuMemcpy(void *destination, const void *source, uint64_t bytes,
                void *stream);
void *mgpuStreamCreate(void);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamDestroy(void *stream);
void gatherCUDATimeKernels(int enable);
double gatherCUDAGetKernelMilliseconds(void);
#ifdef __cplusplus
}
#endif

/// `bytes` from `source` to `destination` (host or device), finished.
static inline void copyAndWait(void *destination, const void *source,
                               uint64_t bytes) {
  void *stream = mgpuStreamCreate();
  mgpuMemcpy(destination, source, bytes, stream);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
}

/// A row-major memref descriptor of rank `rank` over `buffer`, as int64
/// words: allocated, aligned, offset, sizes, strides (3 + 2 * rank words).
static inline void describeMemRef(int64_t *memref, void *buffer,
                                  const int64_t *sizes, int64_t rank) {
  memref[0] = memref[1] = (int64_t)(intptr_t)buffer;
  memref[2] = 0;
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    memref[3 + d] = sizes[d];
    memref[3 + rank + d] = stride;
    stride *= sizes[d];
  }
}

#endif // GATHER_UTILS_GPU_CHECK_AOT_H
