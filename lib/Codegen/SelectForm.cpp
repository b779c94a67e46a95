//===- SelectForm.cpp - The target's code shape for gathers ---------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements `gather-select-form` (see Passes.td): asks the target CPU
// (TargetInfo: LLVM's TargetTransformInfo and the fast-gather tuning bit)
// which form each vector.gather gets, and scalarizes those that are not to
// stay hardware gathers with upstream's Gather1DToConditionalLoads patterns
// plus the canonicalization of scf.if (the masks are all-true constants,
// unless a vector.mask around the gather is folded into it: VectorMasks.h).
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/Passes.h"
#include "gather/Codegen/TargetInfo.h"
#include "gather/Codegen/VectorMasks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace gather {
#define GEN_PASS_DEF_SELECTFORMPASS
#include "gather/Codegen/Passes.h.inc"
} // namespace gather

using namespace mlir;

namespace {

struct SelectFormPass
    : public gather::impl::SelectFormPassBase<SelectFormPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    auto info = gather::TargetInfo::create(targetCpu, targetFeatures);
    if (!info)
      return emitError(UnknownLoc::get(context), "gather-select-form: ")
             << llvm::toString(info.takeError());
    target = std::move(*info);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    gather::GatherForm form = gatherForm;
    if (form == gather::GatherForm::Scalar)
      form = gather::GatherForm::Scalarized;

    // An explicit target: the functions say what they are compiled for.
    if (!targetCpu.empty() || !targetFeatures.empty()) {
      MLIRContext *context = &getContext();
      auto cpu = StringAttr::get(context, target->getCPU());
      std::string featureList = target->getCodeGenFeatures(gatherForm);
      auto features = LLVM::TargetFeaturesAttr::get(context, featureList);
      module.walk([&](FunctionOpInterface function) {
        if (function.isExternal())
          return;
        function->setAttr("target_cpu", cpu);
        if (featureList.empty())
          function->removeAttr("target_features");
        else
          function->setAttr("target_features", features);
      });
    }

    // A gather in a vector.mask (upstream's vectorizer, for tiles that do
    // not divide the shape): the mask is folded into the gather's first,
    // whose lanes it disables are then not loaded.
    SmallVector<Operation *> scalarize;
    module.walk([&](vector::GatherOp gather) {
      VectorType type = gather.getVectorType();
      if (type.isScalable())
        return;
      if (target->resolve(form, type.getElementType(),
                          static_cast<unsigned>(type.getNumElements())) ==
          gather::GatherForm::Hardware)
        return;
      if (auto mask = dyn_cast<vector::MaskOp>(gather->getParentOp()))
        scalarize.push_back(mask);
      else
        scalarize.push_back(gather);
    });
    if (scalarize.empty())
      return;

    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    gather::populateLowerVectorMasksPatterns(patterns);
    // n-D gathers are unrolled to 1-D ones first.
    vector::populateVectorGatherLoweringPatterns(patterns);
    vector::populateVectorGatherToConditionalLoadPatterns(patterns);
    scf::IfOp::getCanonicalizationPatterns(patterns, context);
    vector::ExtractOp::getCanonicalizationPatterns(patterns, context);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(scalarize, std::move(patterns), config)))
      return signalPassFailure();

    // Every gather that was to be scalarized is gone (the patterns do not
    // apply to a memref whose innermost stride is not 1).
    WalkResult left = module.walk([&](vector::GatherOp gather) {
      VectorType type = gather.getVectorType();
      if (type.isScalable() ||
          target->resolve(form, type.getElementType(),
                          static_cast<unsigned>(type.getNumElements())) ==
              gather::GatherForm::Hardware)
        return WalkResult::advance();
      gather.emitError("gather-select-form: cannot scalarize this gather");
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }

  std::shared_ptr<gather::TargetInfo> target;
};

} // namespace
