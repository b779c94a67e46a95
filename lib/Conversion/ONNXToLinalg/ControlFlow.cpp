//===- ControlFlow.cpp - onnx.If and onnx.Loop to scf ---------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx.If -> scf.if and onnx.Loop -> scf.while (scan outputs stacked into
// buffers of `M` rows); the subgraphs move into the scf regions and their
// onnx.Yield becomes scf.yield (see convert-onnx-to-linalg in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "gather/Conversion/ONNXToLinalg/ControlFlowLowering.h"
#include "gather/Dialect/ONNX/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace gather;
using namespace gather::onnx_to_linalg;

/// The one element of `tensor` (a ranked tensor of a static shape of one
/// element: getWhyNotLowerable checked it before the op was rewritten).
static Value extractOneElement(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> position(type.getRank(), zero);
  return tensor::ExtractOp::create(b, loc, tensor, position);
}

/// `value` as a tensor of `type` (a tensor.cast where the types differ).
static Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

/// The most precise tensor type that both `a` and `b` cast to: their common
/// sizes, dynamic where they differ, unranked where the ranks do (both of
/// one element type, as the verifiers require).
static Type joinTypes(Type a, Type b) {
  if (a == b)
    return a;
  auto aTensor = cast<TensorType>(a);
  auto aRanked = dyn_cast<RankedTensorType>(a);
  auto bRanked = dyn_cast<RankedTensorType>(b);
  if (!aRanked || !bRanked || aRanked.getRank() != bRanked.getRank())
    return UnrankedTensorType::get(aTensor.getElementType());
  SmallVector<int64_t> shape;
  for (auto [x, y] : llvm::zip(aRanked.getShape(), bRanked.getShape()))
    shape.push_back(x == y ? x : ShapedType::kDynamic);
  return RankedTensorType::get(shape, aTensor.getElementType());
}

/// A tensor of `type` (a tensor of one element) holding `scalar`.
static Value fromScalar(OpBuilder &b, Location loc, Value scalar, Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  SmallVector<int64_t> ones(ranked ? ranked.getRank() : 0, 1);
  Value tensor = tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get(ones, scalar.getType()), scalar);
  return castTo(b, loc, tensor, type);
}

/// "<what> has type <type>; ..." if `value` is not a tensor of a static
/// shape (lowering reads its one element).
static std::optional<std::string> notOneElement(Value value, StringRef what) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (type && type.hasStaticShape())
    return std::nullopt;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << what << " has type '" << value.getType()
     << "'; lowering needs a static shape of one element";
  return text;
}

std::optional<int64_t> gather::getStaticIterationCount(ONNX::LoopOp loop) {
  DenseIntElementsAttr m;
  if (!isa<NoneType>(loop.getCond().getType()) ||
      !matchPattern(loop.getM(), m_Constant(&m)) || m.getNumElements() != 1)
    return std::nullopt;
  return std::max<int64_t>(0, (*m.value_begin<APInt>()).getSExtValue());
}

std::optional<std::string> gather::getWhyNotLowerable(Operation *op) {
  if (auto ifOp = dyn_cast<ONNX::IfOp>(op))
    return notOneElement(ifOp.getCond(), "its condition");
  auto loop = dyn_cast<ONNX::LoopOp>(op);
  if (!loop)
    return std::nullopt;
  bool noTripCount = isa<NoneType>(loop.getM().getType());
  if (!noTripCount)
    if (auto why = notOneElement(loop.getM(), "its trip count 'M'"))
      return why;
  if (!isa<NoneType>(loop.getCond().getType()))
    if (auto why = notOneElement(loop.getCond(), "its condition 'cond'"))
      return why;
  auto yield = cast<ONNX::YieldOp>(loop.getBody().front().getTerminator());
  std::string text;
  llvm::raw_string_ostream os(text);
  auto condType = dyn_cast<RankedTensorType>(yield.getOperand(0).getType());
  if (!condType || !condType.hasStaticShape()) {
    os << "its body yields the condition as '" << yield.getOperand(0).getType()
       << "'; lowering needs a static shape of one element";
    return text;
  }
  unsigned numCarried = loop.getVInitial().size();
  unsigned numScan = loop.getNumScanOutputs();
  if (numScan != 0 && noTripCount) {
    os << "it has " << numScan
       << " scan outputs and no trip count 'M'; lowering stacks them in "
          "buffers of M rows";
    return text;
  }
  std::optional<int64_t> count = getStaticIterationCount(loop);
  for (unsigned k = 0; k < numScan; ++k) {
    Type yielded = yield.getOperand(1 + numCarried + k).getType();
    auto row = dyn_cast<RankedTensorType>(yielded);
    if (!row || !row.hasStaticShape()) {
      os << "its body yields scan output " << k << " as '" << yielded
         << "'; lowering needs a static shape";
      return text;
    }
    auto result =
        dyn_cast<RankedTensorType>(loop.getResult(numCarried + k).getType());
    if (result && !result.isDynamicDim(0) &&
        (!count || *count != result.getDimSize(0))) {
      os << "scan output " << k << " has type '" << result
         << "', but the loop runs ";
      if (count)
        os << *count << " iterations";
      else
        os << "a number of iterations known only at run time";
      return text;
    }
  }
  return std::nullopt;
}

namespace {

/// onnx.If -> scf.if on the element of the condition.
struct IfOpLowering : public OpConversionPattern<ONNX::IfOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ONNX::IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (std::optional<std::string> why = getWhyNotLowerable(op))
      return op.emitOpError("cannot be lowered: ") << *why;
    Value cond = extractOneElement(rewriter, op.getLoc(), adaptor.getCond());
    auto ifOp = scf::IfOp::create(rewriter, op.getLoc(), op.getResultTypes(),
                                  cond, /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getThenBranch(), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseBranch(), ifOp.getElseRegion(),
                                ifOp.getElseRegion().end());
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

/// onnx.Loop -> scf.while over (iteration number, condition, loop-carried
/// values, scan buffers):
///
///   scf.while (%i = 0, %c = cond, %v = v_initial, %s = tensor.empty(M)) {
///     scf.condition(%i < M && %c) %i, %c, %v, %s
///   } do {
///     <body on tensor<i64> %i, tensor<i1> %c, %v>
///     scf.yield %i + 1, <condition yielded>, <values yielded>,
///               <%s with the scan values yielded inserted at row %i>
///   }
///   <each scan output: rows [0, final %i) of its buffer>
///
/// The loop-carried values have the types that all their uses agree on
/// (start, body argument, yield, result). Without `cond` the body's
/// condition is ignored (ONNX: a for loop, or one with no end). A scan
/// output needs `M` (its buffer has max(M, 0) rows: the loop never runs
/// more iterations) and values of a static shape; its first size is static
/// where the count of iterations is (`M` a constant, no `cond`).
struct LoopOpLowering : public OpConversionPattern<ONNX::LoopOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ONNX::LoopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned numCarried = adaptor.getVInitial().size();
    unsigned numScan = op.getNumScanOutputs();
    Block &body = op.getBody().front();
    auto yield = cast<ONNX::YieldOp>(body.getTerminator());
    bool noTripCount = isa<NoneType>(adaptor.getM().getType());
    bool noCond = isa<NoneType>(adaptor.getCond().getType());
    if (std::optional<std::string> why = getWhyNotLowerable(op))
      return op.emitOpError("cannot be lowered: ") << *why;
    // The scan outputs' values: one row of their buffers each.
    SmallVector<RankedTensorType> rowTypes;
    for (unsigned k = 0; k < numScan; ++k)
      rowTypes.push_back(cast<RankedTensorType>(
          yield.getOperand(1 + numCarried + k).getType()));
    std::optional<int64_t> staticCount = getStaticIterationCount(op);
    Type i64 = rewriter.getI64Type(), i1 = rewriter.getI1Type();
    Value trip;
    if (noTripCount) {
      trip = arith::ConstantIntOp::create(rewriter, loc, i64,
                                          std::numeric_limits<int64_t>::max());
    } else {
      trip = extractOneElement(rewriter, loc, adaptor.getM());
    }
    Value cond = noCond ? arith::ConstantIntOp::create(rewriter, loc, i1, 1)
                        : extractOneElement(rewriter, loc, adaptor.getCond());

    SmallVector<Type> types = {i64, i1};
    SmallVector<Value> inits = {
        arith::ConstantIntOp::create(rewriter, loc, i64, 0), cond};
    for (auto [index, initial] : llvm::enumerate(adaptor.getVInitial())) {
      Type type = joinTypes(
          joinTypes(initial.getType(), body.getArgument(2 + index).getType()),
          joinTypes(yield.getOperand(1 + index).getType(),
                    op.getResult(index).getType()));
      types.push_back(type);
      inits.push_back(castTo(rewriter, loc, initial, type));
    }
    // The scan buffers: max(M, 0) rows of each scan value.
    Value rows;
    if (numScan != 0 && !staticCount) {
      Value zero = arith::ConstantIntOp::create(rewriter, loc, i64, 0);
      rows = arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(),
          arith::MaxSIOp::create(rewriter, loc, trip, zero));
    }
    for (RankedTensorType row : rowTypes) {
      SmallVector<int64_t> shape = {staticCount ? *staticCount
                                                : ShapedType::kDynamic};
      llvm::append_range(shape, row.getShape());
      auto type = RankedTensorType::get(shape, row.getElementType());
      types.push_back(type);
      inits.push_back(tensor::EmptyOp::create(
          rewriter, loc, type, staticCount ? ValueRange() : ValueRange(rows)));
    }

    auto whileOp = scf::WhileOp::create(rewriter, loc, types, inits);
    SmallVector<Location> locs(types.size(), loc);
    Block *before = rewriter.createBlock(&whileOp.getBefore(), {}, types, locs);
    Value inRange = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, before->getArgument(0), trip);
    Value go =
        arith::AndIOp::create(rewriter, loc, inRange, before->getArgument(1));
    scf::ConditionOp::create(rewriter, loc, go, before->getArguments());

    Block *after = rewriter.createBlock(&whileOp.getAfter(), {}, types, locs);
    SmallVector<Value> arguments = {
        fromScalar(rewriter, loc, after->getArgument(0),
                   body.getArgument(0).getType()),
        fromScalar(rewriter, loc, after->getArgument(1),
                   body.getArgument(1).getType())};
    for (unsigned index = 2; index < 2 + numCarried; ++index)
      arguments.push_back(castTo(rewriter, loc, after->getArgument(index),
                                 body.getArgument(index).getType()));
    rewriter.mergeBlocks(&body, after, arguments);

    // The yield: the condition (true where the loop has no `cond`: ONNX
    // ignores the body's then), the carried values, and each scan buffer
    // with this iteration's value in row %i (%i < max(M, 0): in bounds).
    rewriter.setInsertionPoint(yield);
    SmallVector<Value> yielded = {yield.getOperand(0)};
    if (noCond)
      yielded.front() = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(
              cast<ShapedType>(yield.getOperand(0).getType()), true));
    llvm::append_range(yielded, yield.getOperands().slice(1, numCarried));
    if (numScan != 0) {
      Value row = arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(), after->getArgument(0));
      for (auto [k, rowType] : llvm::enumerate(rowTypes)) {
        int64_t rank = rowType.getRank() + 1;
        SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
        offsets.front() = row;
        SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(1)};
        for (int64_t size : rowType.getShape())
          sizes.push_back(rewriter.getIndexAttr(size));
        SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
        yielded.push_back(tensor::InsertSliceOp::create(
            rewriter, loc, yield.getOperand(1 + numCarried + k),
            after->getArgument(2 + numCarried + k), offsets, sizes, strides));
      }
    }
    rewriter.replaceOpWithNewOp<ONNX::YieldOp>(yield, yielded);

    rewriter.setInsertionPointAfter(whileOp);
    SmallVector<Value> results;
    for (auto [result, type] :
         llvm::zip(whileOp.getResults().slice(2, numCarried),
                   TypeRange(op.getResultTypes()).take_front(numCarried)))
      results.push_back(castTo(rewriter, loc, result, type));
    // Rows [0, count of iterations) of each buffer.
    for (unsigned k = 0; k < numScan; ++k) {
      Value stacked = whileOp.getResult(2 + numCarried + k);
      if (!staticCount) {
        auto type = cast<RankedTensorType>(stacked.getType());
        Value count = arith::IndexCastOp::create(
            rewriter, loc, rewriter.getIndexType(), whileOp.getResult(0));
        SmallVector<OpFoldResult> offsets(type.getRank(),
                                          rewriter.getIndexAttr(0));
        SmallVector<OpFoldResult> sizes = {count};
        for (int64_t size : type.getShape().drop_front())
          sizes.push_back(rewriter.getIndexAttr(size));
        SmallVector<OpFoldResult> strides(type.getRank(),
                                          rewriter.getIndexAttr(1));
        stacked = tensor::ExtractSliceOp::create(rewriter, loc, type, stacked,
                                                 offsets, sizes, strides);
      }
      results.push_back(castTo(rewriter, loc, stacked,
                               op.getResult(numCarried + k).getType()));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// onnx.Yield in the regions of the scf ops above -> scf.yield: the values
/// cast to the types of the scf op; in an scf.while, after the next
/// iteration number and the condition.
struct YieldOpLowering : public OpConversionPattern<ONNX::YieldOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ONNX::YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Operation *parent = op->getParentOp();
    SmallVector<Value> values;
    if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      for (auto [value, type] :
           llvm::zip(adaptor.getOperands(), ifOp.getResultTypes()))
        values.push_back(castTo(rewriter, loc, value, type));
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
      Block &after = whileOp.getAfter().front();
      Value one =
          arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(), 1);
      values.push_back(
          arith::AddIOp::create(rewriter, loc, after.getArgument(0), one));
      values.push_back(
          extractOneElement(rewriter, loc, adaptor.getOperands().front()));
      for (auto [value, type] :
           llvm::zip(adaptor.getOperands().drop_front(),
                     TypeRange(whileOp.getResultTypes()).drop_front(2)))
        values.push_back(castTo(rewriter, loc, value, type));
    } else {
      return rewriter.notifyMatchFailure(op, "not in a lowered region");
    }
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, values);
    return success();
  }
};

} // namespace

bool gather::onnx_to_linalg::isLoweredRegionTerminator(Operation *op) {
  return isa<ONNX::YieldOp>(op) &&
         isa<scf::IfOp, scf::WhileOp>(op->getParentOp());
}

void gather::onnx_to_linalg::populateControlFlowPatterns(
    RewritePatternSet &patterns) {
  patterns.add<IfOpLowering, LoopOpLowering, YieldOpLowering>(
      patterns.getContext());
}
