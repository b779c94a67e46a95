//===- CollectivesToRuntime.h - Shard collectives as MPI calls --*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The collectives that assemble a partitioned gather's result, lowered to
// calls of gather's MPI runtime (GatherMPIRuntime.h) that work in place: in
// the destination buffer when the result's only use materializes it in a
// row-major memref (destination-passing style), else in one buffer of the
// whole result. Used by gather-shard-prepare-for-mpi.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_DIALECT_ONNX_SHARDING_COLLECTIVESTORUNTIME_H
#define GATHER_LIB_DIALECT_ONNX_SHARDING_COLLECTIVESTORUNTIME_H

#include "mlir/IR/PatternMatch.h"

namespace gather::ONNX {

/// How a result split over processes is assembled on every process
/// (`shard.all_gather`).
enum class ShardAssembly {
  /// MPI_Allgatherv in place: each process sends its slab once.
  AllGather,
  /// The slab inserted into a zero-filled whole result, then a bit-exact
  /// integer MPI_Allreduce (sum) in place: twice the bytes of AllGather.
  AllReduce,
};

/// Adds to `patterns` the lowerings of
///   - `shard.all_gather`: as `assembly` says (gatherMPIAllgatherv, or a
///     bit-exact all-reduce);
///   - `shard.all_reduce` (sum) marked kBitExactSumAttrName (the masked
///     gather of an axis split): gatherMPIAllreduceSumBits, the elements
///     summed as integers of their size, in place.
/// With `remarks`, each lowering emits a remark that names the collective
/// and the bytes it passes to MPI per process.
void populateCollectivesToRuntimePatterns(mlir::RewritePatternSet &patterns,
                                          ShardAssembly assembly, bool remarks);

} // namespace gather::ONNX

#endif // GATHER_LIB_DIALECT_ONNX_SHARDING_COLLECTIVESTORUNTIME_H
