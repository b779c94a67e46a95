//===- ShardingPasses.cpp - onnx-shard-gathers, shard-prepare-for-mpi -----===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/Dialect/ONNX/Sharding/Sharding.h"

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
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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
/// gather's MPI runtime (gather/Runtime/GatherMPIRuntime.h).
constexpr StringLiteral kMPIInit = "gatherMPIInit";

/// Whether dimension `dim` of the gather can be split into `processes`
/// even slabs (see the pass description).
bool canSplit(ONNX::GatherElementsOp op, int64_t dim, int64_t processes) {
  auto dataType = cast<RankedTensorType>(op.getData().getType());
  auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
  int64_t rank = dataType.getRank();
  int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
  if (dim < 0 || dim >= rank || !dataType.hasStaticShape() ||
      !indicesType.hasStaticShape())
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
      module.emitError("onnx-shard-gathers: grid-size must be at least 1, "
                       "not ")
          << gridSize.getValue();
      return signalPassFailure();
    }

    SmallVector<ONNX::GatherElementsOp> gathers;
    WalkResult result = module.walk([&](ONNX::GatherElementsOp op) {
      auto dataType = dyn_cast<TensorType>(op.getData().getType());
      if (dataType && isa<ONNX::StringType>(dataType.getElementType())) {
        op.emitOpError("cannot be sharded over processes: 'data' holds "
                       "!onnx.string elements, which point into one "
                       "process's memory");
        return WalkResult::interrupt();
      }
      bool annotated =
          llvm::any_of(op->getOperands(),
                       [](Value v) { return v.getDefiningOp<ShardOp>(); }) ||
          llvm::any_of(op->getUsers(), llvm::IsaPred<ShardOp>);
      if (!annotated && isa<RankedTensorType>(op.getData().getType()) &&
          isa<RankedTensorType>(op.getIndices().getType()) &&
          isa<RankedTensorType>(op.getType()))
        gathers.push_back(op);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();

    StringAttr gridName;
    SymbolTable symbolTable(module);
    for (ONNX::GatherElementsOp op : gathers) {
      int64_t rank = cast<RankedTensorType>(op.getData().getType()).getRank();
      int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
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
      outline(op, symbolTable, gridName, dim, axis);
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
  void outline(ONNX::GatherElementsOp op, SymbolTable &symbolTable,
               StringAttr gridName, int64_t dim, int64_t axis) {
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
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
    auto gather = ONNX::GatherElementsOp::create(
        builder, loc, op.getType(), data, indices, op.getAxisAttr());
    Value slabs = ShardOp::create(builder, loc, gather.getResult(),
                                  dim == axis ? replicated : split);
    Value whole = ShardOp::create(builder, loc, slabs, replicated,
                                  /*annotate_for_users=*/true);
    func::ReturnOp::create(builder, loc, whole);

    builder.setInsertionPoint(op);
    auto call = func::CallOp::create(builder, loc, function, op->getOperands());
    op->replaceAllUsesWith(call.getResults());
    op.erase();
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
    patterns.add<AllGatherToAllReduce>(&getContext());
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
