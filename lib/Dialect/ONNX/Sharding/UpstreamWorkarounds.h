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
// 22.1.8) lacks something in its `shard` dialect or passes (what its MPI
// lowering lacks: lib/Conversion/ShardToMPIRuntime/UpstreamWorkarounds.h,
// the other half; docs/UpstreamWorkarounds.md lists both). Each
// declaration says what upstream lacks and when it can go; delete it with
// its callers once the MLIR gather builds with has the fix (the tests under
// test/Dialect/ONNX/Sharding and test/Integration/MPI then still pass).
//
// Defined in UpstreamWorkarounds.cpp:
//   - createReplicatedSharding: `split_axes = []` does not parse;
//   - annotateUnshardedArguments: shard-partition crashes on an argument
//     without a sharding;
//   - ShardErrorObserver: sharding-propagation reports errors but succeeds.
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
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

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

} // namespace gather::ONNX

#endif // GATHER_LIB_DIALECT_ONNX_SHARDING_UPSTREAMWORKAROUNDS_H
