/*===- c_loop.c - The plain C GatherElements loop (the practical limit) ----===*
 *
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Part of the gather project. bench/CMakeLists.txt compiles this file once
 * per "C form" (a set of clang flags: -O3 -march=native with or without
 * OpenMP, -mno-gather, -fno-vectorize), each time with GATHER_C_FORM set to
 * the form's name, which suffixes the symbols:
 *
 *   void gatherLoop_<form>_I64(data, indices, out, outer, axisSize,
 *                              indicesAxisSize, inner, threads);
 *   void gatherLoop_<form>_I32(...);   (int32_t indices)
 *
 * out[o][j][i] = data[o][k][i], k = indices[o][j][i] (+ s if negative,
 * 0 if still outside [0, s)), where o runs over the dimensions before
 * `axis`, j over the axis and i over the dimensions after it, for indices
 * whose non-axis sizes equal data's (all the benchmark's workloads). The
 * innermost loop is the contiguous one: j when `axis` is the last dimension,
 * i otherwise. `threads` > 1 runs the outer loops on that many OpenMP
 * threads (forms built with -fopenmp; the others ignore it).
 *
 * The innermost loops are functions of their own with `restrict` pointers:
 * written inline in the `omp parallel for`, they lose `restrict` when clang
 * outlines the parallel region, and clang then never vectorizes them
 * ("cannot identify array bounds").
 *===----------------------------------------------------------------------===*/

#include <stdint.h>

#ifndef GATHER_C_FORM
#error "define GATHER_C_FORM (the form's name) when compiling c_loop.c"
#endif

#define GATHER_CONCAT3(A, B, C) A##B##C
#define GATHER_NAME(FORM, SUFFIX) GATHER_CONCAT3(gatherLoop_, FORM, SUFFIX)

#ifdef _OPENMP
/* A pragma written as tokens, which can be broken over lines (a string
   literal cannot). */
#define GATHER_PRAGMA(TOKENS) _Pragma(#TOKENS)
#define GATHER_PARALLEL_FOR                                                    \
  GATHER_PRAGMA(omp parallel for num_threads(threads) if (threads > 1))
#define GATHER_PARALLEL_FOR_COLLAPSE2                                          \
  GATHER_PRAGMA(omp parallel for collapse(2) num_threads(threads)              \
                    if (threads > 1))
#else
#define GATHER_PARALLEL_FOR (void)threads;
#define GATHER_PARALLEL_FOR_COLLAPSE2 (void)threads;
#endif

/* k + s if k is negative; 0 if still outside [0, s) (never read outside). */
static inline int64_t wrapIndex(int64_t k, int64_t axisSize) {
  k += k < 0 ? axisSize : 0;
  return (uint64_t)k < (uint64_t)axisSize ? k : 0;
}

/* clang-format off */
#define GATHER_LOOP(FORM, SUFFIX, INDEX)                                       \
  /* One row along the last axis: out[j] = base[k(row[j])]. */                \
  static inline void GATHER_CONCAT3(lastAxisRow, SUFFIX, FORM)(                \
      const float *restrict base, const INDEX *restrict row,                   \
      float *restrict outRow, int64_t count, int64_t axisSize) {              \
    for (int64_t j = 0; j < count; ++j)                                        \
      outRow[j] = base[wrapIndex(row[j], axisSize)];                           \
  }                                                                            \
  /* One row of the inner dimensions: out[i] = base[k(row[i]) * inner + i]. */ \
  static inline void GATHER_CONCAT3(innerRow, SUFFIX, FORM)(                   \
      const float *restrict base, const INDEX *restrict row,                   \
      float *restrict outRow, int64_t inner, int64_t axisSize) {              \
    for (int64_t i = 0; i < inner; ++i)                                        \
      outRow[i] = base[wrapIndex(row[i], axisSize) * inner + i];               \
  }                                                                            \
  void GATHER_NAME(FORM, SUFFIX)(const float *restrict data,                   \
                                 const INDEX *restrict indices,                \
                                 float *restrict out, int64_t outer,           \
                                 int64_t axisSize, int64_t indicesAxisSize,    \
                                 int64_t inner, int threads) {                 \
    if (inner == 1) {                                                          \
      GATHER_PARALLEL_FOR                                                      \
      for (int64_t o = 0; o < outer; ++o)                                      \
        GATHER_CONCAT3(lastAxisRow, SUFFIX, FORM)(                             \
            data + o * axisSize, indices + o * indicesAxisSize,                \
            out + o * indicesAxisSize, indicesAxisSize, axisSize);             \
      return;                                                                  \
    }                                                                          \
    GATHER_PARALLEL_FOR_COLLAPSE2                                              \
    for (int64_t o = 0; o < outer; ++o)                                        \
      for (int64_t j = 0; j < indicesAxisSize; ++j)                            \
        GATHER_CONCAT3(innerRow, SUFFIX, FORM)(                                \
            data + o * axisSize * inner,                                       \
            indices + (o * indicesAxisSize + j) * inner,                       \
            out + (o * indicesAxisSize + j) * inner, inner, axisSize);         \
  }
/* clang-format on */

#define GATHER_LOOPS(FORM)                                                     \
  GATHER_LOOP(FORM, _I64, int64_t)                                             \
  GATHER_LOOP(FORM, _I32, int32_t)

GATHER_LOOPS(GATHER_C_FORM)
