/*===- c_loop.c - The plain C GatherElements loop (the practical limit) ---===*
 *
 * Part of the gather project. Compiled with -O3 -march=native -fopenmp
 * (LLVM's libomp) as the reference the benchmark compares with.
 *
 * out[o][j][i] = data[o][k][i], k = indices[o][j][i] (+ s if negative,
 * 0 if still outside [0, s)), where o runs over the dimensions before
 * `axis`, j over the axis and i over the dimensions after it, for indices
 * whose non-axis sizes equal data's (all the benchmark's workloads). The
 * innermost loop is the contiguous one: j when `axis` is the last dimension,
 * i otherwise.
 *===----------------------------------------------------------------------===*/

#include <stdint.h>

/* clang-format off */
#define GATHER_LOOP(NAME, INDEX)                                               \
  void NAME(const float *restrict data, const INDEX *restrict indices,         \
            float *restrict out, int64_t outer, int64_t axisSize,              \
            int64_t indicesAxisSize, int64_t inner, int threads) {             \
    if (inner == 1) {                                                          \
      _Pragma("omp parallel for num_threads(threads) if (threads > 1)")        \
      for (int64_t o = 0; o < outer; ++o) {                                    \
        const INDEX *row = indices + o * indicesAxisSize;                      \
        float *outRow = out + o * indicesAxisSize;                             \
        const float *base = data + o * axisSize;                               \
        for (int64_t j = 0; j < indicesAxisSize; ++j) {                        \
          int64_t k = row[j];                                                  \
          k += k < 0 ? axisSize : 0;                                           \
          k = (uint64_t)k < (uint64_t)axisSize ? k : 0;                        \
          outRow[j] = base[k];                                                 \
        }                                                                      \
      }                                                                        \
      return;                                                                  \
    }                                                                          \
    _Pragma("omp parallel for collapse(2) num_threads(threads) if (threads > 1)") \
    for (int64_t o = 0; o < outer; ++o)                                        \
      for (int64_t j = 0; j < indicesAxisSize; ++j) {                          \
        const INDEX *row = indices + (o * indicesAxisSize + j) * inner;        \
        float *outRow = out + (o * indicesAxisSize + j) * inner;               \
        const float *base = data + o * axisSize * inner;                       \
        for (int64_t i = 0; i < inner; ++i) {                                  \
          int64_t k = row[i];                                                  \
          k += k < 0 ? axisSize : 0;                                           \
          k = (uint64_t)k < (uint64_t)axisSize ? k : 0;                        \
          outRow[i] = base[k * inner + i];                                     \
        }                                                                      \
      }                                                                        \
  }
/* clang-format on */

GATHER_LOOP(gatherLoopI64, int64_t)
GATHER_LOOP(gatherLoopI32, int32_t)
