//===- CheckGatherDestinations.cpp - Sizes of gather destinations ---------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements `onnx-check-gather-destinations` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/GatherElementsView.h"
#include "gather/Dialect/ONNX/Transforms/Passes.h"
#include "gather/RuntimeABI/RuntimeReporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <optional>
#include <tuple>

namespace gather::ONNX {
#define GEN_PASS_DEF_CHECKGATHERDESTINATIONSPASS
#include "gather/Dialect/ONNX/Transforms/Passes.h.inc"
} // namespace gather::ONNX

using namespace mlir;
using namespace gather;
using namespace gather::ONNX;

static Value toI64(OpBuilder &builder, Location loc, Value index) {
  return arith::IndexCastOp::create(builder, loc, builder.getI64Type(), index);
}

/// The source and destination of a destination-passing-style copy of a
/// gather's result (bufferization.materialize_in_destination or
/// linalg.copy, into a tensor or a memref) and the gather's `indices`, or
/// nulls for any other op.
static std::tuple<Value, Value, Value> getGatherCopy(Operation *op) {
  Value source, destination;
  if (auto materialize =
          dyn_cast<bufferization::MaterializeInDestinationOp>(op)) {
    source = materialize.getSource();
    destination = materialize.getDest();
  } else if (auto copy = dyn_cast<linalg::CopyOp>(op)) {
    source = copy.getInputs().front();
    destination = copy.getOutputs().front();
  } else {
    return {};
  }
  Value result = source;
  while (auto cast = result.getDefiningOp<tensor::CastOp>())
    result = cast.getSource();
  std::optional<GatherElementsView> gather =
      GatherElementsView::get(result.getDefiningOp());
  if (!gather || !isa<RankedTensorType>(source.getType()) ||
      !isa<RankedTensorType, MemRefType>(destination.getType()))
    return {};
  return {source, destination, gather->indices};
}

namespace {

/// onnx-check-gather-destinations (see Passes.td).
struct CheckGatherDestinationsPass
    : public ONNX::impl::CheckGatherDestinationsPassBase<
          CheckGatherDestinationsPass> {
  using Base::Base;

  /// A gather's result copied into a destination whose sizes are dynamic on
  /// either side: the sizes must be equal (neither op checks it; a smaller
  /// destination would be written past its end). Each unequal size is
  /// reported (with run-time checks; first one only) and the copy skipped
  /// (always), the destination left as it was.
  void runOnOperation() override {
    SmallVector<Operation *> copies;
    getOperation()->walk([&](Operation *op) {
      if (std::get<0>(getGatherCopy(op)))
        copies.push_back(op);
    });
    if (!copies.empty() && failed(verifyRuntimeSymbols(getOperation())))
      return signalPassFailure();
    for (Operation *op : copies) {
      auto [source, destination, indices] = getGatherCopy(op);
      auto sourceType = cast<RankedTensorType>(source.getType());
      auto destinationType = cast<ShapedType>(destination.getType());
      if (sourceType.getRank() != destinationType.getRank())
        continue; // (The op's verifier rejects it.)
      Location loc = op->getLoc();
      OpBuilder b(op);
      RuntimeReporter reporter(op->getParentOfType<ModuleOp>(), loc);
      // Only the first mismatch is reported.
      RuntimeConditions sizesEqual(runtimeChecks ? &reporter : nullptr);
      for (int64_t d = 0; d < sourceType.getRank(); ++d) {
        if (!sourceType.isDynamicDim(d) && !destinationType.isDynamicDim(d))
          continue;
        // The result's size: that of `indices` (ONNX), read from `indices`
        // itself (later rewrites may build the result in the destination).
        Value sourceSize;
        if (!sourceType.isDynamicDim(d))
          sourceSize =
              arith::ConstantIndexOp::create(b, loc, sourceType.getDimSize(d));
        else if (isa<RankedTensorType>(indices.getType()))
          sourceSize = tensor::DimOp::create(b, loc, indices, d);
        else
          sourceSize = tensor::DimOp::create(b, loc, source, d);
        Value destinationSize =
            isa<MemRefType>(destinationType)
                ? memref::DimOp::create(b, loc, destination, d).getResult()
                : tensor::DimOp::create(b, loc, destination, d).getResult();
        Value equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            sourceSize, destinationSize);
        sizesEqual.require(
            b, loc, equal, RuntimeFunction::ReportDestinationShapeError,
            [&](OpBuilder &nb, Location nl) -> SmallVector<Value> {
              return {arith::ConstantIntOp::create(nb, nl, d, 64),
                      toI64(nb, nl, sourceSize),
                      toI64(nb, nl, destinationSize)};
            });
      }
      Value allEqual = sizesEqual.getConjunction();
      if (!allEqual)
        continue;
      // The copy runs only if the sizes are equal; otherwise a tensor
      // destination is passed on unchanged.
      bool hasResult = op->getNumResults() > 0;
      auto ifOp = scf::IfOp::create(b, loc, op->getResultTypes(), allEqual,
                                    /*addThenBlock=*/true,
                                    /*addElseBlock=*/hasResult);
      op->replaceAllUsesWith(ifOp.getResults());
      // (Blocks built from scratch, whether or not the builder added a
      // terminator.)
      auto fill = [&](Block *block, ValueRange yielded) {
        while (!block->empty())
          block->back().erase();
        OpBuilder blockBuilder = OpBuilder::atBlockEnd(block);
        scf::YieldOp::create(blockBuilder, loc, yielded);
      };
      fill(ifOp.thenBlock(), op->getResults());
      op->moveBefore(ifOp.thenBlock()->getTerminator());
      // The gather (and casts of its result) goes along when the copy is
      // its only use: it then still computes straight into the destination
      // (gather-eliminate-destination-empty-tensors), and not at all when
      // skipped.
      SmallVector<Operation *> chain;
      for (Value value = source; value.hasOneUse();) {
        Operation *producer = value.getDefiningOp();
        if (!producer || producer->getBlock() != ifOp->getBlock() ||
            (!isa<tensor::CastOp>(producer) &&
             !GatherElementsView::get(producer)))
          break;
        chain.push_back(producer);
        if (!isa<tensor::CastOp>(producer))
          break;
        value = producer->getOperand(0);
      }
      if (!chain.empty() && !isa<tensor::CastOp>(chain.back()))
        for (Operation *producer : chain) // (Users first.)
          producer->moveBefore(ifOp.thenBlock(), ifOp.thenBlock()->begin());
      if (hasResult)
        fill(ifOp.elseBlock(), destination);
    }
  }
};

} // namespace
