//===- UpstreamWorkarounds.cpp - What MLIR 22.1's shard passes lack -------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See UpstreamWorkarounds.h: what each workaround stands in for, and when it
// can go.
//
//===----------------------------------------------------------------------===//

#include "UpstreamWorkarounds.h"

#include "gather/Dialect/ONNX/Sharding/Sharding.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::shard;
using namespace gather;

//===----------------------------------------------------------------------===//
// shard.sharding without split axes
//===----------------------------------------------------------------------===//

Value ONNX::createReplicatedSharding(OpBuilder &builder, Location loc,
                                     FlatSymbolRefAttr grid) {
  return ShardingOp::create(builder, loc, grid,
                            GridAxesAttr::get(builder.getContext(), {}));
}

//===----------------------------------------------------------------------===//
// shard-partition and arguments without a sharding
//===----------------------------------------------------------------------===//

void ONNX::annotateUnshardedArguments(func::FuncOp function) {
  if (function.isExternal())
    return;
  ShardOp first;
  function.walk([&](ShardOp op) {
    first = op;
    return WalkResult::interrupt();
  });
  Sharding sharding(first.getSharding());
  OpBuilder builder =
      OpBuilder::atBlockBegin(&function.getFunctionBody().front());
  Value replicated;
  for (BlockArgument argument : function.getArguments()) {
    if (!isa<RankedTensorType>(argument.getType()) || argument.use_empty() ||
        llvm::any_of(argument.getUsers(), [](Operation *user) {
          auto shard = dyn_cast<ShardOp>(user);
          return shard && !shard.getAnnotateForUsers();
        }))
      continue;
    if (!replicated)
      replicated = createReplicatedSharding(builder, function.getLoc(),
                                            sharding.getGridAttr());
    auto shard =
        ShardOp::create(builder, function.getLoc(), argument, replicated);
    argument.replaceAllUsesExcept(shard.getResult(), shard);
  }
}

//===----------------------------------------------------------------------===//
// sharding-propagation's errors
//===----------------------------------------------------------------------===//

ONNX::ShardErrorObserver::ShardErrorObserver(MLIRContext *context)
    : handler(context, [this](Diagnostic &diag) {
        seenError |= diag.getSeverity() == DiagnosticSeverity::Error;
        return failure(); // Let it through.
      }) {}
