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

#include "PartitionedGather.h"
#include "ShardGathers.h"
#include "UpstreamWorkarounds.h"
#include "gather/Dialect/ONNX/GatherElementsView.h"
#include "gather/Dialect/ONNX/Sharding/ShardingOptions.h"
#include "gather/Dialect/ONNX/Sharding/TrafficModel.h"
#include "gather/Support/CheckedSize.h"
#include "gather/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gather-shard"

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

/// How well dimension `dim` of the gather splits into `processes` blocks
/// (ShardBlocks.h): a rank, lower is better, or std::nullopt when it cannot
/// be split (see the pass description). Better: every process owns rows (the
/// size is at least `processes`), then off the axis (no communication for
/// the data), then equal blocks.
static std::optional<int64_t> getSplitRank(const ONNX::GatherElementsView &op,
                                           int64_t dim, int64_t processes) {
  auto dataType = cast<RankedTensorType>(op.data.getType());
  auto indicesType = cast<RankedTensorType>(op.indices.getType());
  int64_t rank = dataType.getRank();
  int64_t axis = ONNX::normalizeAxis(op.axis, rank);
  // Empty operands stay replicated: there is nothing to share out, and
  // slicing a dimension of size 0 (even at offset 0) is invalid IR. So do
  // operands of more bytes than int64_t counts (no buffer has them): the
  // schemes and the lookup's strides are computed in int64_t.
  auto isSplittable = [](RankedTensorType type) {
    std::optional<int64_t> bytes = gather::getCheckedNumElements(
        type.getShape(),
        gather::getElementBytes(type.getElementType()).value_or(1));
    return type.hasStaticShape() && bytes && *bytes > 0;
  };
  if (dim < 0 || dim >= rank || !isSplittable(dataType) ||
      !isSplittable(indicesType))
    return std::nullopt;
  int64_t size =
      dim == axis ? dataType.getDimSize(dim) : indicesType.getDimSize(dim);
  if (dim != axis && dataType.getDimSize(dim) != size)
    return std::nullopt;
  return (size < processes ? 4 : 0) + (dim == axis ? 2 : 0) +
         (ShardBlocks{size, processes}.isEven() ? 0 : 1);
}

/// The static size of the dimension `dim` that the gather `op` is split
/// along: of `data` for the axis, else of `indices`.
static int64_t getSplitSize(const ONNX::GatherElementsView &op, int64_t dim,
                            int64_t axis) {
  return cast<RankedTensorType>(dim == axis ? op.data.getType()
                                            : op.indices.getType())
      .getDimSize(dim);
}

Value ONNX::createBlockSlice(OpBuilder &builder, Location loc, Value value,
                             int64_t dim, OpFoldResult lo, OpFoldResult count) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), builder.getIndexAttr(0)),
      sizes, strides(type.getRank(), builder.getIndexAttr(1));
  for (int64_t size : type.getShape())
    sizes.push_back(builder.getIndexAttr(size));
  offsets[dim] = lo;
  sizes[dim] = count;
  return tensor::ExtractSliceOp::create(builder, loc, value, offsets, sizes,
                                        strides);
}

OpFoldResult ONNX::getBlockSize(OpBuilder &builder, ShardBlocks blocks,
                                Value count) {
  if (blocks.isEven())
    return builder.getIndexAttr(blocks.count(0));
  return count;
}

ShapedType ONNX::getSlabType(Type type, int64_t dim, ShardBlocks blocks) {
  auto shaped = cast<ShapedType>(type);
  SmallVector<int64_t> shape(shaped.getShape());
  shape[dim] = blocks.isEven() ? blocks.count(0) : ShapedType::kDynamic;
  return shaped.clone(shape);
}

Value ONNX::createAllGather(OpBuilder &builder, Location loc,
                            StringAttr gridName, Value slab,
                            RankedTensorType wholeType, int64_t dim) {
  auto slabType = cast<RankedTensorType>(slab.getType());
  SmallVector<GridAxis> gridAxes = {0};
  Type gatheredType = slabType.isDynamicDim(dim) ? slabType : wholeType;
  Value whole = AllGatherOp::create(builder, loc, gatheredType, gridName,
                                    gridAxes, slab, APInt(64, dim))
                    .getResult();
  if (whole.getType() != wholeType)
    whole = tensor::CastOp::create(builder, loc, wholeType, whole);
  return whole;
}

Block *ONNX::createOutlinedFunction(Operation *op, SymbolTable &symbolTable,
                                    OpBuilder &builder, TypeRange resultTypes) {
  Location loc = op->getLoc();
  auto module = cast<ModuleOp>(symbolTable.getOp());
  builder.setInsertionPointToEnd(module.getBody());
  auto function = func::FuncOp::create(
      builder, loc, "gather_shard",
      builder.getFunctionType(op->getOperandTypes(), resultTypes));
  function.setPrivate();
  function->setAttr(ONNX::kOutlinedGatherAttrName, builder.getUnitAttr());
  symbolTable.insert(function); // Renamed if the name is taken.
  builder.setInsertionPoint(op);
  auto call = func::CallOp::create(builder, loc, function, op->getOperands());
  for (auto [result, replacement] :
       llvm::zip(op->getResults(), call.getResults())) {
    result.replaceAllUsesWith(replacement);
  }
  Block *body = function.addEntryBlock();
  builder.setInsertionPointToStart(body);
  return body;
}

Value ONNX::createAxisSplit(OpBuilder &builder, Location loc, Operation *op,
                            AxisScheme scheme, Value data, bool dataIsSlab,
                            Value indices, Value lo, Value count, Value process,
                            ShardBlocks blocks, int64_t axis,
                            StringAttr gridName) {
  SmallVector<GridAxis> gridAxes = {0};
  auto indicesType = cast<RankedTensorType>(indices.getType());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Value axisSize = arith::ConstantIndexOp::create(builder, loc, blocks.size);
  SmallVector<Value> offsets, globalSizes;
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  for (int64_t d = 0; d < indicesType.getRank(); ++d) {
    offsets.push_back(zero);
    globalSizes.push_back(arith::ConstantIndexOp::create(
        builder, loc, indicesType.getDimSize(d)));
  }
  // (all-gather-data: the local gather's own check, below.)
  auto check = [&] {
    ONNX::createGlobalIndexCheck(builder, loc, op, indices, offsets,
                                 globalSizes, gridName, gridAxes, axisSize);
  };
  switch (scheme) {
  case AxisScheme::AllReduce: {
    // A process with no block (fewer indices than processes) reads one
    // index of `data` that its mask never selects: no empty slice, no
    // access out of bounds.
    Value dataBlock = data;
    if (!dataIsSlab) {
      Value sliceLo = lo, sliceCount = count;
      if (blocks.size < blocks.processes) {
        sliceLo = arith::MinUIOp::create(
            builder, loc, lo,
            arith::ConstantIndexOp::create(builder, loc, blocks.size - 1));
        sliceCount = arith::MaxUIOp::create(
            builder, loc, count,
            arith::ConstantIndexOp::create(builder, loc, 1));
      }
      dataBlock =
          createBlockSlice(builder, loc, data, axis, sliceLo, sliceCount);
    }
    check();
    Value masked = ONNX::createMaskedGather(builder, loc, axis, dataBlock,
                                            indices, lo, count, axisSize);
    return ONNX::createBitExactAllReduce(builder, loc, masked, gridName,
                                         gridAxes);
  }
  case AxisScheme::AllGatherData: {
    Value dataBlock =
        dataIsSlab ? data
                   : createBlockSlice(builder, loc, data, axis, lo,
                                      getBlockSize(builder, blocks, count));
    auto dataType = cast<RankedTensorType>(data.getType());
    SmallVector<int64_t> wholeShape(dataType.getShape());
    wholeShape[axis] = blocks.size;
    Value whole = createAllGather(builder, loc, gridName, dataBlock,
                                  dataType.clone(wholeShape), axis);
    Operation *gathered = whole.getDefiningOp();
    if (auto cast = dyn_cast<tensor::CastOp>(gathered))
      gathered = cast.getSource().getDefiningOp();
    gathered->setAttr(ONNX::kAssembledAttrName, builder.getStringAttr("data"));
    gathered->setAttr(ONNX::kWholeSizeAttrName,
                      builder.getI64IntegerAttr(blocks.size));
    // Every process holds the whole `indices` and `data`: the gather's
    // own check finds the same first bad index on each. (Checked by the
    // caller, gather-codegen would fuse the gather into the check's loop,
    // before the all_gather.)
    return mlir::clone(builder, op, {resultType}, {whole, indices})
        ->getResult(0);
  }
  case AxisScheme::AllToAll:
    check();
    return ONNX::createAllToAllLookup(
        builder, loc, op, axis, data, dataIsSlab ? lo : zero, indices,
        blocks.size, gridName.getValue(), process, blocks.processes);
  case AxisScheme::Auto: // chooseAxisScheme never chooses it.
    break;
  }
  llvm_unreachable("an axis scheme");
}

namespace {

struct ONNXShardGathersPass
    : public ONNX::impl::ONNXShardGathersPassBase<ONNXShardGathersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (gridSize < 1 || gridSize > kMaxShardGridSize) {
      emitError(module.getLoc(),
                "onnx-shard-gathers: grid-size must be in [1, ")
          << kMaxShardGridSize << "], not " << gridSize.getValue();
      return signalPassFailure();
    }
    if (shardDim < -1) {
      emitError(module.getLoc(),
                "onnx-shard-gathers: shard-dim must be -1 (the "
                "first splittable dimension) or a dimension, not ")
          << shardDim.getValue();
      return signalPassFailure();
    }

    ONNX::ShardIOSplit ioSplit(remarks);
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
      int64_t axis = ONNX::normalizeAxis(op.axis, rank);
      int64_t dim = -1;
      if (shardDim >= rank)
        op.op->emitWarning()
            << "onnx-shard-gathers: shard-dim " << shardDim.getValue()
            << " is not a dimension of this gather's operands (rank " << rank
            << "): it is not partitioned";
      std::optional<int64_t> best;
      for (int64_t d = 0; d < rank; ++d) {
        if (shardDim >= 0 && d != shardDim)
          continue;
        std::optional<int64_t> splitRank = getSplitRank(op, d, gridSize);
        if (splitRank && (!best || *splitRank < *best)) {
          best = splitRank;
          dim = d;
        }
      }
      if (dim < 0) {
        LLVM_DEBUG(llvm::dbgs()
                   << "[gather-shard] " << op.op->getLoc()
                   << ": replicated (no static dimension to split)\n");
        continue; // Replicated: every process computes all of it.
      }
      if (!gridName)
        gridName = createGrid(module, symbolTable);
      ShardBlocks blocks{getSplitSize(op, dim, axis), gridSize};
      LLVM_DEBUG(llvm::dbgs()
                 << "[gather-shard] " << op.op->getLoc() << ": dimension "
                 << dim << (dim == axis ? " (the axis)" : "") << " of size "
                 << blocks.size << " split into blocks of " << blocks.count(0)
                 << (blocks.isEven() ? "" : " and ")
                 << (blocks.isEven()
                         ? ""
                         : std::to_string(blocks.count(blocks.processes - 1)))
                 << "\n");
      AxisScheme scheme = AxisScheme::AllReduce;
      if (dim == axis)
        scheme = chooseAxisScheme(op);
      if (io == ShardIO::Split &&
          ioSplit.outline(op, symbolTable, gridName, dim, axis, blocks, scheme))
        continue;
      // Upstream's shard-partition makes the even splits of the all-reduce
      // scheme; the other schemes are partitioned here, as uneven splits.
      if (blocks.isEven() && scheme == AxisScheme::AllReduce)
        outline(op.op, symbolTable, gridName, dim, axis);
      else
        outlineUneven(op, symbolTable, gridName, dim, axis, blocks, scheme);
    }
    ioSplit.adaptCalls(module, gridName);

    if (!module->hasAttr(DLTIDialect::kMapAttrName))
      module->setAttr(
          DLTIDialect::kMapAttrName,
          MapAttr::get(context,
                       {DataLayoutEntryAttr::get(
                           StringAttr::get(context, kMPIImplementation),
                           StringAttr::get(context, "MPICH"))}));
  }

  /// The scheme of the split of the axis of `op` (axis-scheme; auto: the
  /// fewest bytes per process of TrafficModel.h), with a remark that names
  /// it and each scheme's bytes.
  static int64_t getAxis(const ONNX::GatherElementsView &op) {
    return *op.getNormalizedAxis();
  }

  AxisScheme chooseAxisScheme(const ONNX::GatherElementsView &op) {
    auto dataType = cast<RankedTensorType>(op.data.getType());
    int64_t elements =
        cast<RankedTensorType>(op.indices.getType()).getNumElements();
    int64_t dataElements = dataType.getNumElements();
    int64_t elementBytes =
        getElementBytes(dataType.getElementType()).value_or(1);
    TrafficModel model{gridSize};
    AxisScheme scheme =
        axisScheme == AxisScheme::Auto
            ? model.chooseAxisScheme(elements, dataElements, elementBytes)
            : axisScheme.getValue();
    // The other schemes need a slab on every process.
    bool everyProcessOwns =
        dataType.getDimSize(getAxis(op)) >= static_cast<int64_t>(gridSize);
    if (!everyProcessOwns)
      scheme = AxisScheme::AllReduce;
    auto bytes = [&](AxisScheme s) {
      return model.axisSplit(s, elements, dataElements, elementBytes);
    };
    std::string summary;
    llvm::raw_string_ostream os(summary);
    os << "axis split by " << stringifyEnumOption(kAxisSchemeValues, scheme)
       << " (axis-scheme="
       << stringifyEnumOption(kAxisSchemeValues, axisScheme.getValue())
       << "): " << bytes(scheme) << " bytes per process; model: all-reduce "
       << bytes(AxisScheme::AllReduce) << ", all-gather-data "
       << bytes(AxisScheme::AllGatherData) << ", all-to-all "
       << bytes(AxisScheme::AllToAll) << ", index check "
       << model.indexConsensus()
       << (everyProcessOwns ? ""
                            : " (some processes own no index of the "
                              "axis: all-reduce)");
    LLVM_DEBUG(llvm::dbgs() << "[gather-shard] " << op.op->getLoc() << ": "
                            << summary << "\n");
    if (remarks)
      op.op->emitRemark() << "gather-shard: " << summary;
    return scheme;
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
    OpBuilder builder(context);
    Block *body = ONNX::createOutlinedFunction(op, symbolTable, builder,
                                               op->getResultTypes());

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
    op->erase();
  }

  /// Moves `op` into a private function of its own (called in its place)
  /// that holds it partitioned already: split along `dim` into the uneven
  /// `blocks` (ShardBlocks.h), which shard-partition cannot express (see
  /// verifySplit in ShardingInterfaceImpl.cpp), or along the axis by a
  /// `scheme` other than the all-reduce (even or uneven blocks). Off the
  /// axis: each process gathers its block of rows of `data` and `indices`,
  /// and `shard.all_gather` assembles the result; of the axis: as `scheme`
  /// says (createAxisSplit). The index check is the one of even splits,
  /// with the blocks' offsets.
  void outlineUneven(const ONNX::GatherElementsView &view,
                     SymbolTable &symbolTable, StringAttr gridName, int64_t dim,
                     int64_t axis, ShardBlocks blocks, AxisScheme scheme) {
    Operation *op = view.op;
    Location loc = op->getLoc();
    OpBuilder builder(op->getContext());
    Block *body = ONNX::createOutlinedFunction(op, symbolTable, builder,
                                               op->getResultTypes());
    ImplicitLocOpBuilder ib(loc, builder);
    SmallVector<GridAxis> gridAxes = {0};
    Value process = createProcessLinearIndex(gridName, gridAxes, ib);
    auto [lo, count] = ONNX::createBlockBounds(builder, loc, process, blocks);
    Value data = body->getArgument(0), indices = body->getArgument(1);
    auto indicesType = cast<RankedTensorType>(indices.getType());
    auto dataType = cast<RankedTensorType>(data.getType());
    int64_t rank = indicesType.getRank();
    Value axisSize =
        arith::ConstantIndexOp::create(builder, loc, dataType.getDimSize(axis));
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());

    Value result;
    SmallVector<Value> offsets, globalSizes;
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    for (int64_t d = 0; d < rank; ++d) {
      offsets.push_back(d == dim && dim != axis ? lo : zero);
      globalSizes.push_back(arith::ConstantIndexOp::create(
          builder, loc, indicesType.getDimSize(d)));
    }
    if (dim != axis) {
      Value dataBlock =
          ONNX::createBlockSlice(builder, loc, data, dim, lo, count);
      Value indicesBlock =
          ONNX::createBlockSlice(builder, loc, indices, dim, lo, count);
      SmallVector<int64_t> localShape(resultType.getShape());
      localShape[dim] = ShapedType::kDynamic;
      ONNX::createGlobalIndexCheck(builder, loc, op, indicesBlock, offsets,
                                   globalSizes, gridName, gridAxes, axisSize);
      Operation *local =
          mlir::clone(builder, op, {resultType.clone(localShape)},
                      {dataBlock, indicesBlock});
      local->setAttr(ONNX::kIndicesCheckedByCallerAttrName,
                     builder.getUnitAttr());
      // Dynamic along `dim` as the blocks are (the verifier's rule), cast to
      // the whole size: the lowering of the all_gather reads it there.
      result = AllGatherOp::create(builder, loc, resultType.clone(localShape),
                                   gridName, gridAxes, local->getResult(0),
                                   APInt(64, dim))
                   .getResult();
    } else {
      result = ONNX::createAxisSplit(builder, loc, op, scheme, data,
                                     /*dataIsSlab=*/false, indices, lo, count,
                                     process, blocks, axis, gridName);
    }
    if (result.getType() != resultType)
      result = tensor::CastOp::create(builder, loc, resultType, result);
    func::ReturnOp::create(builder, loc, result);
    op->erase();
  }
};

} // namespace
