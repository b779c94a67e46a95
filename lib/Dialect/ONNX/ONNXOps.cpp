//===- ONNXOps.cpp - Operations of the onnx dialect -----------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/Dialect/ONNX/GatherElementsView.h"
#include "gather/Support/CheckedSize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

#include <limits>

using namespace mlir;
using namespace gather::ONNX;

//===----------------------------------------------------------------------===//
// GatherElementsOp
//===----------------------------------------------------------------------===//

/// Result type of GatherElements (ONNX spec, "Outputs"): the shape of
/// `indices` with the element type of `data`. Called by builders, the parser
/// and the verifier before `verify()`, so it assumes nothing about ranks or
/// `axis`.
Type GatherElementsOp::inferResultType(Type dataType, Type indicesType) {
  auto dataTensorType = dyn_cast<TensorType>(dataType);
  auto indicesTensorType = dyn_cast<TensorType>(indicesType);
  if (!dataTensorType || !indicesTensorType)
    return nullptr;
  Type elementType = dataTensorType.getElementType();
  if (!indicesTensorType.hasRank())
    return UnrankedTensorType::get(elementType);
  return RankedTensorType::get(indicesTensorType.getShape(), elementType);
}

LogicalResult GatherElementsOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  Type resultType = inferResultType(adaptor.getData().getType(),
                                    adaptor.getIndices().getType());
  if (!resultType)
    return emitOptionalError(
        location, "'onnx.GatherElements' op expects tensor operands");
  inferredReturnTypes.push_back(resultType);
  return success();
}

/// A declared result may be less static than the inferred one
/// (`tensor<?x3xf32>` or `tensor<*xf32>` for an inferred `tensor<2x3xf32>`),
/// but must have the same element type and no conflicting dimension.
bool GatherElementsOp::isCompatibleReturnTypes(TypeRange inferred,
                                               TypeRange actual) {
  if (inferred.size() != 1 || actual.size() != 1)
    return false;
  auto inferredType = dyn_cast<TensorType>(inferred.front());
  auto actualType = dyn_cast<TensorType>(actual.front());
  return inferredType && actualType &&
         inferredType.getElementType() == actualType.getElementType() &&
         succeeded(verifyCompatibleShape(inferredType, actualType));
}

/// Parses `data-type, indices-type [-> result-type]`; without a result type,
/// infers it.
static ParseResult parseGatherElementsTypes(OpAsmParser &parser, Type &dataType,
                                            Type &indicesType,
                                            Type &outputType) {
  SMLoc typesLoc = parser.getCurrentLocation();
  if (parser.parseType(dataType) || parser.parseComma() ||
      parser.parseType(indicesType))
    return failure();
  if (succeeded(parser.parseOptionalArrow()))
    return parser.parseType(outputType);
  outputType = GatherElementsOp::inferResultType(dataType, indicesType);
  if (!outputType)
    return parser.emitError(typesLoc, "expected tensor types for 'data' and "
                                      "'indices', got ")
           << dataType << " and " << indicesType;
  return success();
}

static void printGatherElementsTypes(OpAsmPrinter &printer, Operation *,
                                     Type dataType, Type indicesType,
                                     Type outputType) {
  printer << dataType << ", " << indicesType;
  if (outputType != GatherElementsOp::inferResultType(dataType, indicesType))
    printer << " -> " << outputType;
}

std::optional<int64_t> GatherElementsOp::getNormalizedAxis() {
  auto dataType = dyn_cast<RankedTensorType>(getData().getType());
  if (!dataType)
    return std::nullopt;
  int64_t rank = dataType.getRank();
  int64_t axis = getAxis();
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return normalizeAxis(axis, rank);
}

/// Prints a position in a tensor as `[i, j, k]`.
static void printPosition(InFlightDiagnostic &diag, ArrayRef<int64_t> shape,
                          int64_t linearIndex) {
  SmallVector<int64_t> position(shape.size(), 0);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (shape[d] > 0) {
      position[d] = linearIndex % shape[d];
      linearIndex /= shape[d];
    }
  }
  diag << "[";
  llvm::interleaveComma(position, diag);
  diag << "]";
}

LogicalResult gather::ONNX::verifyGatherElements(
    llvm::function_ref<InFlightDiagnostic()> emitOpError, Value data,
    Value indices, int64_t axis, Type resultType) {
  auto dataType = dyn_cast<TensorType>(data.getType());
  auto indicesType = dyn_cast<TensorType>(indices.getType());
  if (!dataType || !indicesType)
    return emitOpError() << "expects tensor operands, but 'data' has type "
                         << data.getType() << " and 'indices' has type "
                         << indices.getType();
  if (resultType) {
    auto tensorType = dyn_cast<TensorType>(resultType);
    if (!tensorType ||
        tensorType.getElementType() != dataType.getElementType() ||
        failed(verifyCompatibleShape(tensorType, indicesType)))
      return emitOpError() << "result type " << resultType
                           << " must be a tensor of the element type of "
                              "'data' and of the shape of 'indices' ("
                           << GatherElementsOp::inferResultType(dataType,
                                                                indicesType)
                           << ")";
  }

  Type indexElementType = indicesType.getElementType();
  if (!indexElementType.isSignlessInteger(32) &&
      !indexElementType.isSignlessInteger(64))
    return emitOpError()
           << "operand 'indices' must have element type i32 or i64, but has "
              "element type "
           << indexElementType;

  // The rank r is rank(data) = rank(indices): whichever operand is ranked
  // fixes it. Messages name the operand it was taken from.
  if (!dataType.hasRank() && !indicesType.hasRank())
    return success();
  TensorType rankedType = dataType.hasRank() ? dataType : indicesType;
  StringRef rankedName = dataType.hasRank() ? "data" : "indices";
  int64_t rank = rankedType.getRank();
  if (rank < 1)
    return emitOpError() << "operand '" << rankedName
                         << "' must have rank >= 1, but has type "
                         << rankedType;

  if (axis < -rank || axis >= rank)
    return emitOpError() << "attribute 'axis' = " << axis
                         << " is out of range [" << -rank << ", " << rank - 1
                         << "] for operand '" << rankedName << "' of rank "
                         << rank;
  int64_t normalizedAxis = normalizeAxis(axis, rank);

  if (!dataType.hasRank() || !indicesType.hasRank())
    return success();
  if (indicesType.getRank() != rank)
    return emitOpError() << "operand 'indices' must have the rank of operand "
                            "'data' ("
                         << rank << "), but has rank " << indicesType.getRank()
                         << " (" << indicesType << ")";

  ArrayRef<int64_t> dataShape = dataType.getShape();
  ArrayRef<int64_t> indicesShape = indicesType.getShape();
  for (int64_t d = 0; d < rank; ++d) {
    if (d == normalizedAxis || ShapedType::isDynamic(dataShape[d]) ||
        ShapedType::isDynamic(indicesShape[d]))
      continue;
    if (indicesShape[d] > dataShape[d])
      return emitOpError()
             << "operand 'indices' has size " << indicesShape[d]
             << " in dimension " << d << ", larger than size " << dataShape[d]
             << " of operand 'data' there; only along the axis (dimension "
             << normalizedAxis << ") may 'indices' be larger than 'data'";
  }

  // Index values known at compile time must be in [-s, s-1].
  int64_t axisSize = dataShape[normalizedAxis];
  if (ShapedType::isDynamic(axisSize))
    return success();
  // An axis of size 0 has no valid index at all. (The count is checked: a
  // product of sizes may not fit in 64 bits.)
  if (axisSize == 0 && indicesType.hasStaticShape() &&
      !gather::hasZeroSize(indicesShape)) {
    InFlightDiagnostic diag = emitOpError()
                              << "operand 'data' has size 0 along axis "
                              << normalizedAxis
                              << ", so no index is valid, but operand "
                              << "'indices' has ";
    if (std::optional<int64_t> count =
            gather::getCheckedNumElements(indicesShape))
      diag << *count;
    else
      diag << "more than " << std::numeric_limits<int64_t>::max();
    return diag << " elements";
  }

  DenseIntElementsAttr constantIndices;
  if (matchPattern(indices, m_Constant(&constantIndices))) {
    ArrayRef<int64_t> constantShape = constantIndices.getType().getShape();
    auto values = constantIndices.getValues<APInt>();
    // A splat is one value, whatever its (possibly huge) element count.
    int64_t numChecked = constantIndices.isSplat()
                             ? (gather::hasZeroSize(constantShape) ? 0 : 1)
                             : static_cast<int64_t>(values.size());
    for (int64_t i = 0; i < numChecked; ++i) {
      int64_t value = values[i].getSExtValue();
      if (value >= -axisSize && value < axisSize)
        continue;
      InFlightDiagnostic diag = emitOpError();
      diag << "operand 'indices' holds value " << value << " at position ";
      printPosition(diag, constantShape, i);
      diag << ", outside the valid range [" << -axisSize << ", " << axisSize - 1
           << "] for axis " << normalizedAxis << " of size " << axisSize;
      return diag;
    }
    return success();
  }
  return success();
}

/// Whether the index rule for `index` (i32 or i64) on an axis of size
/// `axisSize` is exact in i32 (buildNormalizedIndex); vector code then holds
/// twice the lanes per register.
static bool canNormalizeInI32(Value index, Value axisSize) {
  std::optional<int64_t> size = getConstantIntValue(axisSize);
  return index.getType().isInteger(32) && size &&
         *size <= std::numeric_limits<int32_t>::max();
}

namespace {
/// The values of the index rule, in the type they were computed in (i32 or
/// index).
struct IndexRule {
  Value normalized, inRange, safe;
};
} // namespace

/// The index rule of buildNormalizedIndex and buildSafeIndex (`safe` only
/// with `withSafe`).
static IndexRule buildIndexRule(OpBuilder &b, Location loc, Value index,
                                Value axisSize, bool withSafe) {
  Type type = b.getIndexType();
  Value i = index, size = axisSize;
  if (canNormalizeInI32(index, axisSize)) {
    type = index.getType();
    size = arith::ConstantIntOp::create(b, loc, type,
                                        *getConstantIntValue(axisSize));
  } else {
    i = arith::IndexCastOp::create(b, loc, type, index);
  }
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  Value isNegative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, zero);
  Value wrapped = arith::AddIOp::create(b, loc, i, size);
  IndexRule rule;
  rule.normalized = arith::SelectOp::create(b, loc, isNegative, wrapped, i);
  rule.inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       rule.normalized, size);
  if (withSafe)
    rule.safe =
        arith::SelectOp::create(b, loc, rule.inRange, rule.normalized, zero);
  return rule;
}

/// `value` (i32 or index) as an index.
static Value toIndex(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

std::pair<Value, Value> gather::ONNX::buildNormalizedIndex(OpBuilder &b,
                                                           Location loc,
                                                           Value index,
                                                           Value axisSize) {
  IndexRule rule = buildIndexRule(b, loc, index, axisSize, /*withSafe=*/false);
  return {toIndex(b, loc, rule.normalized), rule.inRange};
}

std::pair<Value, Value> gather::ONNX::buildSafeIndex(OpBuilder &b, Location loc,
                                                     Value index,
                                                     Value axisSize) {
  IndexRule rule = buildIndexRule(b, loc, index, axisSize, /*withSafe=*/true);
  return {toIndex(b, loc, rule.safe), rule.inRange};
}

LogicalResult GatherElementsOp::verify() {
  return verifyGatherElements([&]() { return emitOpError(); }, getData(),
                              getIndices(), getAxis());
}

/// Calls `fn(linearIndex, coordinates)` for every element of a static shape,
/// in row-major order.
template <typename Fn>
static void forEachCoordinate(ArrayRef<int64_t> shape, Fn &&fn) {
  // (Callers bound the count: fold() folds only small static results.)
  int64_t numElements = gather::getCheckedNumElements(shape).value_or(0);
  SmallVector<int64_t> coordinates(shape.size(), 0);
  for (int64_t linear = 0; linear < numElements; ++linear) {
    fn(linear, ArrayRef<int64_t>(coordinates));
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++coordinates[d] < shape[d])
        break;
      coordinates[d] = 0;
    }
  }
}

namespace {
/// `tensor.cast` of a gather's result (its only use) to a more static type
/// becomes the gather's declared result type, which the lowering checks at
/// run time. A cast that does not hold at run time is undefined behavior:
/// the gather would be computed into a buffer (a destination) of the
/// cast's sizes, past its end.
struct FoldStaticCastIntoGatherElements final
    : OpRewritePattern<tensor::CastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::CastOp cast,
                                PatternRewriter &rewriter) const override {
    auto gather = cast.getSource().getDefiningOp<GatherElementsOp>();
    auto type = dyn_cast<RankedTensorType>(cast.getType());
    if (!gather || !gather->hasOneUse() || !type || type == gather.getType())
      return failure();
    if (isa<RankedTensorType>(gather.getType()) &&
        !tensor::preservesStaticInformation(gather.getType(), type))
      return rewriter.notifyMatchFailure(cast, "not a more static type");
    rewriter.modifyOpInPlace(gather, [&] { gather.getResult().setType(type); });
    rewriter.replaceOp(cast, gather.getResult());
    return success();
  }
};
} // namespace

void GatherElementsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                   MLIRContext *context) {
  results.add<FoldStaticCastIntoGatherElements>(context);
}

OpFoldResult GatherElementsOp::fold(FoldAdaptor adaptor) {
  auto indicesAttr =
      dyn_cast_or_null<DenseIntElementsAttr>(adaptor.getIndices());
  auto dataType = dyn_cast<RankedTensorType>(getData().getType());
  auto resultType = dyn_cast<RankedTensorType>(getType());
  std::optional<int64_t> axis = getNormalizedAxis();
  if (!indicesAttr || !dataType || !dataType.hasStaticShape() || !resultType ||
      !resultType.hasStaticShape() || !axis)
    return {};
  ArrayRef<int64_t> indicesShape = indicesAttr.getType().getShape();
  // Folding walks every index: only for results of reasonable size (counted
  // without wrap-around: tensor<2x9223372036854775807xi64> is not small).
  constexpr int64_t kMaxFoldedElements = int64_t(1) << 20;
  std::optional<int64_t> numElements =
      gather::getCheckedNumElements(resultType.getShape());
  if (indicesShape != resultType.getShape() || !numElements ||
      *numElements > kMaxFoldedElements)
    return {};
  int64_t axisSize = dataType.getDimSize(*axis);
  SmallVector<int64_t> indexValues;
  indexValues.reserve(*numElements);
  for (const APInt &value : indicesAttr.getValues<APInt>()) {
    int64_t index = value.getSExtValue();
    if (index < -axisSize || index >= axisSize)
      return {}; // Invalid: leave it to the verifier or the run-time check.
    indexValues.push_back(index < 0 ? index + axisSize : index);
  }

  // Identity: every element of `data` selected in place.
  if (resultType == dataType) {
    bool isIdentity = true;
    forEachCoordinate(indicesShape,
                      [&](int64_t linear, ArrayRef<int64_t> coordinates) {
                        isIdentity &= indexValues[linear] == coordinates[*axis];
                      });
    if (isIdentity)
      return getData();
  }

  // Constant data: gather at compile time.
  // (Linear positions in `data` must fit in int64_t: a splat may be huge.)
  auto dataAttr = dyn_cast_or_null<DenseElementsAttr>(adaptor.getData());
  if (!dataAttr || !gather::getCheckedNumElements(dataType.getShape()))
    return {};
  // Strings: bound the bytes of the result too, not only its elements.
  if (auto strings = dyn_cast<DenseStringElementsAttr>(dataAttr)) {
    size_t longest = 0;
    for (StringRef string : strings.getRawStringData())
      longest = std::max(longest, string.size());
    constexpr size_t kMaxFoldedBytes = size_t(1) << 24;
    if (longest * static_cast<size_t>(*numElements) > kMaxFoldedBytes)
      return {};
  }
  auto dataValues = dataAttr.getValues<Attribute>();
  ArrayRef<int64_t> dataShape = dataType.getShape();
  SmallVector<Attribute> resultValues;
  resultValues.reserve(*numElements);
  forEachCoordinate(indicesShape,
                    [&](int64_t linear, ArrayRef<int64_t> coordinates) {
                      int64_t dataLinear = 0;
                      for (size_t d = 0; d < coordinates.size(); ++d) {
                        int64_t coordinate = static_cast<int64_t>(d) == *axis
                                                 ? indexValues[linear]
                                                 : coordinates[d];
                        dataLinear = dataLinear * dataShape[d] + coordinate;
                      }
                      resultValues.push_back(dataValues[dataLinear]);
                    });
  return DenseElementsAttr::get(resultType, resultValues);
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult
ConstantOp::inferReturnTypes(MLIRContext *context,
                             std::optional<Location> location, Adaptor adaptor,
                             SmallVectorImpl<Type> &inferredReturnTypes) {
  auto value = dyn_cast_or_null<TypedAttr>(adaptor.getValueAttr());
  if (!value)
    return emitOptionalError(location, "'onnx.Constant' op expects a typed "
                                       "elements attribute");
  inferredReturnTypes.push_back(value.getType());
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor adaptor) { return getValueAttr(); }

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  auto function = cast<func::FuncOp>((*this)->getParentOp());
  ArrayRef<Type> resultTypes = function.getFunctionType().getResults();
  if (getNumOperands() != resultTypes.size())
    return emitOpError("has ")
           << getNumOperands() << " operands, but the enclosing function "
           << "returns " << resultTypes.size() << " results";
  for (auto [index, operand, type] :
       llvm::enumerate(getOperandTypes(), resultTypes)) {
    if (!areCompatibleValueTypes(operand, type))
      return emitOpError("operand ")
             << index << " has type " << operand
             << ", which is not compatible with the function's result type "
             << type;
  }
  return success();
}

#define GET_OP_CLASSES
#include "gather/Dialect/ONNX/ONNXOps.cpp.inc"
