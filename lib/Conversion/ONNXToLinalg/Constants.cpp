//===- Constants.cpp - onnx.Constant to arith and string tables -----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx.Constant (and arith.constant of strings) in convert-onnx-to-linalg:
// numeric values become arith.constant, strings one table per constant;
// the constants of ops the pass leaves stay onnx.Constant.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/Support/CheckedSize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace gather;
using namespace gather::onnx_to_linalg;

bool gather::onnx_to_linalg::isStringTensor(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  return tensor && isa<ONNX::StringType>(tensor.getElementType());
}

namespace {

/// A constant tensor: numeric values become arith.constant; strings (which
/// arith.constant cannot lower) a table sliced by onnx.StringSlice in a
/// linalg.generic (see below; a linalg.fill of one onnx.ConstantString for a
/// splat, tensor.empty if there are no elements).
/// Also applies to an arith.constant of strings. Only the op class
/// `ConstantOpTy` itself is rewritten, not another dialect's op of the same
/// name (onnx-mlir's onnx.Constant).
template <typename ConstantOpTy>
struct ConstantLowering : public ConversionPattern {
  ConstantLowering(MLIRContext *context)
      : ConversionPattern(ConstantOpTy::getOperationName(), /*benefit=*/1,
                          context) {}

  LogicalResult
  matchAndRewrite(Operation *rawOp, ArrayRef<Value>,
                  ConversionPatternRewriter &rewriter) const override {
    // (isa alone also accepts an unregistered op of that name.)
    auto op =
        rawOp->isRegistered() ? dyn_cast<ConstantOpTy>(rawOp) : ConstantOpTy();
    if (!op)
      return rewriter.notifyMatchFailure(rawOp, "another dialect's op");
    auto type = dyn_cast<RankedTensorType>(op.getType());
    auto value = dyn_cast<ElementsAttr>(op.getValue());
    if (!type || !value)
      return rewriter.notifyMatchFailure(op, "expects a ranked tensor");
    if (!isStringTensor(type)) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type,
                                                     cast<TypedAttr>(value));
      return success();
    }
    auto strings = dyn_cast<DenseStringElementsAttr>(value);
    if (!strings)
      return op.emitOpError("expects a dense string elements attribute");
    if (gather::hasZeroSize(type.getShape())) {
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, type.getShape(),
                                                   type.getElementType());
      return success();
    }
    Location loc = op.getLoc();
    if (strings.isSplat()) {
      // One string, filled in: no per-element ops.
      Value string = ONNX::ConstantStringOp::create(
          rewriter, loc, strings.getRawStringData().front());
      Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                            type.getElementType());
      rewriter.replaceOpWithNewOp<linalg::FillOp>(op, string, empty);
      return success();
    }
    // One table, whatever the number of elements (no op, global or store
    // per string): the bytes of the distinct strings, each once, in one
    // onnx.ConstantString; each element's offset and length in them in two
    // i64 constants; a linalg.generic slicing each element out of the bytes.
    std::string bytes;
    llvm::StringMap<int64_t> offsets;
    ArrayRef<StringRef> elements = strings.getRawStringData();
    SmallVector<int64_t> begins, lengths;
    begins.reserve(elements.size());
    lengths.reserve(elements.size());
    for (StringRef element : elements) {
      auto [offset, isNew] = offsets.try_emplace(element, bytes.size());
      if (isNew)
        bytes += element;
      begins.push_back(offset->second);
      lengths.push_back(static_cast<int64_t>(element.size()));
    }
    auto offsetType =
        RankedTensorType::get(type.getShape(), rewriter.getI64Type());
    Value all = ONNX::ConstantStringOp::create(rewriter, loc, bytes);
    Value inputs[] = {
        arith::ConstantOp::create(
            rewriter, loc, DenseIntElementsAttr::get(offsetType, begins)),
        arith::ConstantOp::create(
            rewriter, loc, DenseIntElementsAttr::get(offsetType, lengths))};
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    SmallVector<AffineMap> maps(
        3, rewriter.getMultiDimIdentityMap(type.getRank()));
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    rewriter.replaceOpWithNewOp<linalg::GenericOp>(
        op, TypeRange{type}, inputs, empty, maps, iterators,
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          Value element =
              ONNX::StringSliceOp::create(b, bodyLoc, all, args[0], args[1]);
          linalg::YieldOp::create(b, bodyLoc, element);
        });
    return success();
  }
};

} // namespace

bool gather::onnx_to_linalg::isKeptConstant(
    Operation *constant, function_ref<bool(Operation *)> isLeft) {
  return !constant->use_empty() && llvm::all_of(constant->getUsers(), isLeft);
}

void gather::onnx_to_linalg::splitConstantsOfLeftOps(
    Operation *root, function_ref<bool(Operation *)> isLeft) {
  root->walk([&](ONNX::ConstantOp constant) {
    Value value = constant.getResult();
    bool feedsLeft = llvm::any_of(value.getUsers(), isLeft);
    if (!feedsLeft || isKeptConstant(constant, isLeft))
      return;
    OpBuilder builder(constant);
    builder.setInsertionPointAfter(constant);
    Value copy = builder.clone(*constant)->getResult(0);
    value.replaceUsesWithIf(
        copy, [&](OpOperand &use) { return isLeft(use.getOwner()); });
  });
}

void gather::onnx_to_linalg::populateConstantPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ConstantLowering<ONNX::ConstantOp>,
               ConstantLowering<arith::ConstantOp>>(patterns.getContext());
}
