//===- UpstreamWorkarounds.cpp - What MLIR 22.1's MPI lowering lacks ------===//
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

#include "gather/Conversion/ShardToMPIRuntime/ShardToMPIRuntime.h"

#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::shard;
using namespace gather;

//===----------------------------------------------------------------------===//
// Shard collectives convert-shard-to-mpi cannot lower
//===----------------------------------------------------------------------===//

namespace {

/// A shard.all_slice or shard.all_gather of a tensor without elements (a
/// static size 0 somewhere) -> tensor.empty: nothing to move, and the
/// generic lowerings would slice a dimension of size 0 at offset 0, which
/// tensor.extract_slice/insert_slice reject.
template <typename OpTy>
struct EmptyCollectiveToEmpty : public OpRewritePattern<OpTy> {
  EmptyCollectiveToEmpty(MLIRContext *context)
      : OpRewritePattern<OpTy>(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto inputType = dyn_cast<RankedTensorType>(op.getInput().getType());
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    auto hasZero = [](RankedTensorType type) {
      return type && llvm::is_contained(type.getShape(), 0);
    };
    if (!resultType || !resultType.hasStaticShape() ||
        !(hasZero(inputType) || hasZero(resultType)))
      return rewriter.notifyMatchFailure(op, "has elements");
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, resultType.getShape(),
                                                 resultType.getElementType());
    return success();
  }
};

} // namespace

void gather::populateShardToMPIWorkaroundPatterns(RewritePatternSet &patterns) {
  patterns.add<EmptyCollectiveToEmpty<AllSliceOp>,
               EmptyCollectiveToEmpty<AllGatherOp>>(patterns.getContext());
}

//===----------------------------------------------------------------------===//
// mpi.allreduce's memory effects
//===----------------------------------------------------------------------===//

namespace {

/// mpi.allreduce reads its send buffer and writes its receive buffer.
struct AllReduceMemoryEffects
    : public MemoryEffectOpInterface::ExternalModel<AllReduceMemoryEffects,
                                                    mpi::AllReduceOp> {
  void
  getEffects(Operation *op,
             SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) const {
    auto allReduce = cast<mpi::AllReduceOp>(op);
    effects.emplace_back(MemoryEffects::Read::get(),
                         &allReduce.getSendbufMutable(),
                         SideEffects::DefaultResource::get());
    effects.emplace_back(MemoryEffects::Read::get(),
                         &allReduce.getRecvbufMutable(),
                         SideEffects::DefaultResource::get());
    effects.emplace_back(MemoryEffects::Write::get(),
                         &allReduce.getRecvbufMutable(),
                         SideEffects::DefaultResource::get());
  }
};

} // namespace

void gather::registerMPIAllReduceMemoryEffects(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, mpi::MPIDialect *) {
    mpi::AllReduceOp::attachInterface<AllReduceMemoryEffects>(*context);
  });
}

void gather::registerShardToMPIRuntimeExternalModels(
    DialectRegistry &registry) {
  registerMPIAllReduceMemoryEffects(registry);
}
