//===- UpstreamWorkarounds.h - What MLIR 22.1 lacks -------------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The code gather's sharding passes need only because MLIR 22.1 (Debian's
// 22.1.8) lacks something in its `shard` and `mpi` dialects or passes. Each
// declaration says what upstream lacks and when it can go; delete it with
// its callers once the MLIR gather builds with has the fix (the tests under
// test/Dialect/ONNX/Sharding and test/Integration/MPI then still pass).
//
// Defined in UpstreamWorkarounds.cpp:
//   - createReplicatedSharding: `split_axes = []` does not parse;
//   - annotateUnshardedArguments: shard-partition crashes on an argument
//     without a sharding;
//   - ShardErrorObserver: sharding-propagation reports errors but succeeds;
//   - populateShardToMPIWorkaroundPatterns: upstream's all_slice lowering
//     slices empty tensors;
//   - registerMPIAllReduceMemoryEffects: mpi.allreduce declares no memory
//     effects.
// Workarounds that are part of a pass's design, marked "MLIR 22.1
// workaround" where they are:
//   - ShardGathers.cpp, ONNXShardGathersPass::outline: each gather is moved
//     into a function of its own, since sharding-propagation and
//     shard-partition reject ops without a sharding model (func.call,
//     tensor.cast), fail on non-splat arith.constant tensors and handle one
//     block only;
//   - ShardPartitionFunctions.cpp, the pass itself: it runs the upstream
//     passes only on the functions that hold shard ops (same reason as the
//     outlining);
//   - CollectivesToRuntime.cpp: convert-shard-to-mpi lowers no
//     shard.all_gather (upstream main has mpi.allgather), so gather lowers
//     it to its MPI runtime (MPI_Allgatherv);
//   - ShardingInterfaceImpl.cpp, GatherElementsShardingModel::verifySplit:
//     uneven static splits are errors, since shardDimension only asserts
//     divisibility (no assertions in Debian's build: wrong shapes);
//     ShardGathers.cpp, outlineUneven, partitions the gathers
//     onnx-shard-gathers splits unevenly without shard-partition.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_DIALECT_ONNX_SHARDING_UPSTREAMWORKAROUNDS_H
#define GATHER_LIB_DIALECT_ONNX_SHARDING_UPSTREAMWORKAROUNDS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace gather::ONNX {

/// A `shard.sharding` on `grid` that splits nothing (replicated), written
/// with one empty entry (`split_axes = [[]]`).
///
/// MLIR 22.1 workaround: with no entry, shard.sharding prints
/// `split_axes = []`, which its parser rejects ("expected '['"), so printed
/// IR would not parse again. Remove when `shard.sharding @g split_axes = []`
/// round-trips; then build the op with no split axes.
mlir::Value createReplicatedSharding(mlir::OpBuilder &builder,
                                     mlir::Location loc,
                                     mlir::FlatSymbolRefAttr grid);

/// Declares every ranked tensor argument of `function` (which holds
/// shard.shard ops) that has uses but no shard.shard of its own replicated,
/// on the grid of the first shard.shard in `function`.
///
/// MLIR 22.1 workaround: shard-partition crashes on a ranked tensor argument
/// without a sharding (a replicated one is what such an argument is). Remove
/// when shard-partition treats such arguments as replicated.
void annotateUnshardedArguments(mlir::func::FuncOp function);

/// Notes each error emitted on a context while it lives, and lets it through
/// to the other handlers.
///
/// MLIR 22.1 workaround: sharding-propagation reports the sharding options
/// it rejects as errors but does not fail, and shard-partition may then
/// crash; gather-shard-partition-functions stops at the first error it
/// sees. Remove when sharding-propagation signals a failure after an error.
class ShardErrorObserver {
public:
  explicit ShardErrorObserver(mlir::MLIRContext *context);

  /// Whether an error was emitted since construction.
  bool sawError() const { return seenError; }

private:
  bool seenError = false;
  mlir::ScopedDiagnosticHandler handler;
};

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

} // namespace gather::ONNX

#endif // GATHER_LIB_DIALECT_ONNX_SHARDING_UPSTREAMWORKAROUNDS_H
