//===- GatherElements.cpp - onnx.GatherElements to linalg -----------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Lowers onnx.GatherElements (ONNX opset 13) to an all-parallel
// linalg.generic over the shape of `indices` that reads `data` with
// tensor.extract (gather::buildGatherElements), with the run-time checks of
// RuntimeChecks.h. The pattern matches ops by name, so it also lowers
// onnx-mlir's op or an unregistered one.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "RuntimeChecks.h"
#include "gather/Conversion/ONNXToLinalg/GatherLinalgForm.h"
#include "gather/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "gather/Dialect/ONNX/GatherElementsView.h"
#include "gather/Dialect/ONNX/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <optional>

using namespace mlir;
using namespace gather;
using namespace gather::onnx_to_linalg;

namespace {

/// onnx.GatherElements -> tensor.empty + linalg.generic:
///
///   out[i0, .., ir-1] = data[i0, .., k, .., ir-1],  k at position `axis`,
///   k = safe(indices[i0, .., ir-1])
///
/// where safe(i) = i + s if i < 0 (s = data.shape[axis]), then 0 if the
/// result is still outside [0, s). The clamp keeps every read inside `data`
/// for any index value; valid inputs never reach it. With run-time checks,
/// invalid shapes and index values are reported through gather's runtime
/// before the gather (see Passes.td).
class GatherElementsLowering {
public:
  GatherElementsLowering(OpBuilder &builder, Location loc, Type declaredType,
                         const GatherElementsLoweringOptions &options)
      : loc(loc), declaredType(declaredType),
        runtimeChecks(options.runtimeChecks),
        checkIndexValues(options.checkIndexValues),
        anchor(builder.getInsertionBlock()->getParentOp()),
        start(builder.saveInsertionPoint()), listener(builder.getListener()) {}

  FailureOr<Value> lower(OpBuilder &builder, Value data, Value indices,
                         int64_t axis) {
    module = isa<ModuleOp>(anchor) ? cast<ModuleOp>(anchor)
                                   : anchor->getParentOfType<ModuleOp>();
    if (!module)
      return emitError(loc, "cannot lower 'onnx.GatherElements' outside a "
                            "builtin.module");
    // Every report takes the location string from where the lowering
    // started, so that it dominates them all.
    reporter.emplace(module, loc, listener);
    reporter->setLocationInsertionPoint(start);
    checks.emplace(loc, runtimeChecks ? &*reporter : nullptr, anchor);
    auto opError = [&]() {
      return emitError(loc) << "'onnx.GatherElements' op ";
    };
    if (failed(ONNX::verifyGatherElements(opError, data, indices, axis,
                                          declaredType)))
      return failure();
    // An unranked operand that is a tensor.cast of a ranked tensor: use the
    // ranked source (folding the cast later could otherwise produce a cast
    // between different ranks).
    auto rankedSource = [](Value value) {
      while (!isa<RankedTensorType>(value.getType())) {
        auto cast = value.getDefiningOp<tensor::CastOp>();
        if (!cast)
          break;
        value = cast.getSource();
      }
      return value;
    };
    Value declaredData = data, declaredIndices = indices;
    data = rankedSource(data);
    indices = rankedSource(indices);
    auto dataType = dyn_cast<RankedTensorType>(data.getType());
    auto indicesType = dyn_cast<RankedTensorType>(indices.getType());
    if (dataType && indicesType && dataType.getRank() != indicesType.getRank())
      return opError() << "operand 'data' has rank " << dataType.getRank()
                       << " and operand 'indices' has rank "
                       << indicesType.getRank()
                       << " (seen through tensor.cast); the ranks must be "
                          "equal";
    if (!dataType && !indicesType)
      return opError() << "cannot be lowered with both 'data' and 'indices' "
                          "unranked: the rank is unknown";
    // rank(data) = rank(indices): the ranked operand gives it (verified),
    // or the source of a tensor.cast does: then `axis` was not checked
    // against it, and is now, in the verifier's words.
    int64_t rank = dataType ? dataType.getRank() : indicesType.getRank();
    if (axis < -rank || axis >= rank)
      return opError() << "attribute 'axis' = " << axis << " is out of range ["
                       << -rank << ", " << rank - 1 << "] for operand '"
                       << (dataType ? "data" : "indices") << "' of rank "
                       << rank << " (seen through tensor.cast)";
    // What the verifier could not check on the unranked operands (their
    // shapes, constant index values) is checked on what is lowered: the
    // run-time checks leave out what it checked.
    if (dataType && indicesType &&
        (data != declaredData || indices != declaredIndices) &&
        failed(ONNX::verifyGatherElements(
            [&]() {
              return emitError(loc) << "'onnx.GatherElements' op (its "
                                       "operands seen through tensor.cast) ";
            },
            data, indices, axis, declaredType)))
      return failure();
    axis = ONNX::normalizeAxis(axis, rank);

    Value result =
        dataType && indicesType
            ? lowerRanked(builder, data, indices, axis)
            : lowerWithUnrankedOperand(builder, data, indices, rank, axis);
    if (result.getType() != declaredType)
      result = tensor::CastOp::create(builder, loc, declaredType, result);
    return result;
  }

private:
  /// Lowers with ranked `data` and `indices`; returns a tensor of the shape
  /// of `indices`.
  Value lowerRanked(OpBuilder &builder, Value data, Value indices,
                    int64_t axis) {
    auto dataType = cast<RankedTensorType>(data.getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    Value axisSize = getValueOrCreateConstantIndexOp(
        builder, loc, tensor::getMixedSize(builder, loc, data, axis));
    // The shape of `indices`, with the static sizes the declared result type
    // adds (checked at run time below).
    SmallVector<int64_t> shape(indicesType.getShape());
    if (auto declared = dyn_cast<RankedTensorType>(declaredType))
      for (int64_t d = 0; d < indicesType.getRank(); ++d)
        if (ShapedType::isDynamic(shape[d]))
          shape[d] = declared.getDimSize(d);
    auto resultType = RankedTensorType::get(shape, dataType.getElementType());

    // Whether the gather stays inside its buffers: null when statically
    // known. These scalar guards stay even without run-time checks.
    Value gatherIsSafe =
        checks->emitShapeChecks(builder, data, indices, axis, resultType);
    bool checkIndices =
        checks->isReporting() && checkIndexValues &&
        GatherElementsChecks::needsIndexCheck(data, indices, axis);
    // The gather and, with the index check, whether any index value was out
    // of range (found by the gather itself: one pass over `indices`).
    auto gather = [&](OpBuilder &b, Location nestedLoc) {
      return emitGather(b, nestedLoc, data, indices, axis, axisSize, resultType,
                        checkIndices);
    };
    SmallVector<Value> values;
    if (!gatherIsSafe) {
      values = gather(builder, loc);
    } else {
      auto ifOp = scf::IfOp::create(
          builder, loc, gatherIsSafe,
          [&](OpBuilder &b, Location nestedLoc) {
            scf::YieldOp::create(b, nestedLoc, gather(b, nestedLoc));
          },
          [&](OpBuilder &b, Location nestedLoc) {
            // The error has been reported (or checks are off); the result
            // is zero-filled (empty strings), not left uninitialized.
            SmallVector<Value> zeros = {
                emitZeroFilled(b, nestedLoc, indices, resultType)};
            // The index values are still checked (reading only `indices`).
            if (checkIndices)
              zeros.push_back(
                  checks->emitAnyOutOfRange(b, nestedLoc, indices, axisSize));
            scf::YieldOp::create(b, nestedLoc, zeros);
          });
      values = ifOp.getResults();
    }
    if (checkIndices)
      checks->emitReportIfOutOfRange(builder, values[1], indices, axis,
                                     axisSize);
    return values[0];
  }

  /// Lowers with one unranked operand: casts it to the rank of the other
  /// (ONNX requires equal ranks) and lowers as ranked. With run-time checks,
  /// the rank is checked first and the gather runs only if it matches.
  Value lowerWithUnrankedOperand(OpBuilder &builder, Value data, Value indices,
                                 int64_t rank, int64_t axis) {
    auto toRanked = [&](OpBuilder &b, Value value) -> Value {
      auto type = cast<TensorType>(value.getType());
      if (type.hasRank())
        return value;
      SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
      return tensor::CastOp::create(
          b, loc, RankedTensorType::get(shape, type.getElementType()), value);
    };
    // rankOk = rank(unranked operand) == rank; reported with run-time
    // checks, and always guarding the gather.
    bool dataIsUnranked = !isa<RankedTensorType>(data.getType());
    Value unranked = dataIsUnranked ? data : indices;
    Value actualRank = tensor::RankOp::create(builder, loc, unranked);
    Value rankOk = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, actualRank,
        arith::ConstantIndexOp::create(builder, loc, rank));
    checks->emitRankCheck(builder, rankOk, dataIsUnranked, actualRank, rank);

    auto elementType = cast<TensorType>(data.getType()).getElementType();
    RankedTensorType resultType =
        dataIsUnranked
            ? RankedTensorType::get(
                  cast<RankedTensorType>(indices.getType()).getShape(),
                  elementType)
            : RankedTensorType::get(
                  SmallVector<int64_t>(rank, ShapedType::kDynamic),
                  elementType);
    auto ifOp = scf::IfOp::create(
        builder, loc, rankOk,
        [&](OpBuilder &b, Location nestedLoc) {
          Value result =
              lowerRanked(b, toRanked(b, data), toRanked(b, indices), axis);
          if (result.getType() != resultType)
            result = tensor::CastOp::create(b, nestedLoc, resultType, result);
          scf::YieldOp::create(b, nestedLoc, result);
        },
        [&](OpBuilder &b, Location nestedLoc) {
          // The error has been reported (or checks are off); the result is
          // zero-filled (and, if `indices` is the unranked operand, empty).
          Value empty = dataIsUnranked
                            ? emitZeroFilled(b, nestedLoc, indices, resultType)
                            : tensor::EmptyOp::create(
                                  b, nestedLoc, SmallVector<int64_t>(rank, 0),
                                  elementType)
                                  .getResult();
          if (empty.getType() != resultType)
            empty = tensor::CastOp::create(b, nestedLoc, resultType, empty);
          scf::YieldOp::create(b, nestedLoc, empty);
        });
    return ifOp.getResult(0);
  }

  /// The result buffer, of the shape of `indices`. Its location names the
  /// op (`loc("onnx.GatherElements"(at <loc>))`), so that a failed
  /// allocation of it is reported as the gather's (gather-check-allocations).
  static Value emitEmpty(OpBuilder &b, Location loc, Value indices,
                         RankedTensorType resultType) {
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < resultType.getRank(); ++d)
      if (resultType.isDynamicDim(d))
        dynamicSizes.push_back(tensor::DimOp::create(b, loc, indices, d));
    Location named = NameLoc::get(
        b.getStringAttr(ONNX::GatherElementsOp::getOperationName()), loc);
    return tensor::EmptyOp::create(b, named, resultType.getShape(),
                                   resultType.getElementType(), dynamicSizes);
  }

  /// A tensor of the shape of `indices` (`resultType`) filled with zeros of
  /// its element type (empty strings for !onnx.string).
  static Value emitZeroFilled(OpBuilder &b, Location loc, Value indices,
                              RankedTensorType resultType) {
    Type elementType = resultType.getElementType();
    Value zero;
    if (isa<ONNX::StringType>(elementType)) {
      zero = ONNX::ConstantStringOp::create(b, loc, "");
    } else {
      // All-zero bits of one element, read from a 1-element constant (no
      // scalar arith.constant exists for unsigned or complex types).
      auto complex = dyn_cast<ComplexType>(elementType);
      unsigned bits = complex
                          ? 2 * complex.getElementType().getIntOrFloatBitWidth()
                          : elementType.getIntOrFloatBitWidth();
      SmallVector<char> bytes((bits + 7) / 8, 0);
      auto oneType = RankedTensorType::get({1}, elementType);
      Value one = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::getFromRawBuffer(oneType, bytes));
      zero = tensor::ExtractOp::create(
          b, loc, one, ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
    }
    Value empty = emitEmpty(b, loc, indices, resultType);
    return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  }

  /// The gather: an all-parallel linalg.generic over the shape of
  /// `indices`. With `checkIndices`, also "any index value out of range"
  /// (second returned value, see emitAnyOutOfRange), emitted right after
  /// it: gather-codegen fuses the two into one loop nest
  /// that reads each index value once.
  SmallVector<Value> emitGather(OpBuilder &builder, Location loc, Value data,
                                Value indices, int64_t axis, Value axisSize,
                                RankedTensorType resultType,
                                bool checkIndices) {
    int64_t rank = resultType.getRank();
    Value init = emitEmpty(builder, loc, indices, resultType);
    SmallVector<AffineMap> indexingMaps(2,
                                        builder.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iteratorTypes(
        rank, utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        builder, loc, TypeRange{resultType}, ValueRange{indices},
        ValueRange{init}, indexingMaps, iteratorTypes,
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          Value safeIndex =
              ONNX::buildSafeIndex(b, nestedLoc, args[0], axisSize).first;
          SmallVector<Value> coordinates;
          for (int64_t d = 0; d < rank; ++d)
            coordinates.push_back(
                d == axis
                    ? safeIndex
                    : linalg::IndexOp::create(b, nestedLoc, d).getResult());
          Value element =
              tensor::ExtractOp::create(b, nestedLoc, data, coordinates);
          linalg::YieldOp::create(b, nestedLoc, element);
        },
        gather::getGatherElementsMarker(builder));
    if (!checkIndices)
      return {generic.getResult(0)};
    return {generic.getResult(0),
            checks->emitAnyOutOfRange(builder, loc, indices, axisSize)};
  }

  Location loc;
  /// The type of the op's result.
  Type declaredType;
  bool runtimeChecks;
  bool checkIndexValues;
  /// The op that holds the gather (a function, a loop, ...).
  Operation *anchor;
  /// Where the lowering started.
  OpBuilder::InsertPoint start;
  OpBuilder::Listener *listener;
  ModuleOp module;
  /// The op's run-time reports and checks.
  std::optional<RuntimeReporter> reporter;
  std::optional<GatherElementsChecks> checks;
};

/// Any op named `onnx.GatherElements` (ours, onnx-mlir's, or unregistered)
/// with operands `data`, `indices` and an optional integer attribute `axis`
/// (default 0), as ONNX GatherElements: replaced by buildGatherElements.
struct GatherElementsOpLowering : public ConversionPattern {
  GatherElementsOpLowering(MLIRContext *context,
                           const GatherElementsLoweringOptions &options)
      : ConversionPattern(ONNX::kGatherElementsOpName, /*benefit=*/1, context),
        options(options) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ONNX::GatherElementsView> gather =
        ONNX::GatherElementsView::getOrEmitError(op);
    if (failed(gather))
      return failure();
    GatherElementsLoweringOptions opOptions = options;
    if (op->hasAttr(ONNX::kIndicesCheckedByCallerAttrName))
      opOptions.checkIndexValues = false;
    FailureOr<Value> result = buildGatherElements(
        rewriter, op->getLoc(), operands[0], operands[1], gather->axis,
        op->getResult(0).getType(), opOptions);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }

private:
  GatherElementsLoweringOptions options;
};

} // namespace

FailureOr<Value>
gather::buildGatherElements(OpBuilder &builder, Location loc, Value data,
                            Value indices, int64_t axis, Type resultType,
                            const GatherElementsLoweringOptions &options) {
  return GatherElementsLowering(builder, loc, resultType, options)
      .lower(builder, data, indices, axis);
}

void gather::onnx_to_linalg::populateGatherElementsPatterns(
    RewritePatternSet &patterns, const GatherElementsLoweringOptions &options) {
  patterns.add<GatherElementsOpLowering>(patterns.getContext(), options);
}
