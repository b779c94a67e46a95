//===- EliminateDestinationEmptyTensors.cpp - Results built in place ------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements `gather-eliminate-destination-empty-tensors` (see Passes.td):
// upstream's empty tensor elimination (mlir/Dialect/Bufferization/Transforms/
// Transforms.h, bufferization::eliminateEmptyTensors) for every tensor.empty
// on every path of a result materialized in a destination.
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"

namespace gather {
#define GEN_PASS_DEF_ELIMINATEDESTINATIONEMPTYTENSORSPASS
#include "gather/Codegen/Passes.h.inc"
} // namespace gather

using namespace mlir;

/// The number of uses of `tensor.empty` results in `root`.
static int64_t countEmptyTensorUses(Operation *root) {
  int64_t uses = 0;
  root->walk([&](tensor::EmptyOp empty) {
    uses += llvm::range_size(empty->getUses());
  });
  return uses;
}

namespace {

struct EliminateDestinationEmptyTensorsPass
    : public gather::impl::EliminateDestinationEmptyTensorsPassBase<
          EliminateDestinationEmptyTensorsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    IRRewriter rewriter(&getContext());

    // A memref destination: one `to_tensor restrict writable` of it (made
    // by the op itself, which hands over its `restrict`), right after the
    // memref's definition (so it dominates whatever the memref dominates),
    // for every tensor.empty of its source. Tensor destinations: upstream's
    // subset extraction.
    DominanceInfo dominance(module);
    llvm::DenseMap<Operation *, Value> destinationTensors;
    auto buildExtraction =
        [&](RewriterBase &builder, SubsetInsertionOpInterface op,
            tensor::EmptyOp empty, Operation *user) -> Value {
      auto materialize = dyn_cast<bufferization::MaterializeInDestinationOp>(
          op.getOperation());
      if (!materialize || !isa<BaseMemRefType>(materialize.getDest().getType()))
        return bufferization::buildSubsetExtraction(builder, op, empty, user);
      Value destination = materialize.getDest();
      if (!dominance.properlyDominates(destination, user))
        return Value();
      auto [entry, inserted] = destinationTensors.try_emplace(materialize);
      if (inserted) {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointAfterValue(destination);
        // (Null without `restrict`: then nothing is replaced.)
        entry->second =
            materialize.buildSubsetExtraction(builder, materialize.getLoc());
      }
      return entry->second;
    };

    // Upstream replaces one use of each tensor.empty per run: run it (with
    // a fresh analysis, the one its pass makes for a module) until no use
    // is replaced. Functions without a destination are left as they are.
    for (int64_t uses = countEmptyTensorUses(module); uses > 0;) {
      bufferization::OneShotBufferizationOptions options;
      options.allowReturnAllocsFromLoops = true;
      options.bufferizeFunctionBoundaries = true;
      bufferization::OneShotAnalysisState state(module, options);
      if (failed(bufferization::analyzeModuleOp(module, state)) ||
          failed(bufferization::eliminateEmptyTensors(rewriter, module, state,
                                                      buildExtraction)))
        return signalPassFailure();
      int64_t left = countEmptyTensorUses(module);
      if (left >= uses)
        break;
      uses = left;
    }
  }
};

} // namespace
