//===- ShardGathers.cpp - onnx-shard-gathers ------------------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-shard-gathers: annotates every onnx.GatherElements for a 1-D grid of
// processes, each outlined into a function of its own (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/Sharding/Sharding.h"

#include "UpstreamWorkarounds.h"
#include "gather/Dialect/ONNX/GatherElementsView.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/IR/SymbolTable.h"

namespace gather::ONNX {
#define GEN_PASS_DEF_ONNXSHARDGATHERSPASS
#include "gather/Dialect/ONNX/Sharding/Passes.h.inc"
} // namespace gather::ONNX

using namespace mlir;
using namespace mlir::shard;
using namespace gather;

/// The module attribute convert-shard-to-mpi reads the MPI implementation
/// from (MLIR 22: "MPICH", the default, or "OpenMPI").
constexpr StringLiteral kMPIImplementation = "MPI:Implementation";

/// Whether dimension `dim` of the gather can be split into `processes`
/// even slabs (see the pass description).
static bool canSplit(const ONNX::GatherElementsView &op, int64_t dim,
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

namespace {

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
    // The ops, not their views: outlining one gather replaces its result,
    // which a later gather may read (a view would keep the old value).
    SmallVector<Operation *> gathers;
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
        gathers.push_back(op);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();

    StringAttr gridName;
    SymbolTable symbolTable(module);
    for (Operation *gatherOp : gathers) {
      ONNX::GatherElementsView op = *ONNX::GatherElementsView::get(gatherOp);
      int64_t rank = cast<RankedTensorType>(op.data.getType()).getRank();
      int64_t axis = op.axis < 0 ? op.axis + rank : op.axis;
      int64_t dim = -1;
      if (shardDim >= rank)
        op.op->emitWarning()
            << "onnx-shard-gathers: shard-dim " << shardDim.getValue()
            << " is not a dimension of this gather's operands (rank " << rank
            << "): it is not partitioned";
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
  /// caller. sharding-propagation and shard-partition then see nothing but
  /// shard ops, the gather and func.return.
  ///
  /// MLIR 22.1 workaround (UpstreamWorkarounds.h lists them all): those
  /// passes reject, or crash on, many other ops (func.call, tensor.cast,
  /// non-splat arith.constant tensors, several blocks). The outlining can go
  /// when they partition a function with such ops around the gather; until
  /// then it also lets a gather sit anywhere (in loops, next to calls).
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
    function->setAttr(ONNX::kOutlinedGatherAttrName, builder.getUnitAttr());
    symbolTable.insert(function); // Renamed if the name is taken.
    Block *body = function.addEntryBlock();
    builder.setInsertionPointToStart(body);

    auto grid = FlatSymbolRefAttr::get(gridName);
    SmallVector<GridAxesAttr> splitAxes(dim + 1,
                                        GridAxesAttr::get(context, {}));
    splitAxes[dim] = GridAxesAttr::get(context, {0});
    Value replicated = ONNX::createReplicatedSharding(builder, loc, grid);
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

} // namespace
