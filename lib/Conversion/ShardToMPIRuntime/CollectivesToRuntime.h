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

#ifndef GATHER_LIB_CONVERSION_SHARDTOMPIRUNTIME_COLLECTIVESTORUNTIME_H
#define GATHER_LIB_CONVERSION_SHARDTOMPIRUNTIME_COLLECTIVESTORUNTIME_H

#include "gather/Conversion/ShardToMPIRuntime/ShardToMPIRuntime.h"

#include "mlir/IR/PatternMatch.h"

namespace gather {

/// Adds to `patterns` the lowerings of
///   - `shard.all_gather`: as `assembly` says (gatherMPIAllgatherv, or a
///     bit-exact all-reduce);
///   - `shard.all_reduce` (sum) marked kBitExactSumAttrName
///   (ShardToMPIContract.h) (the masked
///     gather of an axis split): gatherMPIAllreduceSumBits, the elements
///     summed as integers of their size, in place.
/// With `remarks`, each lowering emits a remark that names the collective
/// and the bytes it passes to MPI per process.
void populateCollectivesToRuntimePatterns(mlir::RewritePatternSet &patterns,
                                          ShardAssembly assembly, bool remarks);

} // namespace gather

#endif // GATHER_LIB_CONVERSION_SHARDTOMPIRUNTIME_COLLECTIVESTORUNTIME_H
