/*===- MemRefDescriptor.h - The memref descriptors of compiled code -*- C -*-===
 *
 * Part of the gather project.
 * Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
 * license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===
 *
 * The descriptor by which compiled code takes and returns a tensor of rank
 * N, as MLIR's `llvm.emit_c_interface` wrappers (`_mlir_ciface_<function>`)
 * pass it: the layout of StridedMemRefType<T, N> in
 * mlir/ExecutionEngine/CRunnerUtils.h, usable from C and C++. The element
 * type is not part of the descriptor (the pointers are untyped): the
 * header gather-compile writes beside a library says each argument's.
 *
 *   allocated  the pointer the buffer was allocated with (free() it for a
 *              result of a compiled function: the call allocates results
 *              with malloc and the caller owns them);
 *   aligned    the first element's storage (may differ from `allocated`);
 *   offset     in elements, from `aligned` to element [0, ..., 0];
 *   sizes      the size of each dimension;
 *   strides    in elements, of each dimension (row-major: the last is 1).
 *
 * An argument is read where `aligned + offset` and the strides say; gather's
 * kernels take row-major (identity-layout) arguments.
 *
 *===----------------------------------------------------------------------===
 */

#ifndef GATHER_RUNTIME_MEMREFDESCRIPTOR_H
#define GATHER_RUNTIME_MEMREFDESCRIPTOR_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A rank-0 tensor (a scalar): no sizes, no strides. */
typedef struct GatherMemRef0 {
  void *allocated;
  void *aligned;
  int64_t offset;
} GatherMemRef0;

/** The descriptor of rank `rank` (1 or more), as a struct type. */
#define GATHER_MEMREF_STRUCT(rank)                                             \
  struct {                                                                     \
    void *allocated;                                                           \
    void *aligned;                                                             \
    int64_t offset;                                                            \
    int64_t sizes[rank];                                                       \
    int64_t strides[rank];                                                     \
  }

typedef GATHER_MEMREF_STRUCT(1) GatherMemRef1;
typedef GATHER_MEMREF_STRUCT(2) GatherMemRef2;
typedef GATHER_MEMREF_STRUCT(3) GatherMemRef3;
typedef GATHER_MEMREF_STRUCT(4) GatherMemRef4;
typedef GATHER_MEMREF_STRUCT(5) GatherMemRef5;
typedef GATHER_MEMREF_STRUCT(6) GatherMemRef6;
typedef GATHER_MEMREF_STRUCT(7) GatherMemRef7;
typedef GATHER_MEMREF_STRUCT(8) GatherMemRef8;

/** The largest rank with a typedef here; a header gather-compile writes
 * declares the types of higher ranks itself with GATHER_MEMREF_STRUCT. */
#define GATHER_MEMREF_MAX_NAMED_RANK 8

#ifdef __cplusplus
}
#endif

#endif /* GATHER_RUNTIME_MEMREFDESCRIPTOR_H */
