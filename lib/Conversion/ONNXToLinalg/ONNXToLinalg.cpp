//===- ONNXToLinalg.cpp - onnx dialect to linalg/tensor/arith -------------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// Lowers onnx.GatherElements (ONNX opset 13) to an all-parallel
// linalg.generic over the shape of `indices` that reads `data` with
// tensor.extract.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/Passes.h"
#include "gather/Dialect/ONNX/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace gather {
#define GEN_PASS_DEF_CONVERTONNXTOLINALGPASS
#include "gather/Conversion/Passes.h.inc"
} // namespace gather

using namespace mlir;
using namespace gather;

namespace {

/// Returns the size of dimension `dim` of the ranked tensor `value` as an
/// `index` value: a constant when it is static, a tensor.dim otherwise.
Value getDimSize(OpBuilder &builder, Location loc, Value value, int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(dim))
    return arith::ConstantIndexOp::create(builder, loc, type.getDimSize(dim));
  return tensor::DimOp::create(builder, loc, value, dim);
}

/// onnx.GatherElements -> tensor.empty + linalg.generic:
///
///   out[i0, .., ir-1] = data[i0, .., k, .., ir-1],  k at position `axis`,
///   k = safe(indices[i0, .., ir-1])
///
/// where safe(i) = i + s if i < 0 (s = data.shape[axis]), then 0 if the
/// result is still outside [0, s). The clamp keeps every read inside `data`
/// for any index value; valid inputs never reach it.
struct GatherElementsOpLowering
    : public OpConversionPattern<onnx::GatherElementsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::GatherElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    Value indices = adaptor.getIndices();
    auto dataType = dyn_cast<RankedTensorType>(data.getType());
    auto indicesType = dyn_cast<RankedTensorType>(indices.getType());
    if (!dataType || !indicesType)
      return op.emitOpError("cannot be lowered with unranked operands; "
                            "refine their types first");
    std::optional<int64_t> axis = op.getNormalizedAxis();
    if (!axis)
      return op.emitOpError("has an invalid 'axis'");
    int64_t rank = dataType.getRank();

    // Destination: a tensor of the shape of `indices`.
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < rank; ++d)
      if (indicesType.isDynamicDim(d))
        dynamicSizes.push_back(
            tensor::DimOp::create(rewriter, loc, indices, d));
    auto resultType = RankedTensorType::get(indicesType.getShape(),
                                            dataType.getElementType());
    Value init =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                resultType.getElementType(), dynamicSizes);

    Value axisSize = getDimSize(rewriter, loc, data, *axis);
    SmallVector<AffineMap> indexingMaps(2,
                                        rewriter.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iteratorTypes(
        rank, utils::IteratorType::parallel);

    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{indices},
        ValueRange{init}, indexingMaps, iteratorTypes,
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          // Sign-extend i32/i64 to index, then wrap negative indices.
          Value index = arith::IndexCastOp::create(b, nestedLoc,
                                                   b.getIndexType(), args[0]);
          Value zero = arith::ConstantIndexOp::create(b, nestedLoc, 0);
          Value isNegative = arith::CmpIOp::create(
              b, nestedLoc, arith::CmpIPredicate::slt, index, zero);
          Value wrapped = arith::AddIOp::create(b, nestedLoc, index, axisSize);
          Value normalized =
              arith::SelectOp::create(b, nestedLoc, isNegative, wrapped, index);
          // Unsigned compare: negative values are out of range too.
          Value inRange = arith::CmpIOp::create(
              b, nestedLoc, arith::CmpIPredicate::ult, normalized, axisSize);
          Value safeIndex =
              arith::SelectOp::create(b, nestedLoc, inRange, normalized, zero);

          SmallVector<Value> coordinates;
          for (int64_t d = 0; d < rank; ++d)
            coordinates.push_back(
                d == *axis
                    ? safeIndex
                    : linalg::IndexOp::create(b, nestedLoc, d).getResult());
          Value element =
              tensor::ExtractOp::create(b, nestedLoc, data, coordinates);
          linalg::YieldOp::create(b, nestedLoc, element);
        });

    Value result = generic.getResult(0);
    if (result.getType() != op.getType())
      result = tensor::CastOp::create(rewriter, loc, op.getType(), result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConvertONNXToLinalgPass
    : public gather::impl::ConvertONNXToLinalgPassBase<
          ConvertONNXToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    target.addIllegalDialect<onnx::ONNXDialect>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           tensor::TensorDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });

    RewritePatternSet patterns(context);
    populateONNXToLinalgConversionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void gather::populateONNXToLinalgConversionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<GatherElementsOpLowering>(patterns.getContext());
}
