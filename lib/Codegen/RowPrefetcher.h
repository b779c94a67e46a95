//===- RowPrefetcher.h - Prefetches in the rows of gathers ------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The software prefetches that `gather-codegen` adds to the row loops of a
// gather along its innermost axis (when: CodegenPlan.h; why and what was
// measured: docs/CodeShape.md, "Prefetches").
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CODEGEN_ROWPREFETCHER_H
#define GATHER_LIB_CODEGEN_ROWPREFETCHER_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace gather::codegen {

/// Bytes of one cache line, for the prefetches: 64 on x86-64 and on most
/// other CPUs. (LLVM's X86 TargetTransformInfo::getCacheLineSize and
/// getPrefetchDistance return 0, "unknown", for every x86 CPU.)
inline constexpr int64_t kCacheLineBytes = 64;

/// Software prefetches for the row loops of a gather along its innermost
/// axis. `data` row i is read in the order of the index values, so its
/// lines miss in an order no hardware prefetcher predicts; `indices` is a
/// stream, but one the hardware prefetchers (busy with the random reads) do
/// not run far enough ahead on. The loop over row i at element j therefore
/// prefetches (into all cache levels, locality 3)
///
///   - the line of `data` at row i + D, element j, where D is the fewest
///     rows of `data` that span `distance` bytes (one row for rows of
///     `distance` bytes or more): the row a few rows later reads;
///   - the line of `indices` `distance` bytes after element j of row i
///     (in row-major order, so across rows).
///
/// Both addresses are taken on the buffers viewed as 1-D and clamped to
/// their last element: a prefetch never points outside its buffer. Vector
/// iterations prefetch every line their elements span; scalar loops
/// prefetch once per line of index values (an scf.if on the element
/// number).
class RowPrefetcher {
public:
  /// Views `data` and `indices` of `gather` (surely contiguous) as 1-D
  /// memrefs (bufferization.to_buffer read_only, memref.collapse_shape) and
  /// computes the distances, at the insertion point of `b` (before the
  /// loops).
  RowPrefetcher(mlir::OpBuilder &b, mlir::Location loc,
                mlir::linalg::GenericOp gather, int64_t distance);

  /// Prefetches for `count` elements of the row at `outer` (coordinates
  /// before the innermost one) from element `position` on: every line they
  /// span.
  void emitForElements(mlir::OpBuilder &b, llvm::ArrayRef<mlir::Value> outer,
                       mlir::Value position, int64_t count);

  /// For a scalar loop: emitForElements for one line of index values, at
  /// the elements whose number `position` is a multiple of it.
  void emitForScalar(mlir::OpBuilder &b, llvm::ArrayRef<mlir::Value> outer,
                     mlir::Value position);

private:
  /// The row-major position of (outer..., position).
  mlir::Value linearize(mlir::OpBuilder &b, llvm::ArrayRef<mlir::Value> strides,
                        llvm::ArrayRef<mlir::Value> outer,
                        mlir::Value position);

  /// One prefetch per cache line of `bytes` bytes from element
  /// `linear` + `ahead` of the 1-D `buffer`, each clamped to `last`.
  void emitLines(mlir::OpBuilder &b, mlir::Value buffer, mlir::Value linear,
                 mlir::Value ahead, mlir::Value last, int64_t bytes,
                 int64_t elementBytes);

  mlir::Location loc;
  mlir::Value data, indices;
  llvm::SmallVector<mlir::Value> dataStrides, indicesStrides;
  mlir::Value dataLast, indicesLast, dataAhead, indicesAhead;
  int64_t dataBytes, indexBytes;
};

} // namespace gather::codegen

#endif // GATHER_LIB_CODEGEN_ROWPREFETCHER_H
