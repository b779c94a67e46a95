//===- ShardToMPIContract.h - What sharding leaves for MPI ------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The contract between the two sharding stages of onnx-to-llvm: stage 2
// (onnx-shard-gathers and the ShardingInterface model of onnx.GatherElements,
// lib/Dialect/ONNX/Sharding) marks the shard and func ops it makes with the
// attributes below, and stage 4 (gather-shard-prepare-for-mpi and
// gather-shard-cache-communicators, lib/Conversion/ShardToMPIRuntime) lowers
// what they mark; both build their IR with the helpers below (defined in
// the GatherONNXSharding library). test/Conversion/ShardToMPIRuntime checks
// the markers as the lowering reads them.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_SHARDING_SHARDTOMPICONTRACT_H
#define GATHER_DIALECT_ONNX_SHARDING_SHARDTOMPICONTRACT_H

#include "gather/Runtime/ShardBlocks.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringRef.h"

#include <utility>

namespace gather::ONNX {

//===----------------------------------------------------------------------===//
// Markers
//===----------------------------------------------------------------------===//

/// The unit attribute that marks a shard.all_reduce (sum) as a sum of bit
/// patterns (createBitExactAllReduce): gather-shard-prepare-for-mpi lowers
/// it to gatherMPIAllreduceSumBits; an unmarked one is a sum of values
/// (convert-shard-to-mpi).
inline constexpr llvm::StringLiteral kBitExactSumAttrName =
    "gather.bit_exact_sum";

/// The unit attribute of a function onnx-shard-gathers outlined a gather
/// into; gather-shard-prepare-for-mpi inlines it back into its caller.
inline constexpr llvm::StringLiteral kOutlinedGatherAttrName =
    "gather.outlined_gather";

/// The unit attribute of an mpi.comm_split that was in the IR before
/// convert-shard-to-mpi (the program's own, which may run with other
/// arguments each time): gather-shard-prepare-for-mpi marks them,
/// gather-shard-cache-communicators leaves them alone.
inline constexpr llvm::StringLiteral kOwnCommSplitAttrName =
    "gather.own_comm_split";

/// The string attribute of a shard.all_gather that assembles more than a
/// result split off the axis: "data" (axis-scheme=all-gather-data) or "the
/// lookups" (axis-scheme=all-to-all). gather-shard-prepare-for-mpi always
/// lowers it to gatherMPIAllgatherv (whatever shard-assembly says: the
/// scheme's model counts it so) and names it in its remark.
inline constexpr llvm::StringLiteral kAssembledAttrName = "gather.assembled";

/// The integer attribute of such a shard.all_gather: the whole size of its
/// gather axis (its lowering needs it when canonicalization has folded the
/// cast of its dynamic result to the whole size into the users).
inline constexpr llvm::StringLiteral kWholeSizeAttrName = "gather.whole_size";

//===----------------------------------------------------------------------===//
// IR both stages build
//===----------------------------------------------------------------------===//

/// The element that createBitExactAllReduce() adds as nothing: all-zero
/// bits (0, false, +0.0, ...) of the numeric `elementType`.
mlir::Value getSumIdentity(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Type elementType);

/// The first index and the number of indices (index values) of the block
/// of `blocks` that the process of index `process` owns (ShardBlocks.h).
std::pair<mlir::Value, mlir::Value> createBlockBounds(mlir::OpBuilder &builder,
                                                      mlir::Location loc,
                                                      mlir::Value process,
                                                      ShardBlocks blocks);

/// The address (!llvm.ptr) of the first element of the row-major `memref`.
mlir::Value createBufferAddress(mlir::OpBuilder &builder, mlir::Location loc,
                                mlir::Value memref);

} // namespace gather::ONNX

#endif // GATHER_DIALECT_ONNX_SHARDING_SHARDTOMPICONTRACT_H
