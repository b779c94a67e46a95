//===- ShardPartitionFunctions.cpp - gather-shard-partition-functions -----===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather-shard-partition-functions: MLIR's sharding-propagation and
// shard-partition, run only on the functions that hold shard.shard ops.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/Sharding/Sharding.h"

#include "UpstreamWorkarounds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/PassManager.h"

namespace gather::ONNX {
#define GEN_PASS_DEF_SHARDPARTITIONFUNCTIONSPASS
#include "gather/Dialect/ONNX/Sharding/Passes.h.inc"
} // namespace gather::ONNX

using namespace mlir;
using namespace mlir::shard;
using namespace gather;

namespace {

/// sharding-propagation + shard-partition on the functions that hold
/// shard.shard ops.
///
/// MLIR 22.1 workaround (UpstreamWorkarounds.h lists them all): the two
/// passes reject ops without a sharding model (func.call, tensor.cast, ...)
/// even in functions with nothing to partition, so they run only where
/// shard ops are. The pass can become `func.func(sharding-propagation,
/// shard-partition)` when they leave such functions alone and the
/// workarounds it calls (annotateUnshardedArguments, ShardErrorObserver) are
/// gone.
struct ShardPartitionFunctionsPass
    : public ONNX::impl::ShardPartitionFunctionsPassBase<
          ShardPartitionFunctionsPass> {
  using Base::Base;

  void runOnOperation() override {
    OpPassManager propagation(func::FuncOp::getOperationName());
    propagation.addPass(createShardingPropagation());
    OpPassManager partition(func::FuncOp::getOperationName());
    partition.addPass(createPartition());
    SmallVector<func::FuncOp> functions;
    getOperation().walk([&](func::FuncOp function) {
      if (function.walk([](ShardOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        functions.push_back(function);
    });
    // Stop at the first error (sharding-propagation reports errors but goes
    // on).
    ONNX::ShardErrorObserver errors(&getContext());
    for (func::FuncOp function : functions) {
      ONNX::annotateUnshardedArguments(function);
      if (failed(runPipeline(propagation, function)) || errors.sawError() ||
          failed(runPipeline(partition, function)) || errors.sawError())
        return signalPassFailure();
    }
  }
};

} // namespace
