//===- LowerVectorMasks.cpp - vector.mask folded into memory ops ----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements `gather-lower-vector-masks` (see Passes.td) and the patterns it
// shares with `gather-select-form` (VectorMasks.h): a `vector.mask` around a
// `vector.gather`, `vector.transfer_read` or `vector.transfer_write` becomes
// the op alone with the two masks ANDed into its mask operand.
//
// MLIR 22: upstream's `lower-vector-mask`
// (vector::populateVectorMaskLoweringPatternsForSideEffectingOps) replaces
// the op's own mask with the `vector.mask`'s one, and drops a gather's
// pass-through: lanes that the op's own mask disables are then loaded or
// stored. These patterns keep both (docs/UpstreamWorkarounds.md).
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/Passes.h"
#include "gather/Codegen/VectorMasks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace gather {
#define GEN_PASS_DEF_LOWERVECTORMASKSPASS
#include "gather/Codegen/Passes.h.inc"
} // namespace gather

using namespace mlir;

/// The lanes enabled by both `outer` (a vector.mask's mask) and `inner` (the
/// masked op's own mask; null: all lanes).
static Value getBothMasks(PatternRewriter &rewriter, Location loc, Value outer,
                          Value inner) {
  if (!inner)
    return outer;
  // arith.andi folds an all-true constant away.
  return arith::AndIOp::create(rewriter, loc, outer, inner);
}

namespace {

/// A `vector.mask` around one op of type `MaskedOp`, replaced by that op with
/// both masks. A masked-off lane of a gather then holds the gather's
/// pass-through, one of a read its padding value (the `vector.mask` leaves
/// them undefined), or the `vector.mask`'s pass-through where it has one: an
/// `arith.select` of the result, which needs a mask of the result's shape.
template <typename MaskedOp>
struct FoldMaskPattern : OpRewritePattern<vector::MaskOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::MaskOp mask,
                                PatternRewriter &rewriter) const override {
    auto op = dyn_cast_or_null<MaskedOp>(mask.getMaskableOp());
    if (!op)
      return rewriter.notifyMatchFailure(mask, "masks another op");
    Value passthru = mask.getPassthru();
    if (passthru) {
      auto type = dyn_cast<VectorType>(passthru.getType());
      if (!type || mask.getMask().getType() != type.clone(rewriter.getI1Type()))
        return rewriter.notifyMatchFailure(
            mask, "a pass-through and a mask of another shape");
    }
    // The op's operands are all defined above the region (it holds the op
    // alone).
    rewriter.setInsertionPoint(mask);
    Value both =
        getBothMasks(rewriter, op.getLoc(), mask.getMask(), op.getMask());
    rewriter.moveOpBefore(op, mask);
    rewriter.modifyOpInPlace(op, [&] { op.getMaskMutable().assign(both); });
    SmallVector<Value> results(op->getResults());
    if (passthru)
      results.front() = arith::SelectOp::create(
          rewriter, op.getLoc(), mask.getMask(), results.front(), passthru);
    rewriter.replaceOp(mask, results);
    return success();
  }
};

struct LowerVectorMasksPass
    : public gather::impl::LowerVectorMasksPassBase<LowerVectorMasksPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    gather::populateLowerVectorMasksPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();

    // A memory op still masked (a read with a pass-through and a transposed
    // or broadcast mask): bufferization would reject it, and a lowering
    // that drops the mask would access its masked-off lanes.
    WalkResult left = getOperation()->walk([](vector::MaskOp mask) {
      Operation *op = mask.getMaskableOp();
      if (!isa_and_nonnull<vector::GatherOp, vector::TransferReadOp,
                           vector::TransferWriteOp>(op))
        return WalkResult::advance();
      mask.emitError("gather-lower-vector-masks: cannot fold this mask into '")
          << op->getName()
          << "': a pass-through needs a mask of the vector's shape";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void gather::populateLowerVectorMasksPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldMaskPattern<vector::GatherOp>,
               FoldMaskPattern<vector::TransferReadOp>,
               FoldMaskPattern<vector::TransferWriteOp>>(patterns.getContext());
}
