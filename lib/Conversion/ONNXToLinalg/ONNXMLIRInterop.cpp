//===- ONNXMLIRInterop.cpp - onnx-mlir ops to func ------------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-mlir's ops around a graph that convert-onnx-to-linalg lowers by name
// (see docs/ONNXMLIRInterop.md): onnx.Return, onnx.EntryPoint and unused
// onnx.NoValue.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace gather::onnx_to_linalg;

namespace {

/// `onnx.Return` (onnx-mlir's function terminator) in a func.func ->
/// func.return, with a tensor.cast where an operand type differs from the
/// function's result type.
struct ReturnOpLowering : public ConversionPattern {
  ReturnOpLowering(MLIRContext *context)
      : ConversionPattern(kReturnOpName, /*benefit=*/1, context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto function = dyn_cast<func::FuncOp>(op->getParentOp());
    if (!function || function.getNumResults() != operands.size())
      return rewriter.notifyMatchFailure(op, "not the terminator of a "
                                             "func.func with as many results");
    SmallVector<Value> results;
    for (auto [operand, type] :
         llvm::zip(operands, function.getResultTypes())) {
      Value value = operand;
      if (value.getType() != type &&
          tensor::CastOp::areCastCompatible(value.getType(), type))
        value = tensor::CastOp::create(rewriter, op->getLoc(), type, value);
      results.push_back(value);
    }
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, results);
    return success();
  }
};

/// An unused `onnx.NoValue` (onnx-mlir's placeholder for an omitted
/// optional operand) is erased; a used one is left to its users.
struct UnusedNoValueOpLowering : public ConversionPattern {
  UnusedNoValueOpLowering(MLIRContext *context)
      : ConversionPattern(kNoValueOpName, /*benefit=*/1, context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value>,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op->use_empty() || op->getNumRegions() != 0)
      return rewriter.notifyMatchFailure(op, "used");
    rewriter.eraseOp(op);
    return success();
  }
};

/// `onnx.EntryPoint` (onnx-mlir's module-level marker of the model's entry
/// function, `{func = @f}`) is erased: the function stays as it is, a
/// public func.func that gather-runner (`-e f`) or C code calls. One naming
/// no function of its symbol table is an error.
struct EntryPointOpLowering : public ConversionPattern {
  EntryPointOpLowering(MLIRContext *context)
      : ConversionPattern(kEntryPointOpName, /*benefit=*/1, context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value>,
                  ConversionPatternRewriter &rewriter) const override {
    auto function = op->getAttrOfType<FlatSymbolRefAttr>("func");
    if (!function || op->getNumOperands() != 0 || op->getNumResults() != 0 ||
        op->getNumRegions() != 0 ||
        !isa_and_nonnull<FunctionOpInterface>(
            SymbolTable::lookupNearestSymbolFrom(op, function)))
      return op->emitOpError("expects a 'func' attribute naming a function "
                             "of the module (onnx-mlir's entry point), and "
                             "no operands or results");
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void gather::onnx_to_linalg::populateONNXMLIRInteropPatterns(
    RewritePatternSet &patterns) {
  patterns.add<EntryPointOpLowering, ReturnOpLowering, UnusedNoValueOpLowering>(
      patterns.getContext());
}
