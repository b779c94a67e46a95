//===- BlendMaskedWrites.cpp - Masked whole-tensor writes as blends -------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather-blend-masked-writes (include/gather/Pipelines/Passes.td): a masked
// vector.transfer_write that covers its tensor becomes an unmasked write of
// the vector blended with the destination's old elements, which MLIR 22's
// canonicalization and bufferization keep.
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace gather {
#define GEN_PASS_DEF_BLENDMASKEDWRITESPASS
#include "gather/Pipelines/Passes.h.inc"
} // namespace gather

using namespace mlir;

/// A masked write: `write`, its mask (its own, or that of `maskOp`, a
/// vector.mask around it).
struct MaskedWrite {
  vector::TransferWriteOp write;
  Value mask;
  vector::MaskOp maskOp;
};

/// `write` with its mask where MLIR 22 may take it for a write of its whole
/// tensor although its mask leaves elements of it: a ranked tensor of a
/// static shape with no more elements than the (fixed-size) vector, whose
/// old elements are defined (not a tensor.empty).
static std::optional<MaskedWrite>
getMaskedWrite(vector::TransferWriteOp write) {
  auto type = dyn_cast<RankedTensorType>(write.getBase().getType());
  // (Not a tensor of vectors, whose mask has fewer dimensions.)
  if (!type ||
      type.getElementType() != write.getVectorType().getElementType() ||
      write.getTransferRank() == 0 || write.getVectorType().isScalable() ||
      !type.hasStaticShape() ||
      type.getNumElements() > write.getVectorType().getNumElements() ||
      write.getBase().getDefiningOp<tensor::EmptyOp>())
    return std::nullopt;
  if (write.getMask())
    return MaskedWrite{write, write.getMask(), nullptr};
  // (A vector.mask around the write alone, yielding its result.)
  auto maskOp = dyn_cast<vector::MaskOp>(write->getParentOp());
  if (!maskOp || maskOp.getMaskableOp() != write.getOperation() ||
      maskOp->getNumResults() != 1 ||
      maskOp.getMaskRegion().front().getTerminator()->getOperand(0) !=
          write.getResult())
    return std::nullopt;
  return MaskedWrite{write, maskOp.getMask(), maskOp};
}

/// `mask`, the mask of `write`, in the order of its vector's dimensions:
/// the mask's dimensions are the tensor's that the permutation map takes,
/// in the tensor's order (inferTransferOpMaskType), so the map without its
/// unused dimensions is the transpose.
static Value getMaskInVectorOrder(OpBuilder &builder,
                                  vector::TransferWriteOp write, Value mask) {
  AffineMap permutation = compressUnusedDims(write.getPermutationMap());
  if (permutation.isIdentity())
    return mask;
  SmallVector<int64_t> order;
  for (unsigned i = 0; i < permutation.getNumResults(); ++i)
    order.push_back(permutation.getDimPosition(i));
  return vector::TransposeOp::create(builder, write.getLoc(), mask, order);
}

/// The in-bounds flags of the unmasked read and write that replace `write`:
/// a dimension of its vector is in bounds where its constant index and size
/// keep it within the tensor. (The mask kept the lanes past the tensor out,
/// in bounds or not: unmasked, they must be.)
static ArrayAttr getUnmaskedInBounds(OpBuilder &builder,
                                     vector::TransferWriteOp write) {
  AffineMap map = write.getPermutationMap();
  ArrayRef<int64_t> shape = write.getShapedType().getShape();
  SmallVector<bool> inBounds;
  for (auto [i, size] : llvm::enumerate(write.getVectorType().getShape())) {
    unsigned dim = map.getDimPosition(i);
    std::optional<int64_t> index = getConstantIntValue(write.getIndices()[dim]);
    inBounds.push_back(index && *index >= 0 && size <= shape[dim] &&
                       *index <= shape[dim] - size);
  }
  return builder.getBoolArrayAttr(inBounds);
}

namespace {

struct BlendMaskedWritesPass
    : gather::impl::BlendMaskedWritesPassBase<BlendMaskedWritesPass> {
  void runOnOperation() override {
    SmallVector<MaskedWrite> writes;
    getOperation().walk([&](vector::TransferWriteOp write) {
      if (std::optional<MaskedWrite> masked = getMaskedWrite(write))
        writes.push_back(*masked);
    });
    for (auto [write, mask, maskOp] : writes) {
      Operation *replaced =
          maskOp ? maskOp.getOperation() : write.getOperation();
      OpBuilder builder(replaced);
      Location loc = write.getLoc();
      Type element = getElementTypeOrSelf(write.getBase().getType());
      // (The padding fills lanes outside the tensor, which the write leaves
      // out.)
      Value padding =
          arith::ConstantOp::create(builder, loc, builder.getZeroAttr(element));
      ArrayAttr inBounds = getUnmaskedInBounds(builder, write);
      Value old = vector::TransferReadOp::create(
          builder, loc, write.getVectorType(), write.getBase(),
          write.getIndices(), write.getPermutationMapAttr(), padding,
          /*mask=*/Value(), inBounds);
      Value blend = arith::SelectOp::create(
          builder, loc, getMaskInVectorOrder(builder, write, mask),
          write.getVector(), old);
      auto unmasked = vector::TransferWriteOp::create(
          builder, loc, blend, write.getBase(), write.getIndices(),
          write.getPermutationMapAttr(), inBounds);
      replaced->replaceAllUsesWith(unmasked);
      replaced->erase();
    }
  }
};
} // namespace
