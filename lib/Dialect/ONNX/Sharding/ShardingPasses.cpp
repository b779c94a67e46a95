//===- ShardingPasses.cpp - onnx-shard-gathers, gather-shard-prepare-for --===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/Sharding/Sharding.h"

#include "gather/Dialect/ONNX/GatherElementsView.h"
#include "gather/Runtime/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace gather::ONNX {
#define GEN_PASS_DEF_ONNXSHARDGATHERSPASS
#define GEN_PASS_DEF_SHARDPARTITIONFUNCTIONSPASS
#define GEN_PASS_DEF_SHARDPREPAREFORMPIPASS
#include "gather/Dialect/ONNX/Sharding/Passes.h.inc"
} // namespace gather::ONNX

using namespace mlir;
using namespace mlir::shard;
using namespace gather;

namespace {

/// The module attribute convert-shard-to-mpi reads the MPI implementation
/// from (MLIR 22: "MPICH", the default, or "OpenMPI").
constexpr StringLiteral kMPIImplementation = "MPI:Implementation";

/// Whether dimension `dim` of the gather can be split into `processes`
/// even slabs (see the pass description).
bool canSplit(const ONNX::GatherElementsView &op, int64_t dim,
              int64_t processes) {
  auto dataType = cast<RankedTensorType>(op.data.getType());
  auto indicesType = cast<RankedTensorType>(op.indices.getType());
  int64_t rank = dataType.getRank();
  int64_t axis = op.axis < 0 ? op.axis + rank : op.axis;
  // Empty operands stay replicated: there is nothing to share out, and
  // slicing a dimension of size 0 (even at offset 0) is invalid IR.
  if (dim < 0 || dim >= rank || !dataType.hasStaticShape() ||
      !indicesType.hasStaticShape() || dataType.getNumElements() == 0 ||
      indicesType.getNumElements() == 0)
    return false;
  int64_t size =
      dim == axis ? dataType.getDimSize(dim) : indicesType.getDimSize(dim);
  if (dim != axis && dataType.getDimSize(dim) != size)
    return false;
  return size > 0 && size % processes == 0;
}

struct ONNXShardGathersPass
    : public ONNX::impl::ONNXShardGathersPassBase<ONNXShardGathersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (gridSize < 1) {
      emitError(module.getLoc(),
                "onnx-shard-gathers: grid-size must be at least 1, "
                "not ")
          << gridSize.getValue();
      return signalPassFailure();
    }
    if (shardDim < -1) {
      emitError(module.getLoc(),
                "onnx-shard-gathers: shard-dim must be -1 (the "
                "first splittable dimension) or a dimension, not ")
          << shardDim.getValue();
      return signalPassFailure();
    }

    // Every op named onnx.GatherElements with the sharding model (gather's
    // or another onnx dialect's, see registerShardingInterfaceExternalModels).
    SmallVector<ONNX::GatherElementsView> gathers;
    WalkResult result = module.walk([&](Operation *op) {
      std::optional<ONNX::GatherElementsView> gather =
          ONNX::GatherElementsView::get(op);
      if (!gather || !isa<ShardingInterface>(op))
        return WalkResult::advance();
      if (failed(ONNX::verifyShardableData(*gather)))
        return WalkResult::interrupt();
      bool annotated =
          llvm::any_of(op->getOperands(),
                       [](Value v) { return v.getDefiningOp<ShardOp>(); }) ||
          llvm::any_of(op->getUsers(), llvm::IsaPred<ShardOp>);
      auto dataType = dyn_cast<RankedTensorType>(gather->data.getType());
      auto indicesType = dyn_cast<RankedTensorType>(gather->indices.getType());
      int64_t rank = dataType ? dataType.getRank() : 0;
      if (!annotated && dataType && indicesType &&
          isa<RankedTensorType>(gather->getResult().getType()) &&
          indicesType.getRank() == rank && gather->axis >= -rank &&
          gather->axis < rank)
        gathers.push_back(*gather);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();

    StringAttr gridName;
    SymbolTable symbolTable(module);
    for (const ONNX::GatherElementsView &op : gathers) {
      int64_t rank = cast<RankedTensorType>(op.data.getType()).getRank();
      int64_t axis = op.axis < 0 ? op.axis + rank : op.axis;
      int64_t dim = -1;
      if (shardDim >= 0) {
        if (canSplit(op, shardDim, gridSize))
          dim = shardDim;
      } else {
        for (int64_t d = 0; d < rank && dim < 0; ++d)
          if (d != axis && canSplit(op, d, gridSize))
            dim = d;
        if (dim < 0 && canSplit(op, axis, gridSize))
          dim = axis;
      }
      if (dim < 0)
        continue; // Replicated: every process computes all of it.
      if (!gridName)
        gridName = createGrid(module, symbolTable);
      outline(op.op, symbolTable, gridName, dim, axis);
    }

    if (!module->hasAttr(DLTIDialect::kMapAttrName))
      module->setAttr(
          DLTIDialect::kMapAttrName,
          MapAttr::get(context,
                       {DataLayoutEntryAttr::get(
                           StringAttr::get(context, kMPIImplementation),
                           StringAttr::get(context, "MPICH"))}));
  }

  /// A private `shard.grid @gather_grid(shape = gridSize)`.
  StringAttr createGrid(ModuleOp module, SymbolTable &symbolTable) {
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto grid = GridOp::create(builder, module.getLoc(), "gather_grid",
                               ArrayRef<int64_t>{gridSize});
    grid.setPrivate();
    symbolTable.insert(grid); // Renamed if the name is taken.
    return grid.getSymNameAttr();
  }

  /// Moves `op` into a private function of its own (called in its place)
  /// that annotates it: inputs replicated, used as slabs split along `dim`
  /// (only `data` when `dim` is the axis); the result assembled for the
  /// caller. sharding-propagation and shard-partition (MLIR 22) then see
  /// nothing but shard ops, the gather and func.return: they reject, or
  /// crash on, many other ops (func.call, tensor.cast, non-splat
  /// arith.constant tensors, several blocks).
  void outline(Operation *op, SymbolTable &symbolTable, StringAttr gridName,
               int64_t dim, int64_t axis) {
    Location loc = op->getLoc();
    MLIRContext *context = op->getContext();
    auto module = cast<ModuleOp>(symbolTable.getOp());
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto function = func::FuncOp::create(
        builder, loc, "gather_shard",
        builder.getFunctionType(op->getOperandTypes(), op->getResultTypes()));
    function.setPrivate();
    symbolTable.insert(function); // Renamed if the name is taken.
    Block *body = function.addEntryBlock();
    builder.setInsertionPointToStart(body);

    auto grid = FlatSymbolRefAttr::get(gridName);
    SmallVector<GridAxesAttr> splitAxes(dim + 1,
                                        GridAxesAttr::get(context, {}));
    splitAxes[dim] = GridAxesAttr::get(context, {0});
    // (One empty entry: shard.sharding prints `split_axes = []`, which does
    // not parse, for none.)
    Value replicated =
        ShardingOp::create(builder, loc, grid, GridAxesAttr::get(context, {}));
    Value split = ShardingOp::create(builder, loc, grid, splitAxes);
    auto useAs = [&](Value argument, Value sharding) -> Value {
      Value whole = ShardOp::create(builder, loc, argument, replicated);
      return ShardOp::create(builder, loc, whole, sharding,
                             /*annotate_for_users=*/true);
    };
    Value data = useAs(body->getArgument(0), split);
    Value indices =
        useAs(body->getArgument(1), dim == axis ? replicated : split);
    // The op itself (whichever dialect's, with all its attributes).
    Operation *gather =
        mlir::clone(builder, op, op->getResultTypes(), {data, indices});
    Value slabs = ShardOp::create(builder, loc, gather->getResult(0),
                                  dim == axis ? replicated : split);
    Value whole = ShardOp::create(builder, loc, slabs, replicated,
                                  /*annotate_for_users=*/true);
    func::ReturnOp::create(builder, loc, whole);

    builder.setInsertionPoint(op);
    auto call = func::CallOp::create(builder, loc, function, op->getOperands());
    op->replaceAllUsesWith(call.getResults());
    op->erase();
  }
};

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
    patterns.add<AllGatherToAllReduce, EmptyCollectiveToEmpty<AllSliceOp>,
                 EmptyCollectiveToEmpty<AllGatherOp>>(&getContext());
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
