//===- LowerNestedModules.cpp - onnx-to-llvm on nested modules first ------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather-lower-nested-modules (include/gather/Pipelines/Passes.td): the
// whole onnx-to-llvm pipeline, run on each nested builtin.module as a
// dynamic pipeline, before the outer module's pipeline goes on.
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Passes.h"
#include "gather/Pipelines/Pipelines.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"

namespace gather {
#define GEN_PASS_DEF_LOWERNESTEDMODULESPASS
#include "gather/Pipelines/Passes.h.inc"
} // namespace gather

using namespace mlir;

/// Whether `module` itself (not a module nested in it) holds an op the
/// pipeline would lower: one that is neither of the LLVM dialect nor a
/// builtin.module.
static bool needsLowering(ModuleOp module) {
  return module
      ->walk<WalkOrder::PreOrder>([module](Operation *op) {
        if (auto nested = dyn_cast<ModuleOp>(op))
          return nested == module ? WalkResult::advance() : WalkResult::skip();
        return isa_and_nonnull<LLVM::LLVMDialect>(op->getDialect())
                   ? WalkResult::advance()
                   : WalkResult::interrupt();
      })
      .wasInterrupted();
}

namespace {
struct LowerNestedModulesPass
    : gather::impl::LowerNestedModulesPassBase<LowerNestedModulesPass> {
  using Base::Base;

  /// The nested pipeline's dialects, loaded before any pass runs (a
  /// dynamic pipeline may not load dialects while passes run): those of its
  /// stages (its first pass is this one again).
  void getDependentDialects(DialectRegistry &registry) const override {
    auto options = gather::parseONNXToLLVMPipelineOptions(pipelineOptions);
    if (!options) {
      llvm::consumeError(options.takeError());
      return;
    }
    OpPassManager pm(ModuleOp::getOperationName());
    gather::addONNXToLLVMStages(pm, **options);
    pm.getDependentDialects(registry);
  }

  /// Bad pipeline-options are an error whether or not a nested module
  /// needs them.
  LogicalResult initialize(MLIRContext *context) override {
    auto options = gather::parseONNXToLLVMPipelineOptions(pipelineOptions);
    if (options)
      return success();
    return emitError(UnknownLoc::get(context))
           << "gather-lower-nested-modules: invalid pipeline-options '"
           << pipelineOptions << "': " << llvm::toString(options.takeError());
  }

  void runOnOperation() override {
    ModuleOp root = getOperation();
    // Deepest first (post-order), each module once: its seven stages only
    // (its own nested modules are done), so a module nested N deep costs N
    // checks of its own ops, not N pipelines.
    SmallVector<ModuleOp> nested;
    WalkResult placed = root->walk<WalkOrder::PostOrder>([&](ModuleOp module) {
      if (module == root)
        return WalkResult::advance();
      bool lower = needsLowering(module);
      if (failed(checkPlacement(module, lower)))
        return WalkResult::interrupt();
      if (lower)
        nested.push_back(module);
      return WalkResult::advance();
    });
    if (placed.wasInterrupted())
      return signalPassFailure();
    if (nested.empty())
      return;
    OpPassManager pm(ModuleOp::getOperationName());
    if (failed(buildNestedPipeline(pm, root.getLoc())))
      return signalPassFailure();
    for (ModuleOp module : nested)
      if (failed(runPipeline(pm, module)))
        return signalPassFailure();
  }

private:
  /// A nested module is compiled (and linked, translated) only as an op of
  /// another module's body: inside a function (e.g. in an
  /// scf.execute_region) or another op, the outer module's passes would
  /// treat its ops as the function's (buffer deallocation, the LLVM
  /// translation), so it is an error there, at the module, with a note at
  /// the op that holds it. A module that is already LLVM dialect inside an
  /// LLVM dialect op (an llvm.func's block) is left as it is: nothing here
  /// lowers either.
  static LogicalResult checkPlacement(ModuleOp module, bool needsLowering) {
    Operation *parent = module->getParentOp();
    if (isa<ModuleOp>(parent) ||
        (!needsLowering &&
         isa_and_nonnull<LLVM::LLVMDialect>(parent->getDialect())))
      return success();
    InFlightDiagnostic diag = emitError(module.getLoc())
                              << "a builtin.module inside '"
                              << parent->getName()
                              << "' is not supported: onnx-to-llvm compiles "
                                 "a nested builtin.module only as an op of "
                                 "another builtin.module's body (move it "
                                 "there)";
    Operation *function = isa<FunctionOpInterface>(parent)
                              ? parent
                              : parent->getParentOfType<FunctionOpInterface>();
    if (function)
      diag.attachNote(function->getLoc()) << "in this function";
    else
      diag.attachNote(parent->getLoc()) << "the op that holds it";
    return diag;
  }

  /// onnx-to-llvm's seven stages with `pipeline-options` (without this
  /// pass: the modules nested deeper go first); an invalid option is an
  /// error at `loc`.
  LogicalResult buildNestedPipeline(OpPassManager &pm, Location loc) const {
    auto options = gather::parseONNXToLLVMPipelineOptions(pipelineOptions);
    if (!options)
      return emitError(loc)
             << "gather-lower-nested-modules: invalid "
                "pipeline-options '"
             << pipelineOptions << "': " << llvm::toString(options.takeError());
    gather::addONNXToLLVMStages(pm, **options);
    return success();
  }
};
} // namespace
