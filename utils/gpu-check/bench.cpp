//===- bench.cpp - The GPU check's benchmark ------------------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The benchmark of gather's GPU check (docs/GPU.md, "Checking on a GPU"):
// compiled by utils/gpu-check.sh with the kernels of bench.py (bench.h: for
// each workload of bench/workloads.json one kernel with host memory and one
// with device memory). For each workload it builds the inputs of
// bench/workloads.h, checks both kernels' results bit for bit against a
// gather in C++, and times whole calls: host memory (copies in and out
// included) and device memory (inputs already on the device; the result's
// allocation included), then the same number of calls again with the
// runtime's kernel timing on (gatherCUDATimeKernels: CUDA events around
// each launch), for the GPU time of the kernel alone. One line per workload
// and mode:
//   <name> <host|device> <ms per call> <calls> <ok|MISMATCH> <kernel ms>
//
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

typedef void (*Function)(int64_t *result, int64_t *data, int64_t *indices);
typedef struct {
  const char *name;
  Function host, device;
  int64_t rank, dataShape[3], indicesShape[3], axis, int32Indices, negatives;
} Workload;

#include "aot.h"
#include "bench.h"
#include "workloads.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void release(int64_t *result, int onDevice) {
  if (onDevice)
    mgpuMemFree((void *)(intptr_t)result[0], nullptr);
  else
    free((void *)(intptr_t)result[0]);
}

/// Calls `function` (after one warm-up call) until 0.5 s passed, at least 3
/// and at most 200 times; ms per call. The last result stays in `result`
/// (the caller frees it); the frees of the others are timed too.
static double timeCalls(Function function, int64_t *data, int64_t *indices,
                        int64_t *result, int onDevice, int *calls) {
  function(result, data, indices);
  release(result, onDevice);
  double start = now(), elapsed;
  for (*calls = 0;;) {
    function(result, data, indices);
    ++*calls;
    elapsed = now() - start;
    if (*calls >= 3 && (elapsed >= 0.5 || *calls >= 200))
      break;
    release(result, onDevice);
  }
  return elapsed * 1e3 / *calls;
}

/// The GPU time of `function`'s kernels per call over `calls` calls (the
/// runtime's timing events; the calls' results freed).
static double timeKernels(Function function, int64_t *data, int64_t *indices,
                          int64_t *result, int onDevice, int calls) {
  gatherCUDATimeKernels(1);
  (void)gatherCUDAGetKernelMilliseconds();
  for (int call = 0; call < calls; ++call) {
    function(result, data, indices);
    release(result, onDevice);
  }
  double ms = gatherCUDAGetKernelMilliseconds();
  gatherCUDATimeKernels(0);
  return ms < 0 ? ms : ms / calls;
}

int main(int argc, char **argv) {
  const char *only = argc > 1 ? argv[1] : nullptr;
  for (size_t w = 0; w < sizeof(kWorkloads) / sizeof(kWorkloads[0]); ++w) {
    const Workload *load = &kWorkloads[w];
    if (only && strcmp(only, load->name) != 0)
      continue;
    int64_t rank = load->rank, dataCount = 1, count = 1;
    for (int64_t d = 0; d < rank; ++d) {
      dataCount *= load->dataShape[d];
      count *= load->indicesShape[d];
    }
    int64_t indexSize = load->int32Indices ? 4 : 8;
    auto *data = static_cast<float *>(malloc(dataCount * 4));
    auto *expected = static_cast<float *>(malloc(count * 4));
    auto *indices = static_cast<char *>(malloc(count * indexSize));
    int64_t axisSize = load->dataShape[load->axis];
    for (int64_t k = 0; k < dataCount; ++k)
      data[k] = bench::dataValue(k);
    int64_t strides[3], indexStrides[3];
    strides[rank - 1] = indexStrides[rank - 1] = 1;
    for (int64_t d = rank - 2; d >= 0; --d) {
      strides[d] = strides[d + 1] * load->dataShape[d + 1];
      indexStrides[d] = indexStrides[d + 1] * load->indicesShape[d + 1];
    }
    for (int64_t k = 0; k < count; ++k) {
      int64_t index = bench::indexValue(k, axisSize, load->negatives);
      if (load->int32Indices)
        ((int32_t *)indices)[k] = (int32_t)index;
      else
        ((int64_t *)indices)[k] = index;
      // The reference: the element at k's coordinates, the axis replaced.
      int64_t offset = 0, rest = k;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t coordinate = rest / indexStrides[d];
        rest %= indexStrides[d];
        if (d == load->axis)
          coordinate = index < 0 ? index + axisSize : index;
        offset += coordinate * strides[d];
      }
      expected[k] = data[offset];
    }
    int64_t dataMemRef[9], indicesMemRef[9], result[9];
    int calls = 0;
    // Host memory.
    describeMemRef(dataMemRef, data, load->dataShape, rank);
    describeMemRef(indicesMemRef, indices, load->indicesShape, rank);
    double ms =
        timeCalls(load->host, dataMemRef, indicesMemRef, result, 0, &calls);
    int ok = memcmp((void *)(intptr_t)result[1], expected, count * 4) == 0;
    free((void *)(intptr_t)result[0]);
    double kernelMs =
        timeKernels(load->host, dataMemRef, indicesMemRef, result, 0, calls);
    printf("%s host %.4f %d %s %.4f\n", load->name, ms, calls,
           ok ? "ok" : "MISMATCH", kernelMs);
    fflush(stdout);
    // Device memory.
    void *deviceData = mgpuMemAlloc(dataCount * 4, nullptr, 0);
    void *deviceIndices = mgpuMemAlloc(count * indexSize, nullptr, 0);
    copyAndWait(deviceData, data, dataCount * 4);
    copyAndWait(deviceIndices, indices, count * indexSize);
    describeMemRef(dataMemRef, deviceData, load->dataShape, rank);
    describeMemRef(indicesMemRef, deviceIndices, load->indicesShape, rank);
    ms = timeCalls(load->device, dataMemRef, indicesMemRef, result, 1, &calls);
    auto *back = static_cast<float *>(malloc(count * 4));
    copyAndWait(back, (void *)(intptr_t)result[1], count * 4);
    ok = memcmp(back, expected, count * 4) == 0;
    mgpuMemFree((void *)(intptr_t)result[0], nullptr);
    kernelMs =
        timeKernels(load->device, dataMemRef, indicesMemRef, result, 1, calls);
    mgpuMemFree(deviceData, nullptr);
    mgpuMemFree(deviceIndices, nullptr);
    printf("%s device %.4f %d %s %.4f\n", load->name, ms, calls,
           ok ? "ok" : "MISMATCH", kernelMs);
    fflush(stdout);
    free(back);
    free(data);
    free(expected);
    free(indices);
  }
  return 0;
}
