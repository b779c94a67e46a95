/*===- floor.c - The memory floor: the gather's bytes, streamed ------------===*
 *
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Part of the gather project. Compiled with -O3 -march=native -fopenmp.
 *
 * A kernel that moves the bytes a gather must move, with no gather: it reads
 * `count` index values and `dataCount` data elements front to back and writes
 * `count` results,
 *
 *   out[t] = data[t] + (float)indices[t]    for t < min(count, dataCount)
 *   out[t] = (float)indices[t]              for dataCount <= t < count
 *
 * and folds data[t] for count <= t < dataCount into gatherFloorSink (so that
 * those reads stay). The benchmark passes as `dataCount` the elements of the
 * 64-byte lines of `data` that the workload's indices touch: a gather cannot
 * move fewer bytes than that, and streaming them is the fastest way to move
 * them. The time of this kernel is the floor our kernel is measured against.
 *
 *   void gatherFloor_I64(const float *data, int64_t dataCount,
 *                        const int64_t *indices, float *out, int64_t count,
 *                        int threads);
 *   void gatherFloor_I32(...);   (int32_t indices)
 *
 * `threads` > 1 splits the elements into contiguous blocks on that many
 * OpenMP threads.
 *===----------------------------------------------------------------------===*/

#include <stdint.h>
#include <string.h>

/* A pragma written as tokens, which can be broken over lines (a string
   literal cannot). */
#define GATHER_PRAGMA(TOKENS) _Pragma(#TOKENS)

/* Read by nobody: keeps the data reads past `count` live. */
volatile uint32_t gatherFloorSink;

/* Elements per block of work (a static schedule gives each thread a
   contiguous run of blocks). */
enum { kFloorBlock = 1 << 14 };

static inline uint32_t xorBits(const float *restrict data, int64_t n) {
  uint32_t acc = 0;
  for (int64_t t = 0; t < n; ++t) {
    uint32_t bits;
    memcpy(&bits, &data[t], sizeof bits);
    acc ^= bits;
  }
  return acc;
}

/* clang-format off */
#define GATHER_FLOOR(SUFFIX, INDEX)                                            \
  static inline void both##SUFFIX(const float *restrict data,                  \
                                  const INDEX *restrict indices,               \
                                  float *restrict out, int64_t n) {            \
    for (int64_t t = 0; t < n; ++t)                                            \
      out[t] = data[t] + (float)indices[t];                                    \
  }                                                                            \
  static inline void indicesOnly##SUFFIX(const INDEX *restrict indices,        \
                                         float *restrict out, int64_t n) {     \
    for (int64_t t = 0; t < n; ++t)                                            \
      out[t] = (float)indices[t];                                              \
  }                                                                            \
  /* Blocks [first, last) of the elements. */                                 \
  static inline uint32_t blocks##SUFFIX(                                       \
      const float *restrict data, int64_t dataCount,                           \
      const INDEX *restrict indices, float *restrict out, int64_t count,       \
      int64_t first, int64_t last) {                                           \
    int64_t shared = dataCount < count ? dataCount : count;                    \
    int64_t total = dataCount > count ? dataCount : count;                     \
    uint32_t acc = 0;                                                          \
    for (int64_t b = first; b < last; ++b) {                                   \
      int64_t lo = b * kFloorBlock;                                            \
      int64_t hi = lo + kFloorBlock < total ? lo + kFloorBlock : total;        \
      int64_t mid = hi < shared ? hi : shared;                                 \
      int64_t rest = lo > shared ? lo : shared;                                \
      if (lo < mid)                                                            \
        both##SUFFIX(data + lo, indices + lo, out + lo, mid - lo);             \
      if (rest < hi && count > shared)                                         \
        indicesOnly##SUFFIX(indices + rest, out + rest,                        \
                            (hi < count ? hi : count) - rest);                 \
      if (rest < hi && dataCount > shared)                                     \
        acc ^= xorBits(data + rest, (hi < dataCount ? hi : dataCount) - rest); \
    }                                                                          \
    return acc;                                                                \
  }                                                                            \
  /* Out of line: clang asks OpenMP for the thread number on entry to a  */ \
  /* function with a parallel region, which the 1-thread path must not pay. */ \
  __attribute__((noinline)) static uint32_t parallel##SUFFIX(                  \
      const float *restrict data, int64_t dataCount,                           \
      const INDEX *restrict indices, float *restrict out, int64_t count,       \
      int64_t blocks, int threads) {                                           \
    uint32_t acc = 0;                                                          \
    GATHER_PRAGMA(omp parallel for schedule(static) reduction(^ : acc)         \
                      num_threads(threads))                                    \
    for (int64_t b = 0; b < blocks; ++b)                                       \
      acc ^= blocks##SUFFIX(data, dataCount, indices, out, count, b, b + 1);   \
    return acc;                                                                \
  }                                                                            \
  void gatherFloor##SUFFIX(const float *restrict data, int64_t dataCount,      \
                           const INDEX *restrict indices,                      \
                           float *restrict out, int64_t count, int threads) {  \
    int64_t total = dataCount > count ? dataCount : count;                     \
    int64_t blocks = (total + kFloorBlock - 1) / kFloorBlock;                  \
    gatherFloorSink =                                                          \
        threads <= 1                                                           \
            ? blocks##SUFFIX(data, dataCount, indices, out, count, 0, blocks)  \
            : parallel##SUFFIX(data, dataCount, indices, out, count, blocks,   \
                               threads);                                       \
  }
/* clang-format on */

GATHER_FLOOR(_I64, int64_t)
GATHER_FLOOR(_I32, int32_t)
