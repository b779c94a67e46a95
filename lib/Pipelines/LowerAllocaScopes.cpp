//===- LowerAllocaScopes.cpp - alloca scopes as stack save/restore --------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather-lower-alloca-scopes (include/gather/Pipelines/Passes.td): each
// memref.alloca_scope becomes its body between llvm.intr.stacksave and
// llvm.intr.stackrestore, before convert-scf-to-cf gives it more blocks than
// the op allows.
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace gather {
#define GEN_PASS_DEF_LOWERALLOCASCOPESPASS
#include "gather/Pipelines/Passes.h.inc"
} // namespace gather

using namespace mlir;

namespace {

struct LowerAllocaScopesPass
    : gather::impl::LowerAllocaScopesPassBase<LowerAllocaScopesPass> {
  void runOnOperation() override {
    // Post-order: a scope nested in another is inlined into it first.
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation().walk(
        [&](memref::AllocaScopeOp scope) { scopes.push_back(scope); });
    auto pointerType = LLVM::LLVMPointerType::get(&getContext());
    for (memref::AllocaScopeOp scope : scopes) {
      Region &region = scope.getBodyRegion();
      // (An empty region has no results either.)
      if (region.empty()) {
        scope.erase();
        continue;
      }
      OpBuilder builder(scope);
      Location loc = scope.getLoc();
      Value stack = LLVM::StackSaveOp::create(builder, loc, pointerType);
      Block &body = region.front();
      auto terminator = cast<memref::AllocaScopeReturnOp>(body.getTerminator());
      SmallVector<Value> results(terminator.getResults());
      terminator.erase();
      scope->getBlock()->getOperations().splice(Block::iterator(scope),
                                                body.getOperations());
      LLVM::StackRestoreOp::create(builder, loc, stack);
      scope->replaceAllUsesWith(results);
      scope.erase();
    }
  }
};
} // namespace
