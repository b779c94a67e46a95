//===- CollectivesToRuntime.cpp - Shard collectives as MPI calls ----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See CollectivesToRuntime.h.
//
//===----------------------------------------------------------------------===//

#include "CollectivesToRuntime.h"

#include "gather/Dialect/ONNX/Sharding/ShardToMPIContract.h"
#include "gather/Dialect/ONNX/Sharding/TrafficModel.h"
#include "gather/RuntimeABI/RuntimeABI.h"
#include "gather/Support/CheckedSize.h"
#include "gather/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gather-shard"

using namespace mlir;
using namespace mlir::shard;
using namespace gather;

/// The bytes of one element of `type` (verified shardable: an integer,
/// float or complex type).
static int64_t getShardedElementBytes(Type type) {
  return gather::getElementBytes(type).value_or(1);
}

/// The `materialize_in_destination` in the same block that `result` (its
/// only use) writes into a row-major memref it may write (`restrict
/// writable`), or null.
static bufferization::MaterializeInDestinationOp
getRowMajorDestination(Value result) {
  if (!result.hasOneUse())
    return {};
  auto materialize = dyn_cast<bufferization::MaterializeInDestinationOp>(
      *result.getUsers().begin());
  if (!materialize || !materialize.getRestrict() ||
      !materialize.getWritable() ||
      materialize->getBlock() != result.getParentBlock())
    return {};
  auto type = dyn_cast<MemRefType>(materialize.getDest().getType());
  if (!type || !type.getLayout().isIdentity() ||
      type.getElementType() != getElementTypeOrSelf(result.getType()))
    return {};
  return materialize;
}

/// The address of the first element of the row-major `memref`.
static Value getAddress(OpBuilder &b, Location loc, Value memref) {
  return ONNX::createBufferAddress(b, loc, memref);
}

static Value createI64(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 64);
}

static Value toI64(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

/// The product of the sizes of `value` in [begin, end), as an index.
static Value createSizeProduct(OpBuilder &b, Location loc, Value value,
                               int64_t begin, int64_t end) {
  Value product = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = begin; d < end; ++d)
    product = arith::MulIOp::create(
        b, loc, product,
        getValueOrCreateConstantIndexOp(
            b, loc, tensor::getMixedSize(b, loc, value, d)));
  return product;
}

/// The (splitId, color, key) arguments that name the group of the
/// processes of `gridAxes` of `grid` (GatherMPIRuntime.h): splitId 0 for the
/// whole grid, else a hash of the grid's shape and the axes (the same for
/// equal groups, in any module).
static SmallVector<Value> createGroupArguments(ImplicitLocOpBuilder &b,
                                               GridOp grid,
                                               ArrayRef<GridAxis> gridAxes) {
  ArrayRef<int64_t> shape = grid.getShape();
  SmallVector<GridAxis> others;
  for (GridAxis axis = 0; axis < static_cast<GridAxis>(shape.size()); ++axis)
    if (!llvm::is_contained(gridAxes, axis) && shape[axis] != 1)
      others.push_back(axis);
  Location loc = b.getLoc();
  if (others.empty())
    return {createI64(b, loc, 0), createI64(b, loc, 0), createI64(b, loc, 0)};
  // FNV-1a of the shape and the axes: stable across processes and runs.
  uint64_t hash = 14695981039346656037ull;
  auto mix = [&](int64_t value) {
    hash = (hash ^ static_cast<uint64_t>(value)) * 1099511628211ull;
  };
  for (int64_t size : shape)
    mix(size);
  mix(-1);
  for (GridAxis axis : gridAxes)
    mix(axis);
  int64_t splitId = static_cast<int64_t>(hash | 1); // Never 0.
  StringRef name = grid.getSymName();
  return {createI64(b, loc, splitId),
          toI64(b, loc, createProcessLinearIndex(name, others, b)),
          toI64(b, loc, createProcessLinearIndex(name, gridAxes, b))};
}

/// The collective's grid and the number of processes of its group, or
/// failure (unknown grid, dynamic size).
static FailureOr<std::pair<GridOp, int64_t>>
getGroup(Operation *op, FlatSymbolRefAttr gridAttr,
         ArrayRef<GridAxis> gridAxes) {
  SymbolTableCollection symbolTable;
  GridOp grid = shard::getGrid(op, gridAttr, symbolTable);
  if (!grid)
    return failure();
  int64_t processes = collectiveProcessGroupSize(gridAxes, grid.getShape());
  if (ShapedType::isDynamic(processes))
    return failure();
  return std::make_pair(grid, processes);
}

/// The static bytes of `type`, or -1.
static int64_t getStaticBytes(RankedTensorType type) {
  return gather::getCheckedNumElements(
             type.getShape(), getShardedElementBytes(type.getElementType()))
      .value_or(-1);
}

/// Calls gatherMPIAllreduceSumBits on the row-major buffer at `address`
/// holding `count` elements of `type`.
static void createAllReduceCall(OpBuilder &b, Location loc, ModuleOp module,
                                Value address, Value count, Type type,
                                ArrayRef<Value> groupArguments) {
  bool complex = isa<ComplexType>(type);
  int64_t elementBytes = getShardedElementBytes(type) / (complex ? 2 : 1);
  if (complex)
    count = arith::MulIOp::create(b, loc, count,
                                  arith::ConstantIndexOp::create(b, loc, 2));
  SmallVector<Value> arguments = {address, toI64(b, loc, count),
                                  createI64(b, loc, elementBytes)};
  llvm::append_range(arguments, groupArguments);
  func::CallOp::create(
      b, loc,
      getOrDeclareRuntimeFunction(module, RuntimeFunction::MPIAllreduceSumBits),
      arguments);
}

/// Calls gatherMPIAllgatherv on the row-major buffer at `address` holding
/// the whole tensor, of `wholeSize` indices along `axis`, split there into
/// the blocks of ShardBlocks.h; `local` is this process's block.
static void createAllGatherCall(OpBuilder &b, Location loc, ModuleOp module,
                                Value address, Value local, int64_t axis,
                                Value wholeSize,
                                ArrayRef<Value> groupArguments) {
  auto type = cast<RankedTensorType>(local.getType());
  Value outer = createSizeProduct(b, loc, local, 0, axis);
  Value slice = arith::MulIOp::create(
      b, loc, createSizeProduct(b, loc, local, axis + 1, type.getRank()),
      arith::ConstantIndexOp::create(
          b, loc, getShardedElementBytes(type.getElementType())));
  SmallVector<Value> arguments = {address, toI64(b, loc, outer),
                                  toI64(b, loc, slice),
                                  toI64(b, loc, wholeSize)};
  llvm::append_range(arguments, groupArguments);
  func::CallOp::create(
      b, loc,
      getOrDeclareRuntimeFunction(module, RuntimeFunction::MPIAllgatherv),
      arguments);
}

/// Sets the insertion point of `b` where the ops that place a collective's
/// input in its destination `destination` go: as early as possible in the
/// collective's block (its start, or after the definition of
/// `destination` there), so that they dominate the ops that compute the
/// input (empty tensor elimination can then compute it in place).
static void setEarlyInsertionPoint(OpBuilder &b, Operation *collective,
                                   Value destination) {
  Block *block = collective->getBlock();
  Operation *definition = destination.getDefiningOp();
  if (definition && definition->getBlock() == block)
    b.setInsertionPointAfter(definition);
  else
    b.setInsertionPointToStart(block);
}

/// Replaces `materialize` (of a collective's result) by one of `value`
/// into `destination` (a memref), and returns the insertion point after it.
static void rematerialize(PatternRewriter &rewriter,
                          bufferization::MaterializeInDestinationOp materialize,
                          Value value, Value destination) {
  rewriter.setInsertionPoint(materialize);
  auto replacement = bufferization::MaterializeInDestinationOp::create(
      rewriter, materialize.getLoc(), TypeRange{}, value, destination,
      /*restrict=*/true, /*writable=*/true);
  rewriter.eraseOp(materialize);
  rewriter.setInsertionPointAfter(replacement);
}

namespace {

/// A marked shard.all_reduce (sum of bit patterns) ->
/// gatherMPIAllreduceSumBits, in place: in the destination of the result
/// (getRowMajorDestination), else in the buffer of the input.
struct BitExactAllReduceToRuntime : public OpRewritePattern<AllReduceOp> {
  BitExactAllReduceToRuntime(MLIRContext *context, bool remarks)
      : OpRewritePattern(context), remarks(remarks) {}

  LogicalResult matchAndRewrite(AllReduceOp op,
                                PatternRewriter &rewriter) const override {
    if (!op->hasAttr(ONNX::kBitExactSumAttrName) ||
        op.getReduction() != ReductionKind::Sum)
      return rewriter.notifyMatchFailure(op, "not a sum of bit patterns");
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || type != op.getInput().getType())
      return rewriter.notifyMatchFailure(op, "not a ranked tensor");
    FailureOr<std::pair<GridOp, int64_t>> group =
        getGroup(op, op.getGridAttr(), op.getGridAxes());
    if (failed(group))
      return rewriter.notifyMatchFailure(op, "unknown grid or dynamic size");
    Location loc = op.getLoc();
    Value input = op.getInput();
    int64_t staticBytes = getStaticBytes(type);
    int64_t modelBytes =
        staticBytes < 0 ? -1
                        : TrafficModel{group->second}.allReduce(staticBytes);
    LLVM_DEBUG(llvm::dbgs() << "[gather-shard] " << loc
                            << ": masked gathers summed by MPI_Allreduce, "
                            << modelBytes << " bytes per process\n");
    if (remarks)
      op.emitRemark() << "gather-shard: masked gathers summed by "
                         "MPI_Allreduce (bit patterns, in place): "
                      << modelBytes << " bytes per process";
    ImplicitLocOpBuilder ib(loc, rewriter);
    ib.setInsertionPoint(op);
    SmallVector<Value> groupArguments =
        createGroupArguments(ib, group->first, op.getGridAxes());
    Value count = createSizeProduct(rewriter, loc, input, 0, type.getRank());
    auto module = op->getParentOfType<ModuleOp>();
    if (bufferization::MaterializeInDestinationOp materialize =
            getRowMajorDestination(op.getResult())) {
      Value destination = materialize.getDest();
      rematerialize(rewriter, materialize, input, destination);
      createAllReduceCall(rewriter, loc, module,
                          getAddress(rewriter, loc, destination), count,
                          type.getElementType(), groupArguments);
      rewriter.eraseOp(op);
      return success();
    }
    Value buffer = bufferization::ToBufferOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()),
        input);
    createAllReduceCall(rewriter, loc, module,
                        getAddress(rewriter, loc, buffer), count,
                        type.getElementType(), groupArguments);
    rewriter.replaceOp(op, bufferization::ToTensorOp::create(
                               rewriter, loc, type, buffer, /*restrict=*/true,
                               /*writable=*/true));
    return success();
  }

  bool remarks;
};

/// shard.all_gather -> the input placed at this process's offset of the
/// whole tensor (its block, ShardBlocks.h), then gatherMPIAllgatherv in place
/// (ShardAssembly::AllGather), or into a whole tensor filled with zero bits
/// first, then gatherMPIAllreduceSumBits (ShardAssembly::AllReduce). In the
/// destination of the result (getRowMajorDestination): the input is
/// materialized in a subview of it; else in a new whole tensor. The whole
/// size of the gather axis is the result's or, when that is dynamic and the
/// result's only use is a tensor.cast to a static size there (an uneven
/// split of onnx-shard-gathers), the cast's, lowered with it.
struct AllGatherToRuntime : public OpRewritePattern<AllGatherOp> {
  AllGatherToRuntime(MLIRContext *context, ShardAssembly assembly, bool remarks)
      : OpRewritePattern(context), assembly(assembly), remarks(remarks) {}

  LogicalResult matchAndRewrite(AllGatherOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = op.getInput();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    if (!inputType || !resultType)
      return rewriter.notifyMatchFailure(op, "not ranked tensors");
    int64_t gatherAxis = op.getGatherAxis().getSExtValue();
    // An uneven split (onnx-shard-gathers): blocks of dynamic size, the
    // whole size in the only use, a tensor.cast to it; the cast is lowered
    // with the all_gather.
    Operation *root = op;
    Value result = op.getResult();
    if (resultType.isDynamicDim(gatherAxis) && result.hasOneUse())
      if (auto cast = dyn_cast<tensor::CastOp>(*result.getUsers().begin()))
        if (auto castType = dyn_cast<RankedTensorType>(cast.getType());
            castType && !castType.isDynamicDim(gatherAxis)) {
          root = cast;
          result = cast.getResult();
          resultType = castType;
        }
    // An all_gather of an axis scheme whose cast to the whole size was
    // folded into its users: the whole size, from its attribute.
    RankedTensorType castBack;
    if (auto wholeSize =
            op->getAttrOfType<IntegerAttr>(ONNX::kWholeSizeAttrName);
        wholeSize && root == op && resultType.isDynamicDim(gatherAxis)) {
      castBack = resultType;
      SmallVector<int64_t> shape(resultType.getShape());
      shape[gatherAxis] = wholeSize.getInt();
      resultType = resultType.clone(shape);
    }
    auto eraseRoot = [&] {
      rewriter.eraseOp(root);
      if (root != op)
        rewriter.eraseOp(op);
    };
    FailureOr<std::pair<GridOp, int64_t>> group =
        getGroup(op, op.getGridAttr(), op.getGridAxes());
    if (failed(group))
      return rewriter.notifyMatchFailure(op, "unknown grid or dynamic size");
    GridOp grid = group->first;
    int64_t processes = group->second;
    // What an axis scheme assembles (data, lookups) always goes through
    // MPI_Allgatherv: the scheme's model counts it so.
    auto assembled = op->getAttrOfType<StringAttr>(ONNX::kAssembledAttrName);
    bool allGather = assembly == ShardAssembly::AllGather || assembled;
    int64_t staticBytes = getStaticBytes(resultType);
    TrafficModel model{processes};
    int64_t modelBytes = staticBytes < 0 ? -1
                         : allGather     ? model.allGather(staticBytes)
                                         : model.allReduce(staticBytes);
    StringRef what = assembled ? assembled.getValue() : "result";
    LLVM_DEBUG(llvm::dbgs()
               << "[gather-shard] " << loc << ": " << what << " assembled by "
               << (allGather ? "MPI_Allgatherv" : "MPI_Allreduce") << ", "
               << modelBytes << " bytes per process\n");
    if (remarks)
      op.emitRemark() << "gather-shard: " << what << " assembled by "
                      << (assembled ? "MPI_Allgatherv"
                          : allGather
                              ? "MPI_Allgatherv (shard-assembly=all-gather)"
                              : "MPI_Allreduce (shard-assembly=all-reduce)")
                      << " in place: " << modelBytes << " bytes per process";

    // Where the input goes: the destination, or a new whole tensor. The
    // offsets (and the subview) come early when the input's shape is
    // static, so that the input can be computed in place.
    bufferization::MaterializeInDestinationOp materialize =
        castBack ? bufferization::MaterializeInDestinationOp()
                 : getRowMajorDestination(result);
    ImplicitLocOpBuilder ib(loc, rewriter);
    // A block of an uneven split: dynamic only along the gather axis, whose
    // size (this process's count, ShardBlocks.h) is known without the input.
    bool unevenBlock =
        !resultType.isDynamicDim(gatherAxis) &&
        llvm::all_of(llvm::seq<int64_t>(0, inputType.getRank()),
                     [&](int64_t d) {
                       return d == gatherAxis || !inputType.isDynamicDim(d);
                     });
    if (!inputType.hasStaticShape() && !unevenBlock)
      ib.setInsertionPoint(op);
    else if (materialize)
      setEarlyInsertionPoint(ib, op, materialize.getDest());
    else
      ib.setInsertionPointToStart(op->getBlock());
    SmallVector<Value> groupArguments =
        createGroupArguments(ib, grid, op.getGridAxes());
    Value key =
        createProcessLinearIndex(grid.getSymName(), op.getGridAxes(), ib);
    SmallVector<OpFoldResult> offsets, sizes,
        strides(inputType.getRank(), rewriter.getIndexAttr(1));
    SmallVector<Value> dynamicSizes;
    Value wholeSize; // Of the gather axis.
    for (int64_t d = 0; d < inputType.getRank(); ++d) {
      if (d == gatherAxis && unevenBlock) {
        // The process's block (ShardBlocks.h; uneven when onnx-shard-gathers
        // split a size that is not a multiple of the processes).
        ShardBlocks blocks{resultType.getDimSize(d), processes};
        auto [lo, count] = ONNX::createBlockBounds(ib, loc, key, blocks);
        offsets.push_back(lo);
        sizes.push_back(inputType.isDynamicDim(d)
                            ? OpFoldResult(count)
                            : ib.getIndexAttr(inputType.getDimSize(d)));
        wholeSize = arith::ConstantIndexOp::create(ib, blocks.size);
        continue;
      }
      OpFoldResult size = tensor::getMixedSize(ib, loc, input, d);
      sizes.push_back(size);
      Value sizeValue = getValueOrCreateConstantIndexOp(ib, loc, size);
      if (d != gatherAxis) {
        offsets.push_back(ib.getIndexAttr(0));
        if (resultType.isDynamicDim(d))
          dynamicSizes.push_back(sizeValue);
        continue;
      }
      // Equal blocks of a dynamic whole (a static split).
      offsets.push_back(arith::MulIOp::create(ib, key, sizeValue).getResult());
      wholeSize = arith::MulIOp::create(
          ib, sizeValue, arith::ConstantIndexOp::create(ib, processes));
      dynamicSizes.push_back(wholeSize);
    }
    Type elementType = resultType.getElementType();
    Value identity;
    if (!allGather)
      identity = ONNX::getSumIdentity(ib, loc, elementType);
    auto module = op->getParentOfType<ModuleOp>();
    auto createCall = [&](Value address, Value whole) {
      if (allGather)
        createAllGatherCall(rewriter, loc, module, address, input, gatherAxis,
                            wholeSize, groupArguments);
      else
        createAllReduceCall(
            rewriter, loc, module, address,
            createSizeProduct(rewriter, loc, whole, 0, resultType.getRank()),
            elementType, groupArguments);
    };

    if (materialize) {
      Value destination = materialize.getDest();
      if (!allGather) // Zero bits first (before the subview is a tensor).
        linalg::FillOp::create(ib, ValueRange{identity},
                               ValueRange{destination});
      Value slab =
          memref::SubViewOp::create(ib, destination, offsets, sizes, strides);
      rematerialize(rewriter, materialize, input, slab);
      createCall(getAddress(rewriter, loc, destination), result);
      eraseRoot();
      return success();
    }
    Value whole = tensor::EmptyOp::create(ib, resultType.getShape(),
                                          elementType, dynamicSizes);
    if (!allGather)
      whole = linalg::FillOp::create(ib, identity, whole).getResult(0);
    rewriter.setInsertionPoint(op);
    whole = tensor::InsertSliceOp::create(rewriter, loc, input, whole, offsets,
                                          sizes, strides);
    Value buffer = bufferization::ToBufferOp::create(
        rewriter, loc,
        MemRefType::get(resultType.getShape(), resultType.getElementType()),
        whole);
    createCall(getAddress(rewriter, loc, buffer), whole);
    Value replacement = bufferization::ToTensorOp::create(
        rewriter, loc, resultType, buffer, /*restrict=*/true,
        /*writable=*/true);
    if (castBack)
      replacement =
          tensor::CastOp::create(rewriter, loc, castBack, replacement);
    rewriter.replaceAllUsesWith(result, replacement);
    eraseRoot();
    return success();
  }

  ShardAssembly assembly;
  bool remarks;
};

} // namespace

void gather::populateCollectivesToRuntimePatterns(RewritePatternSet &patterns,
                                                  ShardAssembly assembly,
                                                  bool remarks) {
  patterns.add<BitExactAllReduceToRuntime>(patterns.getContext(), remarks);
  patterns.add<AllGatherToRuntime>(patterns.getContext(), assembly, remarks);
}
