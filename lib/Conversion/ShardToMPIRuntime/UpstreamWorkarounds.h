//===- UpstreamWorkarounds.h - MLIR 22.1's MPI lowering lacks ---*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The code gather's lowering of shard ops to MPI needs only because MLIR
// 22.1 (Debian's 22.1.8) lacks something in its `mpi` dialect or in
// convert-shard-to-mpi (what its shard passes lack:
// lib/Dialect/ONNX/Sharding/UpstreamWorkarounds.h, the other half;
// docs/UpstreamWorkarounds.md lists both). Each declaration says what
// upstream lacks and when it can go; delete it with its callers once the
// MLIR gather builds with has the fix (the tests under
// test/Conversion/ShardToMPIRuntime and test/Integration/MPI then still
// pass).
//
// Defined in UpstreamWorkarounds.cpp:
//   - populateShardToMPIWorkaroundPatterns: upstream's all_slice lowering
//     slices empty tensors;
//   - registerMPIAllReduceMemoryEffects: mpi.allreduce declares no memory
//     effects.
// Workarounds that are part of a pass's design, marked "MLIR 22.1
// workaround" where they are:
//   - CollectivesToRuntime.cpp: convert-shard-to-mpi lowers no
//     shard.all_gather (upstream main has mpi.allgather), so gather lowers
//     it to its MPI runtime (MPI_Allgatherv);
//   - ShardCacheCommunicators.cpp, the pass itself: convert-shard-to-mpi
//     makes a communicator per collective and never frees it.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CONVERSION_SHARDTOMPIRUNTIME_UPSTREAMWORKAROUNDS_H
#define GATHER_LIB_CONVERSION_SHARDTOMPIRUNTIME_UPSTREAMWORKAROUNDS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace gather {

/// Adds to `patterns` the lowering of shard.all_slice and shard.all_gather
/// of a tensor without elements (a static size 0 somewhere): tensor.empty
/// (benefit 2, before the other lowerings).
///
/// MLIR 22.1 workaround: the all_slice lowering of
/// populateAllSliceOpLoweringPatterns (like gather's all_gather lowering,
/// CollectivesToRuntime.h) slices a dimension of size 0 at offset 0, which
/// tensor.extract_slice and tensor.insert_slice reject. Remove when
/// upstream's lowerings leave tensors without elements alone.
void populateShardToMPIWorkaroundPatterns(mlir::RewritePatternSet &patterns);

/// Registers a MemoryEffectOpInterface model of mpi.allreduce: it reads its
/// send buffer and reads and writes its receive buffer.
///
/// MLIR 22.1 workaround: mpi.allreduce declares no memory effects, which
/// the buffer deallocation pipeline (ownership-based-buffer-deallocation)
/// rejects. Remove when MPIOps.td gives mpi.allreduce MemRead on $sendbuf
/// and MemRead, MemWrite on $recvbuf.
void registerMPIAllReduceMemoryEffects(mlir::DialectRegistry &registry);

} // namespace gather

#endif // GATHER_LIB_CONVERSION_SHARDTOMPIRUNTIME_UPSTREAMWORKAROUNDS_H
