//===- ONNXToLinalg.cpp - onnx dialect to linalg/tensor/arith -------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pass `convert-onnx-to-linalg` (see Passes.td) and the patterns it
// applies; each family of patterns is in its own file (PopulatePatterns.h).
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "gather/Conversion/Passes.h"
#include "gather/Dialect/ONNX/GatherElementsView.h"
#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/RuntimeABI/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace gather {
#define GEN_PASS_DEF_CONVERTONNXTOLINALGPASS
#include "gather/Conversion/Passes.h.inc"
} // namespace gather

using namespace mlir;
using namespace gather;
using namespace gather::onnx_to_linalg;

namespace {

struct ConvertONNXToLinalgPass
    : public gather::impl::ConvertONNXToLinalgPassBase<
          ConvertONNXToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    // By name: ours, another dialect's or unregistered. Other ops of the
    // onnx namespace (ops gather does not define) are left as they are.
    target.addIllegalOp(OperationName(ONNX::kGatherElementsOpName, context));
    target.addIllegalOp(OperationName(kReturnOpName, context));
    target.addIllegalOp(OperationName(kEntryPointOpName, context));
    target.addIllegalOp<ONNX::IfOp, ONNX::LoopOp>();
    target.addDynamicallyLegalOp<ONNX::YieldOp>(
        [](Operation *op) { return !isLoweredRegionTerminator(op); });
    target.addDynamicallyLegalOp(
        OperationName(kNoValueOpName, context),
        [](Operation *op) { return !op->use_empty(); });
    // The ops this pass leaves: of the onnx namespace but not of gather's
    // dialect, and not lowered by name (onnx-mlir's onnx.TopK, ...).
    auto isLeft = [&target](Operation *op) {
      return ONNX::isForeignONNXOp(op) && target.isLegal(op).has_value();
    };
    // Our onnx.Constant only (another dialect's stays), unless only ops
    // left use it: the compiler of the rest expects onnx.Constant there.
    target.addDynamicallyLegalOp(
        OperationName(ONNX::ConstantOp::getOperationName(), context),
        [isLeft](Operation *op) {
          return !op->isRegistered() || !isa<ONNX::ConstantOp>(op) ||
                 isKeptConstant(op, isLeft);
        });
    target.addDynamicallyLegalOp<arith::ConstantOp>(
        [](arith::ConstantOp op) { return !isStringTensor(op.getType()); });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });

    // The runtime's function names are reserved: an existing symbol of that
    // name must be its declaration (the report functions this pass calls,
    // and every other runtime function too; see RuntimeABI.h).
    // (Declarations go into the module nearest to each op, so nested
    // modules are checked too.)
    if (failed(verifyRuntimeSymbols(getOperation())))
      return signalPassFailure();

    // A constant of both ops left and ops lowered: one copy for each.
    splitConstantsOfLeftOps(getOperation(), isLeft);

    RewritePatternSet patterns(context);
    populateONNXToLinalgConversionPatterns(patterns, runtimeChecks);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    // Placeholders of omitted operands that only lowered ops used (the
    // `none` trip count or condition of an onnx.Loop).
    getOperation()->walk([](Operation *op) {
      if (op->getName().getStringRef() == kNoValueOpName && op->use_empty())
        op->erase();
    });
  }
};

} // namespace

void gather::populateONNXToLinalgConversionPatterns(RewritePatternSet &patterns,
                                                    bool runtimeChecks) {
  GatherElementsLoweringOptions options;
  options.runtimeChecks = runtimeChecks;
  populateGatherElementsPatterns(patterns, options);
  populateONNXMLIRInteropPatterns(patterns);
  populateConstantPatterns(patterns);
  populateControlFlowPatterns(patterns);
}
