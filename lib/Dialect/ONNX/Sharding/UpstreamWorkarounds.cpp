//===- UpstreamWorkarounds.cpp - What MLIR 22.1's shard path lacks --------===//
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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

/// shard.all_gather -> insert_slice into an identity-filled whole tensor +
/// bit-exact all-reduce (sum).
struct AllGatherToAllReduce : public OpRewritePattern<AllGatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AllGatherOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = op.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t gatherAxis = op.getGatherAxis().getSExtValue();
    SymbolTableCollection symbolTable;
    GridOp grid = shard::getGrid(op, op.getGridAttr(), symbolTable);
    if (!grid)
      return rewriter.notifyMatchFailure(op, "unknown grid");
    int64_t processes =
        collectiveProcessGroupSize(op.getGridAxes(), grid.getShape());
    if (ShapedType::isDynamic(processes))
      return rewriter.notifyMatchFailure(op, "dynamic grid");

    SmallVector<OpFoldResult> offsets, sizes, strides;
    SmallVector<Value> dynamicSizes;
    ImplicitLocOpBuilder ib(loc, rewriter);
    for (int64_t d = 0; d < inputType.getRank(); ++d) {
      OpFoldResult size = tensor::getMixedSize(rewriter, loc, input, d);
      sizes.push_back(size);
      strides.push_back(rewriter.getIndexAttr(1));
      Value sizeValue = getValueOrCreateConstantIndexOp(rewriter, loc, size);
      if (d != gatherAxis) {
        offsets.push_back(rewriter.getIndexAttr(0));
        if (resultType.isDynamicDim(d))
          dynamicSizes.push_back(sizeValue);
        continue;
      }
      Value index =
          createProcessLinearIndex(grid.getSymName(), op.getGridAxes(), ib);
      offsets.push_back(
          arith::MulIOp::create(rewriter, loc, index, sizeValue).getResult());
      if (resultType.isDynamicDim(d))
        dynamicSizes.push_back(arith::MulIOp::create(
            rewriter, loc, sizeValue,
            arith::ConstantIndexOp::create(rewriter, loc, processes)));
    }
    Value whole =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                resultType.getElementType(), dynamicSizes);
    whole =
        linalg::FillOp::create(
            rewriter, loc,
            ONNX::getSumIdentity(rewriter, loc, resultType.getElementType()),
            whole)
            .getResult(0);
    whole = tensor::InsertSliceOp::create(rewriter, loc, input, whole, offsets,
                                          sizes, strides);
    rewriter.replaceOp(op, ONNX::createBitExactAllReduce(rewriter, loc, whole,
                                                         grid.getSymName(),
                                                         op.getGridAxes()));
    return success();
  }
};

} // namespace

void ONNX::populateShardToMPIWorkaroundPatterns(RewritePatternSet &patterns) {
  patterns.add<AllGatherToAllReduce, EmptyCollectiveToEmpty<AllSliceOp>,
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

void ONNX::registerMPIAllReduceMemoryEffects(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, mpi::MPIDialect *) {
    mpi::AllReduceOp::attachInterface<AllReduceMemoryEffects>(*context);
  });
}
