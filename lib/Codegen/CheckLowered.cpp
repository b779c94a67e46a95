//===- CheckLowered.cpp - Fail at the ops a lowering left -----------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements `gather-check-lowered` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/Passes.h"
#include "gather/Dialect/ONNX/ONNXDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace gather {
#define GEN_PASS_DEF_CHECKLOWEREDPASS
#include "gather/Codegen/Passes.h.inc"
} // namespace gather

using namespace mlir;

static bool isLLVMLevelOp(Operation *op) {
  // (gpu=cuda: the GPU dialect's translation handles a gpu.binary and a
  // gpu.launch_func on LLVM types, as gpu-to-llvm leaves it.)
  if (isa<ModuleOp, gpu::BinaryOp>(op))
    return true;
  if (isa<gpu::LaunchFuncOp>(op))
    return llvm::all_of(op->getOperandTypes(), LLVM::isCompatibleType);
  StringRef dialect = op->getName().getDialectNamespace();
  return op->isRegistered() &&
         (dialect == LLVM::LLVMDialect::getDialectNamespace() ||
          dialect == omp::OpenMPDialect::getDialectNamespace());
}

namespace {

struct CheckLoweredPass
    : public gather::impl::CheckLoweredPassBase<CheckLoweredPass> {
  using Base::Base;

  void runOnOperation() override {
    if (level == gather::CheckLevel::ONNX)
      return checkONNXLevel();
    // The first op left in program order; an unrealized_conversion_cast
    // only if nothing else is left (casts are what a conversion leaves
    // around an op it could not lower).
    Operation *left = nullptr;
    Operation *leftCast = nullptr;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isLLVMLevelOp(op))
        return WalkResult::advance();
      if (!isa<UnrealizedConversionCastOp>(op)) {
        left = op;
        return WalkResult::interrupt();
      }
      if (!leftCast)
        leftCast = op;
      return WalkResult::advance();
    });
    if (!left)
      left = leftCast;
    if (!left)
      return;
    // At the op's location, which names it: no note printing the op.
    emitError(left->getLoc())
        << "'" << left->getName()
        << "' op was left by the lowering: it is not in the LLVM dialect, so "
           "it cannot be translated to LLVM IR";
    signalPassFailure();
  }

private:
  /// Every op of the onnx namespace that gather does not lower (not one of
  /// the ops of gather's dialect: the ones still there after
  /// convert-onnx-to-linalg, like onnx.ConstantString, are lowered later),
  /// each in its own error at its location (in program order), so that one
  /// run names all the nodes of a model that stay (not one per rebuild).
  /// Also the first `shard.shard` left (hand-annotated IR in a pipeline
  /// without `shard-grid`, which partitions it): one error, not one per
  /// annotation.
  void checkONNXLevel() {
    bool anyLeft = false;
    bool shardLeft = false;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!shardLeft && op->getName().getStringRef() == "shard.shard") {
        emitError(op->getLoc())
            << "'" << op->getName()
            << "' op is not partitioned: hand-annotated shardings are "
               "partitioned only with the pipeline option shard-grid=N (the "
               "number of MPI processes)";
        shardLeft = anyLeft = true;
        return;
      }
      if (!gather::ONNX::isForeignONNXOp(op))
        return;
      emitError(op->getLoc())
          << "'" << op->getName()
          << "' op is not lowered by gather (it lowers onnx.GatherElements, "
             "onnx.Constant, onnx.If, onnx.Loop and onnx.Return)";
      anyLeft = true;
    });
    if (anyLeft)
      signalPassFailure();
  }
};

} // namespace
