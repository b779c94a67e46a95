//===- ShardPrepareForMPI.cpp - gather-shard-prepare-for-mpi --------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather-shard-prepare-for-mpi: after shard-partition, before
// convert-shard-to-mpi: gatherMPIInit(N) at the entry of every function that
// communicates, and the lowerings of the shard collectives
// convert-shard-to-mpi lacks (UpstreamWorkarounds.h).
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/Sharding/Sharding.h"

#include "UpstreamWorkarounds.h"
#include "gather/Runtime/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace gather::ONNX {
#define GEN_PASS_DEF_SHARDPREPAREFORMPIPASS
#include "gather/Dialect/ONNX/Sharding/Passes.h.inc"
} // namespace gather::ONNX

using namespace mlir;
using namespace mlir::shard;
using namespace gather;

namespace {

struct ShardPrepareForMPIPass
    : public ONNX::impl::ShardPrepareForMPIPassBase<ShardPrepareForMPIPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbolTable;

    // gatherMPIInit(N) at the entry of every function that communicates.
    WalkResult walk = module.walk([&](func::FuncOp function) {
      llvm::SetVector<int64_t> gridSizes;
      WalkResult inner = function.walk([&](Operation *op) {
        if (!isa<ShardDialect>(op->getDialect()) || isa<GridOp>(op))
          return WalkResult::advance();
        auto gridAttr = op->getAttrOfType<FlatSymbolRefAttr>("grid");
        if (!gridAttr)
          return WalkResult::advance();
        GridOp grid = shard::getGrid(op, gridAttr, symbolTable);
        if (!grid) {
          op->emitOpError("refers to an unknown grid ") << gridAttr;
          return WalkResult::interrupt();
        }
        int64_t size = collectiveProcessGroupSize(
            llvm::to_vector(llvm::seq<GridAxis>(0, grid.getRank())),
            grid.getShape());
        if (ShapedType::isDynamic(size)) {
          op->emitOpError("uses grid ")
              << gridAttr << " of dynamic size, which MPI cannot run";
          return WalkResult::interrupt();
        }
        gridSizes.insert(size);
        return WalkResult::advance();
      });
      if (inner.wasInterrupted())
        return WalkResult::interrupt();
      if (gridSizes.empty() || function.isExternal())
        return WalkResult::advance();
      func::FuncOp init =
          getOrDeclareRuntimeFunction(module, RuntimeFunction::MPIInit);
      OpBuilder builder =
          OpBuilder::atBlockBegin(&function.getFunctionBody().front());
      for (int64_t size : gridSizes)
        func::CallOp::create(builder, function.getLoc(), init,
                             ValueRange{arith::ConstantIntOp::create(
                                 builder, function.getLoc(), size, 64)});
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    populateAllSliceOpLoweringPatterns(patterns, symbolTable);
    // What convert-shard-to-mpi cannot lower (MLIR 22.1 workarounds).
    ONNX::populateShardToMPIWorkaroundPatterns(patterns);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
