// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Hand-written AVX-512 forms of a transposing consumer of a gather,
// out[j][i] = data[i][indices[i][j]] * w[j][i] with data and indices of
// [512, 1024] and w and out of [1024, 512], against the gather alone; the
// measurements behind docs/CodeShape.md, "Transposing consumers". Not part
// of the build (it needs AVX-512 and picks no form: it only measures):
//   clang-22 -O3 -march=native bench/transposed_tiles.c -o /tmp/tt && /tmp/tt
// Prints the CPU's name, then each form's best time of 7 rounds of 20
// calls and its ratio to the gather alone; exits 1 if a form's result is
// wrong. Every buffer is on 2 MiB huge pages (as gather-bench's); an
// argument N moves `w` by N floats against them (`/tmp/tt 16`: 64 bytes).
// -DR=256 -DC=512 (multiples of 32) measures indices of [R, C] instead.
// The last rows have no gather: the same bytes along their rows (the
// fused kernel's floor here) and transposed in the blocks' two passes,
// which bound what any order of these loops can reach.
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#ifndef R
#define R 512
#endif
#ifndef C
#define C 1024
#endif
static float *data, *w, *out;
static int64_t *idx;
static void *hugeAlloc(size_t bytes) {
  size_t page = 2u << 20;
  bytes = (bytes + page - 1) / page * page;
  void *p = aligned_alloc(page, bytes);
  if (!p) {
    printf("out of memory\n");
    exit(1);
  }
  madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void gather_alone(void) { // out as [R][C]
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; j += 16) {
      __m512i a = _mm512_loadu_si512(idx + i * C + j),
              b = _mm512_loadu_si512(idx + i * C + j + 8);
      __m256 x = _mm512_i64gather_ps(a, data + i * C, 4),
             y = _mm512_i64gather_ps(b, data + i * C, 4);
      _mm512_storeu_ps(out + i * C + j,
                       _mm512_insertf32x8(_mm512_castps256_ps512(x), y, 1));
    }
}
static inline __m512 g16(const int64_t *ip, const float *row) {
  __m512i a = _mm512_loadu_si512(ip), b = _mm512_loadu_si512(ip + 8);
  __m256 x = _mm512_i64gather_ps(a, row, 4), y = _mm512_i64gather_ps(b, row, 4);
  return _mm512_insertf32x8(_mm512_castps256_ps512(x), y, 1);
}
// transpose 16x16 in place (rows r[0..15])
static inline void tr16(__m512 r[16]) {
  __m512 t[16];
  for (int k = 0; k < 8; ++k) {
    t[2 * k] = _mm512_unpacklo_ps(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm512_unpackhi_ps(r[2 * k], r[2 * k + 1]);
  }
  for (int k = 0; k < 4; ++k) {
    r[4 * k + 0] = _mm512_shuffle_ps(t[4 * k], t[4 * k + 2], 0x44);
    r[4 * k + 1] = _mm512_shuffle_ps(t[4 * k], t[4 * k + 2], 0xEE);
    r[4 * k + 2] = _mm512_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0x44);
    r[4 * k + 3] = _mm512_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0xEE);
  }
  for (int k = 0; k < 8; ++k) {
    int a = (k / 4) * 8 + (k % 4), b = a + 4;
    t[a] = _mm512_shuffle_f32x4(r[a], r[b], 0x88);
    t[b] = _mm512_shuffle_f32x4(r[a], r[b], 0xDD);
  }
  for (int k = 0; k < 8; ++k) {
    int a = k, b = k + 8;
    r[a] = _mm512_shuffle_f32x4(t[a], t[b], 0x88);
    r[b] = _mm512_shuffle_f32x4(t[a], t[b], 0xDD);
  }
}
static int perm16[16];
// tiles: strip of 16 rows i, tiles along j; out[j][i] = data[i][idx[i][j]] *
// w[j][i]
static void tiles(void) {
  for (int i0 = 0; i0 < R; i0 += 16)
    for (int j0 = 0; j0 < C; j0 += 16) {
      __m512 r[16];
      for (int k = 0; k < 16; ++k)
        r[k] = g16(idx + (i0 + k) * C + j0, data + (i0 + k) * C);
      tr16(r);
      for (int k = 0; k < 16; ++k) {
        int j = j0 + perm16[k];
        _mm512_storeu_ps(out + j * R + i0,
                         _mm512_mul_ps(r[k], _mm512_loadu_ps(w + j * R + i0)));
      }
    }
}
// two-phase: strip of 16 rows, block of BJ columns: gather row-wise into
// scratch, then transpose
static float scratch[16 * C] __attribute__((aligned(64)));
static int BJ = 128;
static void twophase(void) {
  for (int i0 = 0; i0 < R; i0 += 16)
    for (int jb = 0; jb < C; jb += BJ) {
      for (int k = 0; k < 16; ++k)
        for (int j = 0; j < BJ; j += 16)
          _mm512_store_ps(scratch + k * BJ + j, g16(idx + (i0 + k) * C + jb + j,
                                                    data + (i0 + k) * C));
      for (int j0 = 0; j0 < BJ; j0 += 16) {
        __m512 r[16];
        for (int k = 0; k < 16; ++k)
          r[k] = _mm512_load_ps(scratch + k * BJ + j0);
        tr16(r);
        for (int k = 0; k < 16; ++k) {
          int j = jb + j0 + perm16[k];
          _mm512_storeu_ps(
              out + j * R + i0,
              _mm512_mul_ps(r[k], _mm512_loadu_ps(w + j * R + i0)));
        }
      }
    }
}
// tiles without the gather (index loads only, data read contiguous) - to see
// the transpose+store cost
static void tiles_nogather(void) {
  for (int i0 = 0; i0 < R; i0 += 16)
    for (int j0 = 0; j0 < C; j0 += 16) {
      __m512 r[16];
      for (int k = 0; k < 16; ++k)
        r[k] = _mm512_add_ps(
            _mm512_loadu_ps(data + (i0 + k) * C + j0),
            _mm512_castsi512_ps(_mm512_loadu_si512(idx + (i0 + k) * C + j0)));
      tr16(r);
      for (int k = 0; k < 16; ++k) {
        int j = j0 + perm16[k];
        _mm512_storeu_ps(out + j * R + i0,
                         _mm512_mul_ps(r[k], _mm512_loadu_ps(w + j * R + i0)));
      }
    }
}

static void t_store_only(void) {
  for (int i0 = 0; i0 < R; i0 += 16)
    for (int j0 = 0; j0 < C; j0 += 16) {
      __m512 r[16];
      for (int k = 0; k < 16; ++k)
        r[k] = _mm512_add_ps(
            _mm512_loadu_ps(data + (i0 + k) * C + j0),
            _mm512_castsi512_ps(_mm512_loadu_si512(idx + (i0 + k) * C + j0)));
      tr16(r);
      for (int k = 0; k < 16; ++k) {
        int j = j0 + perm16[k];
        _mm512_storeu_ps(out + j * R + i0, r[k]);
      }
    }
}
static void t_contig(void) {
  for (int i0 = 0; i0 < R; i0 += 16)
    for (int j0 = 0; j0 < C; j0 += 16) {
      __m512 r[16];
      for (int k = 0; k < 16; ++k)
        r[k] = _mm512_add_ps(
            _mm512_loadu_ps(data + (i0 + k) * C + j0),
            _mm512_castsi512_ps(_mm512_loadu_si512(idx + (i0 + k) * C + j0)));
      tr16(r);
      for (int k = 0; k < 16; ++k)
        _mm512_storeu_ps(
            out + i0 * C + j0 * 16 + k * 16,
            _mm512_mul_ps(r[k],
                          _mm512_loadu_ps(w + i0 * C + j0 * 16 + k * 16)));
    }
}

static int PD = 2;
static void tiles_pf(void) {
  for (int i0 = 0; i0 < R; i0 += 16)
    for (int j0 = 0; j0 < C; j0 += 16) {
      __m512 r[16];
      for (int k = 0; k < 16; ++k)
        r[k] = g16(idx + (i0 + k) * C + j0, data + (i0 + k) * C);
      tr16(r);
      int jn = j0 + 16 * PD;
      for (int k = 0; k < 16; ++k) {
        int j = j0 + perm16[k];
        _mm_prefetch((const char *)(w + ((jn + k) % C) * R + i0), _MM_HINT_T0);
        _mm512_storeu_ps(out + j * R + i0,
                         _mm512_mul_ps(r[k], _mm512_loadu_ps(w + j * R + i0)));
      }
    }
}

static void tiles_loadsfirst(void) {
  for (int i0 = 0; i0 < R; i0 += 16)
    for (int j0 = 0; j0 < C; j0 += 16) {
      __m512 r[16], ww[16];
      for (int k = 0; k < 16; ++k)
        ww[k] = _mm512_loadu_ps(w + (j0 + perm16[k]) * R + i0);
      for (int k = 0; k < 16; ++k)
        r[k] = g16(idx + (i0 + k) * C + j0, data + (i0 + k) * C);
      tr16(r);
      for (int k = 0; k < 16; ++k) {
        int j = j0 + perm16[k];
        _mm512_storeu_ps(out + j * R + i0, _mm512_mul_ps(r[k], ww[k]));
      }
    }
}

static int SS = 1;
static void g_strip(void) { // with gathers, strips of 16*SS columns of out
  for (int i1 = 0; i1 < R; i1 += 16 * SS)
    for (int j0 = 0; j0 < C; j0 += 16)
      for (int i0 = i1; i0 < i1 + 16 * SS; i0 += 16) {
        __m512 r[16];
        for (int k = 0; k < 16; ++k)
          r[k] = g16(idx + (i0 + k) * C + j0, data + (i0 + k) * C);
        tr16(r);
        for (int k = 0; k < 16; ++k) {
          int j = j0 + perm16[k];
          _mm512_storeu_ps(
              out + j * R + i0,
              _mm512_mul_ps(r[k], _mm512_loadu_ps(w + j * R + i0)));
        }
      }
}

static void tiles_nt(void) {
  for (int i0 = 0; i0 < R; i0 += 16)
    for (int j0 = 0; j0 < C; j0 += 16) {
      __m512 r[16];
      for (int k = 0; k < 16; ++k)
        r[k] = g16(idx + (i0 + k) * C + j0, data + (i0 + k) * C);
      tr16(r);
      for (int k = 0; k < 16; ++k) {
        int j = j0 + perm16[k];
        _mm512_stream_ps(out + j * R + i0,
                         _mm512_mul_ps(r[k], _mm512_loadu_ps(w + j * R + i0)));
      }
    }
}
// blocks of B rows of indices in two passes: each row along its length into
// a scratch block (row-major [B][C]), then the tiles from it, along the rows
// of the result; and each pass alone (the second with and without w)
static float *block;
static int B = 32;
static void gather_rows(int i1) {
  for (int k = 0; k < B; ++k)
    for (int j = 0; j < C; j += 16)
      _mm512_store_ps(block + k * C + j,
                      g16(idx + (i1 + k) * C + j, data + (i1 + k) * C));
}
// The second pass over the block at row i1: with w (or not: `withW` 0),
// storing with non-temporal stores where `withW` is 2.
static void block_tiles(int i1, int withW) {
  for (int j0 = 0; j0 < C; j0 += 16)
    for (int i0 = i1; i0 < i1 + B; i0 += 16) {
      __m512 r[16];
      for (int k = 0; k < 16; ++k)
        r[k] = _mm512_load_ps(block + (i0 - i1 + k) * C + j0);
      tr16(r);
      for (int k = 0; k < 16; ++k) {
        int j = j0 + perm16[k];
        __m512 v =
            withW ? _mm512_mul_ps(r[k], _mm512_loadu_ps(w + j * R + i0)) : r[k];
        if (withW == 2)
          _mm512_stream_ps(out + j * R + i0, v);
        else
          _mm512_storeu_ps(out + j * R + i0, v);
      }
    }
}
// The same bytes without a gather: each value of `data` plus its index
// value, into the scratch block (as gather_rows), into the result as [R, C]
// (as gather_alone), or times `w`, all along their rows (the fused kernel's
// bytes in no transposed order: its floor on this machine).
static inline __m512 sum16(const int64_t *ip, const float *dp) {
  __m512i a = _mm512_loadu_si512(ip), b = _mm512_loadu_si512(ip + 8);
  __m512 v = _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtepi64_ps(a)),
                                _mm512_cvtepi64_ps(b), 1);
  return _mm512_add_ps(_mm512_loadu_ps(dp), v);
}
static void copy_rows(int i1) {
  for (int k = 0; k < B; ++k)
    for (int j = 0; j < C; j += 16)
      _mm512_store_ps(block + k * C + j,
                      sum16(idx + (i1 + k) * C + j, data + (i1 + k) * C + j));
}
static void copy_alone(void) {
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; j += 16)
      _mm512_storeu_ps(out + i * C + j,
                       sum16(idx + i * C + j, data + i * C + j));
}
static void copy_times_w_along_rows(void) {
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; j += 16)
      _mm512_storeu_ps(out + i * C + j,
                       _mm512_mul_ps(sum16(idx + i * C + j, data + i * C + j),
                                     _mm512_loadu_ps(w + i * C + j)));
}
// The second pass over a block of 32 rows (B = 32) with both tiles of 16 rows
// of the result transposed first, then each row's 128 bytes loaded from `w` and
// stored together; `prefetch`: `w` and the result's lines 2 tiles ahead
// into the L2 cache.
static void block_tile_pairs(int i1, int prefetch) {
  for (int j0 = 0; j0 < C; j0 += 16) {
    __m512 a[16], b[16];
    if (prefetch && j0 + 32 < C)
      for (int k = 0; k < 16; ++k)
        for (int h = 0; h < 32; h += 16) {
          _mm_prefetch((const char *)(w + (j0 + 32 + k) * R + i1 + h),
                       _MM_HINT_T1);
          _mm_prefetch((const char *)(out + (j0 + 32 + k) * R + i1 + h),
                       _MM_HINT_ET1);
        }
    for (int k = 0; k < 16; ++k) {
      a[k] = _mm512_load_ps(block + k * C + j0);
      b[k] = _mm512_load_ps(block + (16 + k) * C + j0);
    }
    tr16(a);
    tr16(b);
    for (int k = 0; k < 16; ++k) {
      int j = j0 + perm16[k];
      __m512 wa = _mm512_loadu_ps(w + j * R + i1),
             wb = _mm512_loadu_ps(w + j * R + i1 + 16);
      _mm512_storeu_ps(out + j * R + i1, _mm512_mul_ps(a[k], wa));
      _mm512_storeu_ps(out + j * R + i1 + 16, _mm512_mul_ps(b[k], wb));
    }
  }
}

// The blocks with each block's scratch a malloc of its own, as gather-codegen
// allocates it (a heap buffer per block, not a huge page).
static void blocked_malloc(void) {
  float *shared = block;
  for (int i1 = 0; i1 < R; i1 += B) {
    void *raw = malloc(4 * (size_t)B * C + 64);
    if (!raw) {
      printf("out of memory\n");
      exit(1);
    }
    block = (float *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
    gather_rows(i1);
    block_tiles(i1, 1);
    free(raw);
  }
  block = shared;
}
// The blocks' passes: `first` (gather_rows, copy_rows; null: none) and the
// tiles (block_tiles with `withW`; < 0: none), or with `pairs`
// (block_tile_pairs, prefetching where `pairs` is 2).
static void passes(void (*first)(int), int withW, int pairs) {
  for (int i1 = 0; i1 < R; i1 += B) {
    if (first)
      first(i1);
    if (pairs)
      block_tile_pairs(i1, pairs == 2);
    else if (withW >= 0)
      block_tiles(i1, withW);
  }
}
static void blocked(void) { passes(gather_rows, 1, 0); }
static void blocked_nt(void) { passes(gather_rows, 2, 0); }
static void blocked_first_pass(void) { passes(gather_rows, -1, 0); }
static void blocked_second_pass(void) { passes(NULL, 1, 0); }
static void blocked_second_pass_no_w(void) { passes(NULL, 0, 0); }
static void blocked_pairs(void) { passes(gather_rows, 1, 1); }
static void blocked_pairs_prefetch(void) { passes(gather_rows, 1, 2); }
static void transposing_copy(void) { passes(copy_rows, 1, 0); }
static void transposing_copy_nt(void) { passes(copy_rows, 2, 0); }
static void transposing_copy_pairs_prefetch(void) { passes(copy_rows, 1, 2); }

static double bench(void (*f)(void)) {
  double best = 1e9;
  for (int rep = 0; rep < 7; ++rep) {
    double t = now();
    for (int n = 0; n < 20; ++n)
      f();
    t = (now() - t) / 20;
    if (t < best)
      best = t;
  }
  return best * 1e6;
}
static int check(void) {
  for (int j = 0; j < C; ++j)
    for (int i = 0; i < R; ++i)
      if (out[j * R + i] != data[i * C + idx[i * C + j]] * w[j * R + i]) {
        printf("bad %d %d\n", i, j);
        return 0;
      }
  return 1;
}
static int failures;
static void report(const char *name, void (*f)(void), int checked,
                   double base) {
  double t = bench(f);
  printf("%-58s %6.0f us  %.2fx\n", name, t, t / base);
  if (checked && !check())
    ++failures;
}
int main(int argc, char **argv) {
  int wOffset = argc > 1 ? atoi(argv[1]) : 0;
  if (wOffset < 0 || wOffset > 4096) {
    printf("the offset of w is 0 to 4096 floats\n");
    return 1;
  }
  data = hugeAlloc(4 * R * C);
  w = (float *)hugeAlloc(4 * (R * C + 4096)) + wOffset;
  out = hugeAlloc(4 * R * C);
  idx = hugeAlloc(8 * R * C);
  srand(1);
  for (int k = 0; k < R * C; ++k) {
    data[k] = k % 1000 * 0.5f;
    w[k] = (k % 7) - 3;
    idx[k] = rand() % C;
  }
  memset(out, 0, 4 * R * C);
  // The row of the transposed tile that each vector of tr16 holds.
  {
    __m512 r[16];
    float m[16][16];
    for (int a = 0; a < 16; ++a) {
      for (int b = 0; b < 16; ++b)
        m[a][b] = a * 16 + b;
      r[a] = _mm512_loadu_ps(m[a]);
    }
    tr16(r);
    for (int k = 0; k < 16; ++k) {
      float v[16];
      _mm512_storeu_ps(v, r[k]);
      perm16[k] = (int)v[0] % 16;
      for (int a = 0; a < 16; ++a)
        if ((int)v[a] != a * 16 + perm16[k]) {
          printf("tr16 is not a transpose\n");
          return 1;
        }
    }
  }
  char cpu[256] = "unknown";
  FILE *info = fopen("/proc/cpuinfo", "r");
  for (char line[512]; info && fgets(line, sizeof line, info);)
    if (!strncmp(line, "model name", 10)) {
      char *colon = strchr(line, ':');
      if (colon) {
        snprintf(cpu, sizeof cpu, "%s", colon + 2);
        cpu[strcspn(cpu, "\n")] = 0;
      }
      break;
    }
  if (info)
    fclose(info);
  printf("CPU: %s\n", cpu);
  double base = bench(gather_alone);
  printf("indices [%d, %d]\n", R, C);
  report("gather alone (out as [R, C])", gather_alone, 0, base);
  report("tiles of 16 x 16 (gather's form)", tiles, 1, base);
  report("tiles, non-temporal stores", tiles_nt, 1, base);
  report("tiles, loads of w before the stores", tiles_loadsfirst, 1, base);
  for (PD = 1; PD <= 8; PD *= 4) {
    char name[80];
    snprintf(name, sizeof name, "tiles, prefetch of w %d tiles ahead", PD);
    report(name, tiles_pf, 1, base);
  }
  for (SS = 2; SS <= 32 && 16 * SS <= R; SS *= 4) {
    char name[80];
    snprintf(name, sizeof name, "tiles, strips of %d columns", SS * 16);
    report(name, g_strip, 1, base);
  }
  for (BJ = 128; BJ <= 1024 && BJ <= C; BJ *= 8) {
    char name[80];
    snprintf(name, sizeof name,
             "row-wise gather into a 16 x %d scratch, then tiles", BJ);
    report(name, twophase, 1, base);
  }
  block = hugeAlloc(4 * R * C);
  // (Blocks of 16 rows are the 16 x 1024 scratch above.)
  for (B = 32; B <= 128 && B <= R; B *= 2) {
    char name[80];
    snprintf(name, sizeof name, "blocks of %d rows: rows into scratch, tiles",
             B);
    report(name, blocked, 1, base);
  }
  for (B = 32; B <= 128 && B <= R; B *= 2) {
    char name[80];
    snprintf(name, sizeof name, "blocks of %d rows, non-temporal stores", B);
    report(name, blocked_nt, 1, base);
  }
  B = 32;
  report("blocks of 32 rows: the first pass alone", blocked_first_pass, 0,
         base);
  report("blocks of 32 rows: the second pass alone", blocked_second_pass, 0,
         base);
  report("blocks of 32 rows: the second pass, no w", blocked_second_pass_no_w,
         0, base);
  report("blocks of 32 rows, a malloc per block", blocked_malloc, 1, base);
  report("blocks of 32 rows, each row's 128 bytes stored together",
         blocked_pairs, 1, base);
  report("  and w and the result prefetched 2 tiles ahead",
         blocked_pairs_prefetch, 1, base);
  report("no gather (data + index values): along the rows", copy_alone, 0,
         base);
  report("no gather, times w along the rows (the fused floor)",
         copy_times_w_along_rows, 0, base);
  report("no gather, transposing: blocks of 32 rows", transposing_copy, 0,
         base);
  report("no gather, transposing: blocks, non-temporal stores",
         transposing_copy_nt, 0, base);
  report("no gather, transposing: row pairs, prefetched",
         transposing_copy_pairs_prefetch, 0, base);
  report("no gather: tiles of data + index values", tiles_nogather, 0, base);
  report("no gather, no w", t_store_only, 0, base);
  report("no gather, w and out along their rows", t_contig, 0, base);
  return failures ? 1 : 0;
}
