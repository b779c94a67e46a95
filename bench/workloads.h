//===- workloads.h - The benchmark's workloads and inputs -------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The workloads (read from workloads.json) and the deterministic inputs every
// peer rebuilds bit for bit (bench/peers.py and bench/ort/bench.mjs implement
// the same formulas):
//
//   data[k]    = float(hash(k ^ 0x9e3779b9) >> 8) / 2^24       (in [0, 1))
//   indices[k] = hash(k ^ 0x85ebca6b) % s, minus s when the workload has
//                negatives and hash(k ^ 0xc2b2ae35) is odd
//
// with k the row-major position, s = data.shape[axis] and hash the 32-bit
// "lowbias32" integer hash (Chris Wellons), all arithmetic modulo 2^32.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_BENCH_WORKLOADS_H
#define GATHER_BENCH_WORKLOADS_H

#include <cstdint>
#include <string>
#include <vector>

/// What the input formulas are declared with: nothing in C++; a CUDA file
/// that fills inputs on the device (utils/gpu-check/ref-gather.cu) defines
/// it as `__host__ __device__` first.
#ifndef GATHER_WORKLOADS_FUNCTION
#define GATHER_WORKLOADS_FUNCTION
#endif

namespace bench {

/// One entry of workloads.json.
struct Workload {
  std::string name;
  std::vector<int64_t> dataShape;
  std::vector<int64_t> indicesShape;
  int64_t axis;
  bool int32Indices;
  bool negatives;
  /// Our kernel is compiled with every size dynamic (`?`).
  bool dynamic = false;
};

GATHER_WORKLOADS_FUNCTION inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

inline int64_t numElements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t size : shape)
    n *= size;
  return n;
}

GATHER_WORKLOADS_FUNCTION inline float dataValue(int64_t k) {
  return static_cast<float>(hash32(static_cast<uint32_t>(k) ^ 0x9e3779b9U) >>
                            8) /
         16777216.0f;
}

GATHER_WORKLOADS_FUNCTION inline int64_t indexValue(int64_t k, int64_t axisSize,
                                                    bool negatives) {
  auto u = static_cast<uint32_t>(k);
  int64_t index = hash32(u ^ 0x85ebca6bU) % static_cast<uint32_t>(axisSize);
  if (negatives && (hash32(u ^ 0xc2b2ae35U) & 1))
    index -= axisSize;
  return index;
}

} // namespace bench

#endif // GATHER_BENCH_WORKLOADS_H
