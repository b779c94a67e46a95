//===- CopyAliasedResults.cpp - One buffer per function result ------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather-copy-aliased-results (include/gather/Pipelines/Passes.td): a result
// of a function that may share its allocation with an earlier result is
// returned as a copy, so that the caller, who frees every result, frees
// each buffer once.
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace gather {
#define GEN_PASS_DEF_COPYALIASEDRESULTSPASS
#include "gather/Pipelines/Passes.h.inc"
} // namespace gather

using namespace mlir;

namespace {

struct CopyAliasedResultsPass
    : public gather::impl::CopyAliasedResultsPassBase<CopyAliasedResultsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    SmallVector<func::ReturnOp> returns(function.getOps<func::ReturnOp>());
    if (returns.empty())
      return;
    BufferOriginAnalysis origins(function);
    for (func::ReturnOp ret : returns) {
      OpBuilder builder(ret);
      SmallVector<Value> earlier;
      for (OpOperand &result : ret->getOpOperands()) {
        Value value = result.get();
        auto type = dyn_cast<MemRefType>(value.getType());
        if (!type)
          continue;
        bool shared = llvm::any_of(earlier, [&](Value other) {
          return origins.isSameAllocation(value, other) != false;
        });
        earlier.push_back(value);
        if (!shared)
          continue;
        // A new buffer of the same type (the result type: identity layout
        // at function boundaries, or the layout the type says). Not
        // bufferization.clone: it may alias its source, and the
        // deallocation pipeline's canonicalizer folds it away.
        SmallVector<Value> dynamicSizes;
        for (int64_t d = 0; d < type.getRank(); ++d)
          if (type.isDynamicDim(d))
            dynamicSizes.push_back(
                memref::DimOp::create(builder, ret.getLoc(), value, d));
        Value copy = memref::AllocOp::create(
            builder, ret.getLoc(),
            MemRefType::get(type.getShape(), type.getElementType(),
                            MemRefLayoutAttrInterface(), type.getMemorySpace()),
            dynamicSizes);
        memref::CopyOp::create(builder, ret.getLoc(), value, copy);
        if (copy.getType() != type)
          copy = memref::CastOp::create(builder, ret.getLoc(), type, copy);
        result.set(copy);
      }
    }
  }
};

} // namespace
