//===- ShardIOSplit.cpp - onnx-shard-gathers with shard-io=split ----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// shard-io=split (docs/Sharding.md, distributed inputs and outputs): a
// split gather's operands and result that cross the boundary of its public
// function become this process's slabs in the function's signature; calls
// of such a function in the module pass slabs and assemble the results.
//
//===----------------------------------------------------------------------===//

#include "ShardGathers.h"

#include "PartitionedGather.h"
#include "gather/Dialect/ONNX/Sharding/Sharding.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gather-shard"

using namespace mlir;
using namespace mlir::shard;
using namespace gather;
using namespace gather::ONNX;

namespace {

/// Where a gather's operand or result crosses the boundary of its public
/// function with io=split: the entry block's argument `argument` (a
/// ranked tensor; or a row-major memref read by the bufferization.to_tensor
/// `access`, or written by the materialize_in_destination `access`), or
/// the function's result `result`.
struct Boundary {
  BlockArgument argument;
  Operation *access = nullptr;
  int64_t result = -1;
  /// Why the value stays whole when there is no boundary.
  StringRef whyWhole = {};

  bool isSplit() const { return argument || result >= 0; }
};

} // namespace

/// The entry block argument of `function` that `value` is, when it has no
/// other use: a ranked tensor, or (`memref`) a memref with the identity
/// layout.
static BlockArgument getOnlyUseArgument(func::FuncOp function, Value value,
                                        bool memref) {
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument || argument.getOwner() != &function.getBody().front() ||
      !argument.hasOneUse())
    return {};
  if (memref) {
    auto type = dyn_cast<MemRefType>(argument.getType());
    return type && type.getLayout().isIdentity() ? argument : BlockArgument();
  }
  return isa<RankedTensorType>(argument.getType()) ? argument : BlockArgument();
}

/// Where the gather operand `operand` comes from the boundary of
/// `function` (see Boundary).
static Boundary getInputBoundary(func::FuncOp function, Value operand) {
  if (!operand.hasOneUse())
    return {{}, nullptr, -1, "it has other uses"};
  if (BlockArgument argument =
          getOnlyUseArgument(function, operand, /*memref=*/false))
    return {argument};
  if (auto toTensor = operand.getDefiningOp<bufferization::ToTensorOp>())
    if (BlockArgument argument =
            getOnlyUseArgument(function, toTensor.getBuffer(), /*memref=*/true))
      return {argument, toTensor};
  return {{}, nullptr, -1, "it is not an argument of the function"};
}

/// Where the gather result `result` goes to the boundary of `function`
/// (see Boundary).
static Boundary getResultBoundary(func::FuncOp function, Value result) {
  if (!result.hasOneUse())
    return {{}, nullptr, -1, "it has several uses"};
  OpOperand &use = *result.getUses().begin();
  Operation *user = use.getOwner();
  if (isa<func::ReturnOp>(user) && user->getParentOp() == function)
    return {{}, nullptr, use.getOperandNumber()};
  if (auto materialize =
          dyn_cast<bufferization::MaterializeInDestinationOp>(user);
      materialize && materialize.getRestrict() && materialize.getWritable())
    if (BlockArgument argument = getOnlyUseArgument(
            function, materialize.getDest(), /*memref=*/true))
      return {argument, materialize};
  return {{}, nullptr, -1, "it is not only returned"};
}

/// io=split: partitions `view` (split along `dim` into `blocks`) with the
/// operands and result that cross the boundary of its public function
/// taken and returned as this process's slabs (the function's signature
/// changes), into a private function of its own as outlineUneven does.
/// Returns false (nothing changed) when no operand or result is a slab.
bool ONNX::ShardIOSplit::outline(const GatherElementsView &view,
                                 SymbolTable &symbolTable, StringAttr gridName,
                                 int64_t dim, int64_t axis, ShardBlocks blocks,
                                 AxisScheme scheme) {
  Operation *op = view.op;
  Location loc = op->getLoc();
  auto function = op->getParentOfType<func::FuncOp>();
  bool offAxis = dim != axis;
  Boundary none{{}, nullptr, -1, "the function is not public"};
  Boundary data = none, indices = none, result = none;
  if (function && function.isPublic() && !function.isExternal()) {
    data = getInputBoundary(function, view.data);
    indices = getInputBoundary(function, view.indices);
    result = getResultBoundary(function, op->getResult(0));
    if (!offAxis) {
      indices.argument = {};
      indices.whyWhole = "the axis is split";
      result.argument = {};
      result.result = -1;
      result.whyWhole = "the axis is split";
      if (blocks.size < blocks.processes) {
        data.argument = {};
        data.whyWhole = "some processes own no index of the axis";
      }
    }
    // One argument for both operands: it stays whole.
    if (data.argument && data.argument == indices.argument)
      data = indices = {{}, nullptr, -1, "it has other uses"};
  }
  auto describe = [](StringRef name, const Boundary &boundary) {
    return (name + (boundary.isSplit()
                        ? StringRef(" a slab")
                        : StringRef(" whole (") + boundary.whyWhole + ")"))
        .str();
  };
  std::string summary = describe("data", data) + ", " +
                        describe("indices", indices) + ", " +
                        describe("the result", result);
  LLVM_DEBUG(llvm::dbgs() << "[gather-shard] " << loc
                          << ": shard-io=split: " << summary << "\n");
  if (remarks)
    op->emitRemark() << "gather-shard: shard-io=split: " << summary;
  if (!data.isSplit() && !indices.isSplit() && !result.isSplit())
    return false;

  // The new signature: each slab's argument (and its to_tensor) retyped.
  SplitSignature &signature = signatures[function];
  Block &entry = function.getBody().front();
  SmallVector<std::pair<int64_t, Value>> checkedSlabs;
  OpBuilder builder(op->getContext());
  builder.setInsertionPointToStart(&entry);
  auto retype = [&](const Boundary &boundary) {
    if (!boundary.argument)
      return;
    BlockArgument argument = boundary.argument;
    argument.setType(getSlabType(argument.getType(), dim, blocks));
    signature.arguments[argument.getArgNumber()] = {
        dim, blocks,
        isa_and_nonnull<bufferization::MaterializeInDestinationOp>(
            boundary.access)};
    if (auto toTensor =
            dyn_cast_or_null<bufferization::ToTensorOp>(boundary.access))
      toTensor.getResult().setType(cast<bufferization::TensorLikeType>(
          getSlabType(toTensor.getType(), dim, blocks)));
    if (blocks.isEven())
      return;
    Value size =
        isa<MemRefType>(argument.getType())
            ? memref::DimOp::create(builder, loc, argument, dim).getResult()
            : tensor::DimOp::create(builder, loc, argument, dim).getResult();
    checkedSlabs.emplace_back(argument.getArgNumber(), size);
  };
  retype(data);
  retype(indices);
  retype(result);
  SmallVector<GridAxis> gridAxes = {0};
  if (!checkedSlabs.empty()) {
    ImplicitLocOpBuilder ib(loc, builder);
    Value process = createProcessLinearIndex(gridName, gridAxes, ib);
    ONNX::createSlabSizeCheck(builder, loc, op, checkedSlabs, dim, blocks,
                              gridName, gridAxes, process);
  }

  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  auto slabResultType =
      cast<RankedTensorType>(getSlabType(resultType, dim, blocks));
  Type returnedType = result.isSplit() ? slabResultType : resultType;
  Block *body =
      createOutlinedFunction(op, symbolTable, builder, TypeRange{returnedType});
  ImplicitLocOpBuilder ib(loc, builder);
  Value process = createProcessLinearIndex(gridName, gridAxes, ib);
  auto [lo, count] = ONNX::createBlockBounds(builder, loc, process, blocks);
  OpFoldResult blockSize = getBlockSize(builder, blocks, count);
  Value dataValue = body->getArgument(0), indicesValue = body->getArgument(1);
  auto indicesType = cast<RankedTensorType>(view.indices.getType());
  int64_t rank = indicesType.getRank();
  // (Off the axis, `data` is whole along the axis.)
  int64_t axisSize =
      offAxis ? cast<RankedTensorType>(view.data.getType()).getDimSize(axis)
              : blocks.size;
  Value axisSizeValue = arith::ConstantIndexOp::create(builder, loc, axisSize);
  SmallVector<Value> offsets, globalSizes;
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  for (int64_t d = 0; d < rank; ++d) {
    offsets.push_back(offAxis && d == dim ? lo : zero);
    int64_t size =
        d == dim && offAxis ? blocks.size : indicesType.getDimSize(d);
    globalSizes.push_back(arith::ConstantIndexOp::create(builder, loc, size));
  }

  Value returned;
  if (offAxis) {
    Value dataBlock = data.isSplit() ? dataValue
                                     : createBlockSlice(builder, loc, dataValue,
                                                        dim, lo, blockSize);
    Value indicesBlock =
        indices.isSplit()
            ? indicesValue
            : createBlockSlice(builder, loc, indicesValue, dim, lo, blockSize);
    ONNX::createGlobalIndexCheck(builder, loc, op, indicesBlock, offsets,
                                 globalSizes, gridName, gridAxes,
                                 axisSizeValue);
    Operation *local =
        mlir::clone(builder, op, {slabResultType}, {dataBlock, indicesBlock});
    local->setAttr(ONNX::kIndicesCheckedByCallerAttrName,
                   builder.getUnitAttr());
    returned = local->getResult(0);
    if (!result.isSplit())
      returned =
          createAllGather(builder, loc, gridName, returned, resultType, dim);
  } else {
    returned = createAxisSplit(builder, loc, op, scheme, dataValue,
                               data.isSplit(), indicesValue, lo, count, process,
                               blocks, axis, gridName);
    if (returned.getType() != resultType)
      returned = tensor::CastOp::create(builder, loc, resultType, returned);
  }
  func::ReturnOp::create(builder, loc, returned);
  op->erase();

  if (result.result >= 0) {
    signature.results[result.result] = {dim, blocks};
    SmallVector<Type> resultTypes(function.getResultTypes());
    resultTypes[result.result] = slabResultType;
    function.setType(FunctionType::get(function.getContext(),
                                       entry.getArgumentTypes(), resultTypes));
  } else {
    function.setType(FunctionType::get(function.getContext(),
                                       entry.getArgumentTypes(),
                                       function.getResultTypes()));
  }
  return true;
}

/// The shard.all_gather that reads `slab` (created by adaptCalls).
static Operation *findAllGatherUser(Value slab) {
  for (Operation *user : slab.getUsers())
    if (isa<AllGatherOp>(user))
      return user;
  return nullptr;
}

/// Every call in `module` of a function whose signature io=split changed:
/// it passes this process's slab of each whole value (a slice at the
/// process's offset) and assembles each slab result for the caller, so the
/// caller sees what it saw before.
void ONNX::ShardIOSplit::adaptCalls(ModuleOp module, StringAttr gridName) {
  if (signatures.empty())
    return;
  SmallVector<func::CallOp> calls;
  module.walk([&](func::CallOp call) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    if (callee && signatures.count(callee))
      calls.push_back(call);
  });
  for (func::CallOp call : calls) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    const SplitSignature &signature = signatures[callee];
    Location loc = call.getLoc();
    OpBuilder builder(call);
    ImplicitLocOpBuilder ib(loc, builder);
    Value process = createProcessLinearIndex(gridName, {0}, ib);
    SmallVector<std::pair<Value, Value>> destinations; // (slab, whole)
    for (auto [number, split] : signature.arguments) {
      Value whole = call.getOperand(number);
      auto [lo, count] =
          ONNX::createBlockBounds(builder, loc, process, split.blocks);
      OpFoldResult blockSize = getBlockSize(builder, split.blocks, count);
      auto memrefType = dyn_cast<MemRefType>(whole.getType());
      if (!memrefType) {
        call.setOperand(number, createBlockSlice(builder, loc, whole, split.dim,
                                                 lo, blockSize));
        continue;
      }
      // A memref: this process's slab in a buffer of its own (copied in
      // for an input; for the destination, assembled into `whole` after
      // the call).
      auto slabType = cast<MemRefType>(getSlabType(
          MemRefType::get(memrefType.getShape(), memrefType.getElementType()),
          split.dim, split.blocks));
      SmallVector<Value> dynamicSizes;
      if (!split.blocks.isEven())
        dynamicSizes.push_back(count);
      Value slab =
          memref::AllocOp::create(builder, loc, slabType, dynamicSizes);
      if (split.destination) {
        destinations.emplace_back(slab, whole);
      } else {
        SmallVector<OpFoldResult> offsets(memrefType.getRank(),
                                          builder.getIndexAttr(0)),
            sizes, strides(memrefType.getRank(), builder.getIndexAttr(1));
        for (int64_t size : memrefType.getShape())
          sizes.push_back(builder.getIndexAttr(size));
        offsets[split.dim] = lo;
        sizes[split.dim] = blockSize;
        Value view = memref::SubViewOp::create(builder, loc, whole, offsets,
                                               sizes, strides);
        memref::CopyOp::create(builder, loc, view, slab);
      }
      call.setOperand(number, slab);
    }
    builder.setInsertionPointAfter(call);
    for (auto [number, split] : signature.arguments) {
      if (!split.destination)
        continue;
      Value slab = call.getOperand(number);
      Value whole = llvm::find_if(destinations, [&](auto &entry) {
                      return entry.first == slab;
                    })->second;
      auto wholeType = cast<MemRefType>(whole.getType());
      Value slabTensor = bufferization::ToTensorOp::create(
          builder, loc,
          RankedTensorType::get(cast<MemRefType>(slab.getType()).getShape(),
                                wholeType.getElementType()),
          slab, /*restrict=*/true);
      Value assembled =
          createAllGather(builder, loc, gridName, slabTensor,
                          RankedTensorType::get(wholeType.getShape(),
                                                wholeType.getElementType()),
                          split.dim);
      bufferization::MaterializeInDestinationOp::create(
          builder, loc, TypeRange{}, assembled, whole, /*restrict=*/true,
          /*writable=*/true);
    }
    for (auto [number, split] : signature.results) {
      Value slab = call.getResult(number);
      auto wholeType = cast<RankedTensorType>(slab.getType());
      slab.setType(getSlabType(wholeType, split.dim, split.blocks));
      Value whole =
          createAllGather(builder, loc, gridName, slab, wholeType, split.dim);
      slab.replaceAllUsesExcept(whole, findAllGatherUser(slab));
    }
  }
}
