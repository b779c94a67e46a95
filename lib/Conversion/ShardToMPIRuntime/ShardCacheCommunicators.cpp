//===- ShardCacheCommunicators.cpp - One communicator per site ------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather-shard-cache-communicators (include/gather/Dialect/ONNX/Sharding/
// Passes.td): each mpi.comm_split of convert-shard-to-mpi becomes a call of
// gatherMPICommSplitOnce with a slot of its own. MLIR 22: convert-shard-to-mpi
// makes a communicator per collective and never frees it
// (docs/UpstreamWorkarounds.md).
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/Passes.h"
#include "gather/Dialect/ONNX/Sharding/ShardToMPIContract.h"
#include "gather/RuntimeABI/RuntimeABI.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace gather {
#define GEN_PASS_DEF_SHARDCACHECOMMUNICATORSPASS
#include "gather/Conversion/Passes.h.inc"
} // namespace gather

using namespace mlir;
using namespace gather;

namespace {
struct ShardCacheCommunicatorsPass
    : gather::impl::ShardCacheCommunicatorsPassBase<
          ShardCacheCommunicatorsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The MPI lowering's key: OpenMPI's communicators are pointers; every
    // other value (none, "MPICH", an unknown one) is lowered for MPICH.
    FailureOr<Attribute> implementation =
        dlti::query(module, {StringRef("MPI:Implementation")});
    if (succeeded(implementation))
      if (auto name = dyn_cast<StringAttr>(*implementation))
        if (name.getValue() == "OpenMPI")
          return;

    // The module's own functions: a nested symbol table (a module, lowered
    // on its own; a gpu.module) cannot reach the slots of this one.
    SmallVector<mpi::CommSplitOp> splits;
    for (Operation &op : module.getBody()->getOperations()) {
      if (op.hasTrait<OpTrait::SymbolTable>())
        continue;
      op.walk([&](Operation *nested) {
        if (nested->hasTrait<OpTrait::SymbolTable>())
          return WalkResult::skip();
        if (auto split = dyn_cast<mpi::CommSplitOp>(nested))
          if (!split.getRetval() &&
              !split->hasAttr(ONNX::kOwnCommSplitAttrName))
            splits.push_back(split);
        return WalkResult::advance();
      });
    }
    if (splits.empty())
      return;

    FailureOr<func::FuncOp> callee = getOrDeclareCheckedRuntimeFunction(
        module, RuntimeFunction::MPICommSplitOnce);
    if (failed(callee))
      return signalPassFailure();
    MLIRContext *context = &getContext();
    SymbolTable symbolTable(module);
    Type i64 = IntegerType::get(context, 64);
    Type commType = mpi::CommType::get(context);
    for (mpi::CommSplitOp split : splits) {
      Location loc = split.getLoc();
      OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
      auto slot = LLVM::GlobalOp::create(
          builder, loc, i64, /*isConstant=*/false, LLVM::Linkage::Internal,
          "__gather_mpi_comm_site", builder.getI64IntegerAttr(0));
      symbolTable.insert(slot); // Renamed to be unique.
      builder.setInsertionPoint(split);
      Value address = LLVM::AddressOfOp::create(builder, loc, slot);
      // !mpi.comm is an i64 in the LLVM lowering of the mpi dialect; the
      // casts fold away with it (reconcile-unrealized-casts).
      Value parent =
          UnrealizedConversionCastOp::create(builder, loc, i64, split.getComm())
              .getResult(0);
      auto call = func::CallOp::create(
          builder, loc, *callee,
          ValueRange{parent, split.getColor(), split.getKey(), address});
      Value comm = UnrealizedConversionCastOp::create(builder, loc, commType,
                                                      call.getResult(0))
                       .getResult(0);
      split.getNewcomm().replaceAllUsesWith(comm);
      split.erase();
    }
  }
};
} // namespace
