//===- ShardPrepareForMPI.cpp - gather-shard-prepare-for-mpi --------------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// gather-shard-prepare-for-mpi: after shard-partition, before
// convert-shard-to-mpi: gatherMPIInit(N) at the entry of every function that
// communicates, and the lowerings of the shard collectives
// convert-shard-to-mpi lacks.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/Sharding/Sharding.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
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

/// gather's MPI runtime (gather/Runtime/GatherMPIRuntime.h).
constexpr StringLiteral kMPIInit = "gatherMPIInit";

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
      func::FuncOp init = getOrDeclareMPIInit(module);
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
    patterns.add<AllGatherToAllReduce, EmptyCollectiveToEmpty<AllSliceOp>,
                 EmptyCollectiveToEmpty<AllGatherOp>>(&getContext());
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
  }

  static func::FuncOp getOrDeclareMPIInit(ModuleOp module) {
    if (auto existing = module.lookupSymbol<func::FuncOp>(kMPIInit))
      return existing;
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto function = func::FuncOp::create(
        builder, module.getLoc(), kMPIInit,
        builder.getFunctionType({builder.getI64Type()}, {}));
    function.setPrivate();
    return function;
  }
};

} // namespace
