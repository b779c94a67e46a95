//===- PartitionedGather.h - Pieces of a partitioned gather -----*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The IR one process runs for its part of an onnx.GatherElements: the
// global index check, the masked gather of an axis split and the bounds of
// a process's block (include/gather/Runtime/ShardBlocks.h). Shared by the
// ShardingInterface model (even splits, through shard-partition) and
// onnx-shard-gathers (uneven splits, which it partitions itself).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_DIALECT_ONNX_SHARDING_PARTITIONEDGATHER_H
#define GATHER_LIB_DIALECT_ONNX_SHARDING_PARTITIONEDGATHER_H

#include "gather/Dialect/ONNX/Sharding/ShardToMPIContract.h"
#include "gather/Runtime/ShardBlocks.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Builders.h"

namespace gather::ONNX {

/// Checks every index value of this process's slab `indices` of the gather
/// `op` against the global axis size `axisSize`; the first value out of range
/// in the row-major order of the whole `indices` is reported on every
/// process of `usedAxes` of `grid` (see Sharding.h). `offsets` and
/// `globalSizes` (index values, one per dimension) place the slab in the
/// whole `indices`. The local gather of `indices` that follows in the same
/// block, marked kIndicesCheckedByCallerAttrName (its lowering then checks
/// no index values), and the check's first pass (whether any value is out
/// of range) fuse into one loop nest (gather-codegen).
void createGlobalIndexCheck(mlir::OpBuilder &builder, mlir::Location loc,
                            mlir::Operation *op, mlir::Value indices,
                            llvm::ArrayRef<mlir::Value> offsets,
                            llvm::ArrayRef<mlir::Value> globalSizes,
                            llvm::StringRef grid,
                            llvm::ArrayRef<mlir::shard::GridAxis> usedAxes,
                            mlir::Value axisSize);

/// A gather along `axis` of the whole `indices` from this process's slab
/// `data` of the axis, the indices [lo, lo + chunk) of `axisSize`: the
/// element where an index (normalized with `axisSize`) falls in the slab,
/// the sum's identity (getSumIdentity) elsewhere. `data` must hold at least
/// one index of the axis (also when `chunk` is 0).
mlir::Value createMaskedGather(mlir::OpBuilder &builder, mlir::Location loc,
                               int64_t axis, mlir::Value data,
                               mlir::Value indices, mlir::Value lo,
                               mlir::Value chunk, mlir::Value axisSize);

/// Checks at run time (shard-io=split) that each slab of `slabs` (a
/// function argument's number and its size along `dim`, an index value) has
/// the size of the block of `blocks` that the process of index `process`
/// owns. One 8-byte all_reduce over `usedAxes` of `grid` finds the first
/// mismatch (the lowest slab, then process); only then a second one its
/// size, and every process reports it (gatherReportSlabShapeError at the
/// location of `op`).
void createSlabSizeCheck(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::Operation *op,
                         llvm::ArrayRef<std::pair<int64_t, mlir::Value>> slabs,
                         int64_t dim, ShardBlocks blocks, llvm::StringRef grid,
                         llvm::ArrayRef<mlir::shard::GridAxis> usedAxes,
                         mlir::Value process);

/// The gather `op` along `axis` of the whole (static) `indices`, split
/// along the axis by the all-to-all lookup (axis-scheme=all-to-all): this
/// process takes its block of the row-major order of `indices` (ShardBlocks
/// of its number of elements), computes the positions they read in the
/// whole `data` (indices normalized with `axisSize`; the index check ran
/// before), looks them up in the processes' slabs (gatherMPIAlltoallLookup)
/// and the blocks are assembled into the whole result (shard.all_gather,
/// marked kAssembledAttrName). `data` holds this process's slab from index
/// `dataStart` of the axis (the whole `data` and 0, or the slab and its
/// offset). `process` is this process's index on the 1-D `grid` of
/// `processes`.
mlir::Value createAllToAllLookup(mlir::OpBuilder &builder, mlir::Location loc,
                                 mlir::Operation *op, int64_t axis,
                                 mlir::Value data, mlir::Value dataStart,
                                 mlir::Value indices, int64_t axisSize,
                                 llvm::StringRef grid, mlir::Value process,
                                 int64_t processes);

} // namespace gather::ONNX

#endif // GATHER_LIB_DIALECT_ONNX_SHARDING_PARTITIONEDGATHER_H
