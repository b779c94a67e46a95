//===- ShardToMPIRuntime.h - Shard ops to gather's MPI runtime --*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Stage 4 of onnx-to-llvm (lib/Conversion/ShardToMPIRuntime): after the onnx
// dialect is gone, the shard ops of the partitioned gathers become calls of
// gather's MPI runtime (include/gather/Runtime/GatherMPIRuntime.h) and of
// upstream's convert-shard-to-mpi. Its passes (gather-shard-prepare-for-mpi,
// gather-shard-cache-communicators) are declared in
// gather/Conversion/Passes.h; this header holds what their options and
// registration need.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_SHARDTOMPIRUNTIME_SHARDTOMPIRUNTIME_H
#define GATHER_CONVERSION_SHARDTOMPIRUNTIME_SHARDTOMPIRUNTIME_H

#include "gather/Support/EnumOptions.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace gather {

/// How a result split over processes is assembled on every process
/// (`shard.all_gather`).
enum class ShardAssembly {
  /// MPI_Allgatherv in place: each process sends its slab once.
  AllGather,
  /// The slab inserted into a zero-filled whole result, then a bit-exact
  /// integer MPI_Allreduce (sum) in place: twice the bytes of AllGather.
  AllReduce,
};

/// The values of gather-shard-prepare-for-mpi{assembly} and
/// onnx-to-llvm{shard-assembly}.
inline constexpr EnumOptionValue<ShardAssembly> kShardAssemblyValues[] = {
    {ShardAssembly::AllGather, "all-gather", "MPI_Allgatherv in place"},
    {ShardAssembly::AllReduce, "all-reduce",
     "a bit-exact MPI_Allreduce (sum) of zero-filled results"},
};

/// Registers the interface models the lowered IR needs: a memory-effects
/// model of mpi.allreduce (an MLIR 22.1 workaround,
/// lib/Conversion/ShardToMPIRuntime/UpstreamWorkarounds.h).
void registerShardToMPIRuntimeExternalModels(mlir::DialectRegistry &registry);

} // namespace gather

#endif // GATHER_CONVERSION_SHARDTOMPIRUNTIME_SHARDTOMPIRUNTIME_H
