//===- ShardPartitionFunctions.cpp - gather-shard-partition-functions -----===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// gather-shard-partition-functions: MLIR's sharding-propagation and
// shard-partition, run only on the functions that hold shard.shard ops.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/Sharding/Sharding.h"

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

/// shard-partition (MLIR 22) crashes on a ranked tensor argument without a
/// sharding: such arguments are declared replicated (what they are).
static void annotateArguments(func::FuncOp function) {
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
      replicated =
          ShardingOp::create(builder, function.getLoc(), sharding.getGridAttr(),
                             GridAxesAttr::get(function.getContext(), {}));
    auto shard =
        ShardOp::create(builder, function.getLoc(), argument, replicated);
    argument.replaceAllUsesExcept(shard.getResult(), shard);
  }
}

namespace {

/// sharding-propagation + shard-partition on the functions that hold
/// shard.shard ops.
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
    // sharding-propagation reports sharding options it rejects but goes on
    // (and shard-partition may then crash): stop at the first error.
    bool sawError = false;
    ScopedDiagnosticHandler handler(&getContext(), [&](Diagnostic &diag) {
      sawError |= diag.getSeverity() == DiagnosticSeverity::Error;
      return failure(); // Let it through.
    });
    for (func::FuncOp function : functions) {
      annotateArguments(function);
      if (failed(runPipeline(propagation, function)) || sawError ||
          failed(runPipeline(partition, function)) || sawError)
        return signalPassFailure();
    }
  }
};

} // namespace
