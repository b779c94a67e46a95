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

#include "gather/Conversion/Passes.h"

#include "CollectivesToRuntime.h"
#include "UpstreamWorkarounds.h"
#include "gather/Dialect/ONNX/Sharding/ShardToMPIContract.h"
#include "gather/RuntimeABI/RuntimeABI.h"
#include "gather/RuntimeABI/RuntimeReporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace gather {
#define GEN_PASS_DEF_SHARDPREPAREFORMPIPASS
#include "gather/Conversion/Passes.h.inc"
} // namespace gather

using namespace mlir;
using namespace mlir::shard;
using namespace gather;

/// Inlines every function onnx-shard-gathers outlined a gather into
/// (kOutlinedGatherAttrName; one block, one call) at its call, now that it
/// is partitioned: the gather's result then flows to the caller's
/// destination, where the collectives assemble it in place.
static void inlineOutlinedGathers(ModuleOp module) {
  SmallVector<func::FuncOp> outlined;
  for (auto function : module.getOps<func::FuncOp>())
    if (function->hasAttr(ONNX::kOutlinedGatherAttrName) &&
        llvm::hasSingleElement(function.getBody()))
      outlined.push_back(function);
  for (func::FuncOp function : outlined) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(function, module);
    if (!uses || !llvm::hasSingleElement(*uses))
      continue;
    auto call = dyn_cast<func::CallOp>(uses->begin()->getUser());
    if (!call)
      continue;
    Block &body = function.getBody().front();
    IRMapping mapping;
    mapping.map(body.getArguments(), call.getOperands());
    OpBuilder builder(call);
    for (Operation &op : body.without_terminator())
      builder.clone(op, mapping);
    for (auto [result, returned] :
         llvm::zip(call.getResults(), body.getTerminator()->getOperands()))
      result.replaceAllUsesWith(mapping.lookupOrDefault(returned));
    call.erase();
    function.erase();
  }
}

namespace {

struct ShardPrepareForMPIPass
    : public gather::impl::ShardPrepareForMPIPassBase<ShardPrepareForMPIPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbolTable;
    // The program's own communicators, which
    // gather-shard-cache-communicators must not keep.
    module.walk([&](mpi::CommSplitOp split) {
      split->setAttr(ONNX::kOwnCommSplitAttrName,
                     UnitAttr::get(module.getContext()));
    });
    inlineOutlinedGathers(module);

    // The grid sizes of every function that communicates.
    SmallVector<std::pair<func::FuncOp, llvm::SetVector<int64_t>>> inits;
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
      if (!gridSizes.empty() && !function.isExternal())
        inits.emplace_back(function, std::move(gridSizes));
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    populateAllSliceOpLoweringPatterns(patterns, symbolTable);
    populateCollectivesToRuntimePatterns(patterns, assembly, remarks);
    // What convert-shard-to-mpi cannot lower (MLIR 22.1 workarounds).
    populateShardToMPIWorkaroundPatterns(patterns);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();

    // gatherMPIInit(N) at the entry of every function that communicates,
    // before anything the lowerings put there.
    // Then gatherMPIKernelEnter(site of the function), and
    // gatherMPIKernelExit() before each return: the bounded wait of a call
    // (GatherMPIRuntime.h).
    for (auto &[function, gridSizes] : inits) {
      func::FuncOp init =
          getOrDeclareRuntimeFunction(module, RuntimeFunction::MPIInit);
      Location loc = function.getLoc();
      OpBuilder builder =
          OpBuilder::atBlockBegin(&function.getFunctionBody().front());
      for (int64_t size : gridSizes)
        func::CallOp::create(
            builder, loc, init,
            ValueRange{arith::ConstantIntOp::create(builder, loc, size, 64)});
      LLVM::GlobalOp site = getOrCreateLocationGlobal(module, loc);
      func::CallOp::create(
          builder, loc,
          getOrDeclareRuntimeFunction(module, RuntimeFunction::MPIKernelEnter),
          ValueRange{LLVM::AddressOfOp::create(builder, loc, site)});
      func::FuncOp exit =
          getOrDeclareRuntimeFunction(module, RuntimeFunction::MPIKernelExit);
      function.walk([&](func::ReturnOp ret) {
        builder.setInsertionPoint(ret);
        func::CallOp::create(builder, ret.getLoc(), exit, ValueRange{});
      });
    }
  }
};

} // namespace
