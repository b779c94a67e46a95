//===- Sharding.h - onnx.GatherElements on a grid of processes --*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Partitioning onnx.GatherElements with MLIR's `shard` dialect (SPMD over a
// grid of processes, lowered to MPI by convert-shard-to-mpi). Kept out of the
// onnx dialect library, which does not depend on `shard`.
//
// The model (ShardingInterface, mlir/Dialect/Shard/Interfaces) sees the
// gather as a one-hot contraction over r = rank(indices) parallel loops and
// one reduction loop k over data.shape[axis]:
//
//   out[i] = sum_k [normalize(indices[i]) == k] * data[i with axis := k]
//
// with indexing maps data (d0..dr-1, k) -> (d0.., k at axis, ..dr-1),
// indices and out (d0..dr-1, k) -> (d0..dr-1). shard-partition then makes:
//   - a split of a dimension d other than the axis (data.shape[d] must equal
//     indices.shape[d] there): the gather on each process's slab, no
//     communication;
//   - a split of the axis (k): a masked gather from the process's slab of
//     `data` (indices normalized with the global axis size; elements outside
//     the slab hold the identity of a sum) and one shard.all_reduce (sum);
//     see createBitExactAllReduce(). onnx-shard-gathers{axis-scheme} may
//     take another scheme instead, partitioned by itself: `data` assembled
//     then a local gather, or an all-to-all lookup (TrafficModel.h).
// Index values are checked with the global axis size before the gather, on
// every process's slab of `indices`; the first out-of-range value in
// row-major order of the whole tensor (found with shard.all_reduce min) is
// reported on every process with its global position, the same message as
// one process would print (gatherReportIndexError, GatherRuntime.h).
// Through shard-partition, static sizes of split dimensions must be
// multiples of the number of processes of their grid axes (hand-annotated
// IR); onnx-shard-gathers partitions uneven splits itself, in the blocks of
// gather/Runtime/ShardBlocks.h. !onnx.string data cannot be split.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_SHARDING_SHARDING_H
#define GATHER_DIALECT_ONNX_SHARDING_SHARDING_H

#include "gather/Dialect/ONNX/GatherElementsView.h"
#include "gather/Dialect/ONNX/Sharding/ShardToMPIContract.h"
#include "gather/Dialect/ONNX/Sharding/ShardingOptions.h"

#include "gather/Support/PassOptions.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace gather::ONNX {

#define GEN_PASS_DECL
#include "gather/Dialect/ONNX/Sharding/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/Dialect/ONNX/Sharding/Passes.h.inc"

/// Checks that the elements of `gather`'s `data` can be sent to other
/// processes: integers, floats and complex numbers. Otherwise emits
/// "cannot be sharded over processes: 'data' holds <type> elements, ..." at
/// the op and fails (!onnx.string elements point into one process's memory).
mlir::LogicalResult verifyShardableData(const GatherElementsView &gather);

/// Registers the ShardingInterface model of onnx.GatherElements, attached
/// by op name when a dialect named `onnx` loads: to gather's op, or to
/// another `onnx` dialect's (onnx-mlir's) registered instead, seen through
/// its operands (data, indices) and `axis` attribute (64-bit integer,
/// default 0).
void registerShardingInterfaceExternalModels(mlir::DialectRegistry &registry);

/// Returns the sum of `value` (a ranked tensor) over the processes of
/// `gridAxes` of `grid`, exact bit for bit when, for each element, at most
/// one process holds a value other than getSumIdentity() of its element type
/// (ShardToMPIContract.h):
/// a shard.all_reduce (sum) marked kBitExactSumAttrName, which MPI computes
/// on the elements as integers of their size (i1 as i8, f16/bf16 as i16,
/// f32 as i32, f64 as i64, complex numbers as two integers), without a
/// conversion: MPI has no f16, bf16, complex or i1 sums, and a float sum
/// would quiet signalling NaNs.
mlir::Value
createBitExactAllReduce(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Value value, llvm::StringRef grid,
                        llvm::ArrayRef<mlir::shard::GridAxis> gridAxes);

} // namespace gather::ONNX

#endif // GATHER_DIALECT_ONNX_SHARDING_SHARDING_H
