//===- ShardBlocks.h - The block each process owns of a split ---*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one rule for which indices of a split dimension each process owns:
// the contract between the compile-time partitioning (onnx-shard-gathers,
// the lowering of shard.all_gather in gather-shard-prepare-for-mpi) and the
// MPI runtime (gatherMPIAllgatherv's counts and displacements). Plain C++,
// no MLIR: the runtime library includes it too.
//
// A dimension of size S split over P processes: with q = S / P and
// m = S % P, the process of rank r owns the block [offset(r), offset(r + 1))
// where offset(r) = r * q + min(r, m): the first m processes own q + 1
// indices, the others q. When P divides S every block has S / P indices;
// when S < P the processes of rank S and above own none (their block is
// empty, at offset S).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIME_SHARDBLOCKS_H
#define GATHER_RUNTIME_SHARDBLOCKS_H

#include <algorithm>
#include <cstdint>

namespace gather {

/// The blocks of a dimension of `size` indices split over `processes`
/// processes (see the file comment). `size` >= 0, `processes` >= 1.
struct ShardBlocks {
  int64_t size;
  int64_t processes;

  /// The first index of the block of the process of rank `rank` (0 <=
  /// `rank` <= `processes`; offset(processes) == size).
  constexpr int64_t offset(int64_t rank) const {
    int64_t quotient = size / processes, remainder = size % processes;
    return rank * quotient + std::min(rank, remainder);
  }

  /// The number of indices the process of rank `rank` owns.
  constexpr int64_t count(int64_t rank) const {
    return offset(rank + 1) - offset(rank);
  }

  /// The rank of the process whose block holds index `index` (0 <= `index`
  /// < `size`).
  constexpr int64_t owner(int64_t index) const {
    int64_t quotient = size / processes, remainder = size % processes;
    int64_t large = remainder * (quotient + 1); // The blocks of q + 1.
    return index < large ? index / (quotient + 1)
                         : remainder + (index - large) / quotient;
  }

  /// Whether every block has the same size (`processes` divides `size`).
  constexpr bool isEven() const { return size % processes == 0; }
};

static_assert(
    ShardBlocks{5, 3}.offset(1) == 2 && ShardBlocks{5, 3}.count(2) == 1 &&
        ShardBlocks{1, 3}.offset(2) == 1 && ShardBlocks{1, 3}.count(2) == 0 &&
        ShardBlocks{8, 4}.offset(3) == 6 && ShardBlocks{5, 3}.owner(1) == 0 &&
        ShardBlocks{5, 3}.owner(2) == 1 && ShardBlocks{5, 3}.owner(4) == 2 &&
        ShardBlocks{1, 3}.owner(0) == 0,
    "the balanced blocks of ShardBlocks.h");

} // namespace gather

#endif // GATHER_RUNTIME_SHARDBLOCKS_H
