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
// shard-partition, run only on the functions that hold shard.shard ops, and
// the calls of the functions whose signature the partition changed.
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
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/MapVector.h"

namespace gather::ONNX {
#define GEN_PASS_DEF_SHARDPARTITIONFUNCTIONSPASS
#include "gather/Dialect/ONNX/Sharding/Passes.h.inc"
} // namespace gather::ONNX

using namespace mlir;
using namespace mlir::shard;
using namespace gather;

namespace {

/// The shardings a function was annotated with at its boundary, before
/// shard-partition: per argument the `shard.shard` of the argument itself
/// (not `annotate_for_users`), per result the one of the returned value;
/// none for a replicated or unannotated one.
struct BoundaryShardings {
  FunctionType before;
  SmallVector<std::optional<Sharding>, 2> arguments, results;
};
} // namespace

static std::optional<Sharding> getOwnSharding(Value value) {
  auto shardingOf = [](ShardOp shard) -> std::optional<Sharding> {
    if (shard.getAnnotateForUsers())
      return std::nullopt;
    return Sharding(shard.getSharding());
  };
  if (auto shard = value.getDefiningOp<ShardOp>())
    return shardingOf(shard);
  for (Operation *user : value.getUsers())
    if (auto shard = dyn_cast<ShardOp>(user))
      if (std::optional<Sharding> sharding = shardingOf(shard))
        return sharding;
  return std::nullopt;
}

static BoundaryShardings getBoundaryShardings(func::FuncOp function) {
  BoundaryShardings boundary;
  boundary.before = function.getFunctionType();
  for (BlockArgument argument : function.getArguments())
    boundary.arguments.push_back(getOwnSharding(argument));
  boundary.results.resize(function.getNumResults());
  function.walk([&](func::ReturnOp ret) {
    for (auto [index, value] : llvm::enumerate(ret.getOperands()))
      if (auto shard = value.getDefiningOp<ShardOp>();
          shard && !shard.getAnnotateForUsers())
        boundary.results[index] = Sharding(shard.getSharding());
  });
  return boundary;
}

/// `value` (whole) cut down to this process's shard of `sharding`
/// (shard.all_slice per split dimension), or `value` when it is not split.
static Value createSlice(OpBuilder &builder, Location loc, Value value,
                         GridOp grid, const Sharding &sharding) {
  for (auto [dim, axes] : llvm::enumerate(sharding.getSplitAxes()))
    if (!axes.empty())
      value =
          AllSliceOp::create(builder, loc, value, grid, axes.asArrayRef(), dim)
              .getResult();
  return value;
}

/// The whole `wholeType` from each process's shard `value` of `sharding`
/// (shard.all_gather per split dimension).
static Value createAssembly(OpBuilder &builder, Location loc, Value value,
                            GridOp grid, const Sharding &sharding,
                            RankedTensorType wholeType) {
  for (auto [dim, axes] : llvm::enumerate(sharding.getSplitAxes())) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (axes.empty() || !type || dim >= static_cast<size_t>(type.getRank()))
      continue;
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] = wholeType.getDimSize(dim);
    value =
        AllGatherOp::create(builder, loc, type.clone(shape), grid.getSymName(),
                            axes.asArrayRef(), value, APInt(64, dim))
            .getResult();
  }
  return value;
}

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
    llvm::MapVector<StringAttr, BoundaryShardings> changed;
    for (func::FuncOp function : functions) {
      ONNX::annotateUnshardedArguments(function);
      BoundaryShardings boundary = getBoundaryShardings(function);
      if (failed(runPipeline(propagation, function)) || errors.sawError() ||
          failed(runPipeline(partition, function)) || errors.sawError())
        return signalPassFailure();
      if (function.getFunctionType() != boundary.before)
        changed.insert({function.getSymNameAttr(), std::move(boundary)});
    }
    if (failed(adaptCalls(changed)))
      signalPassFailure();
  }

  /// Every call of a function whose arguments or results shard-partition
  /// made shards (split by its annotations: the function takes and returns
  /// this process's shards, what `shard-io=split` gives onnx-shard-gathers'
  /// functions) passes this process's shard of each whole value and
  /// assembles each shard result, so the caller sees what it saw before.
  LogicalResult
  adaptCalls(const llvm::MapVector<StringAttr, BoundaryShardings> &changed) {
    if (changed.empty())
      return success();
    SmallVector<func::CallOp> calls;
    getOperation().walk([&](func::CallOp call) {
      if (changed.contains(call.getCalleeAttr().getAttr()))
        calls.push_back(call);
    });
    SymbolTable symbols(getOperation());
    for (func::CallOp call : calls) {
      const BoundaryShardings &boundary =
          changed.find(call.getCalleeAttr().getAttr())->second;
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      FunctionType after = callee.getFunctionType();
      auto fail = [&](StringRef what, unsigned index) {
        return call.emitError()
               << "gather-shard-partition-functions: cannot adapt this call "
                  "of @"
               << call.getCallee() << " to its partitioned signature: " << what
               << " #" << index
               << " has no sharding of its own to slice or assemble it by";
      };
      auto gridOf = [&](const Sharding &sharding) {
        return symbols.lookup<GridOp>(sharding.getGrid());
      };
      OpBuilder builder(call);
      Location loc = call.getLoc();
      SmallVector<Value> operands;
      for (auto [index, operand] : llvm::enumerate(call.getOperands())) {
        Value value = operand;
        const std::optional<Sharding> &sharding = boundary.arguments[index];
        if (value.getType() != after.getInput(index) && sharding &&
            gridOf(*sharding))
          value =
              createSlice(builder, loc, value, gridOf(*sharding), *sharding);
        if (value.getType() != after.getInput(index))
          return fail("argument", index);
        operands.push_back(value);
      }
      auto adapted = func::CallOp::create(builder, loc, callee, operands);
      adapted->setDiscardableAttrs(call->getDiscardableAttrDictionary());
      for (auto [index, result] : llvm::enumerate(adapted.getResults())) {
        Value value = result;
        Type before = call.getResult(index).getType();
        const std::optional<Sharding> &sharding = boundary.results[index];
        auto wholeType = dyn_cast<RankedTensorType>(before);
        if (value.getType() != before && sharding && wholeType &&
            gridOf(*sharding))
          value = createAssembly(builder, loc, value, gridOf(*sharding),
                                 *sharding, wholeType);
        if (value.getType() != before) {
          adapted.erase();
          return fail("result", index);
        }
        call.getResult(index).replaceAllUsesWith(value);
      }
      call.erase();
    }
    return success();
  }
};

} // namespace
