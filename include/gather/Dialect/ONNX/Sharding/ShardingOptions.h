//===- ShardingOptions.h - The values of sharding options -------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The values of onnx-shard-gathers{io, axis-scheme} and of the onnx-to-llvm
// options that set them (shard-io, shard-axis-scheme): one table each
// (gather/Support/EnumOptions.h); the largest grid-size (shard-grid).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_SHARDING_SHARDINGOPTIONS_H
#define GATHER_DIALECT_ONNX_SHARDING_SHARDINGOPTIONS_H

#include "gather/Dialect/ONNX/Sharding/TrafficModel.h"
#include "gather/Support/EnumOptions.h"

#include <cstdint>

namespace gather {

/// The most processes onnx-shard-gathers{grid-size} (onnx-to-llvm's
/// shard-grid) partitions over: 2^24. The partitioned code holds tables of
/// grid-size + 1 slab bounds per gather, so compile time and memory grow
/// with it; MPI's own process counts are `int`s.
inline constexpr int64_t kMaxShardGridSize = int64_t(1) << 24;

/// What public functions take and return under sharding (docs/Sharding.md,
/// distributed inputs and outputs).
enum class ShardIO {
  /// Every process the whole tensors.
  Whole,
  /// Each process its slab of a split gather's operands and result.
  Split,
};

/// The values of onnx-shard-gathers{io} and onnx-to-llvm{shard-io}.
inline constexpr EnumOptionValue<ShardIO> kShardIOValues[] = {
    {ShardIO::Whole, "whole", "every process the whole tensors"},
    {ShardIO::Split, "split",
     "each process its slab of a split gather's operands and result"},
};

/// The values of onnx-shard-gathers{axis-scheme} and
/// onnx-to-llvm{shard-axis-scheme}, also the schemes' names in remarks.
inline constexpr EnumOptionValue<AxisScheme> kAxisSchemeValues[] = {
    {AxisScheme::Auto, "auto", "the fewest bytes per process"},
    {AxisScheme::AllReduce, "all-reduce",
     "a masked gather from each slab, the results summed"},
    {AxisScheme::AllGatherData, "all-gather-data",
     "the slabs of data assembled, then a local gather"},
    {AxisScheme::AllToAll, "all-to-all",
     "each process looks up its indices in the owners' slabs"},
};

} // namespace gather

#endif // GATHER_DIALECT_ONNX_SHARDING_SHARDINGOPTIONS_H
