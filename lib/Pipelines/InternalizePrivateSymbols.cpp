//===- InternalizePrivateSymbols.cpp - Private symbols made internal ------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather-internalize-private-symbols (include/gather/Pipelines/Passes.td):
// each LLVM-dialect function or global that the module defines and MLIR
// calls private gets internal linkage, so modules that each hold the same
// helper (dealloc_helper, ...) link without a clash.
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace gather {
#define GEN_PASS_DEF_INTERNALIZEPRIVATESYMBOLSPASS
#include "gather/Pipelines/Passes.h.inc"
} // namespace gather

using namespace mlir;

/// Internal linkage for `op` if it is a definition that MLIR calls private
/// and that LLVM would export (external linkage).
template <typename SymbolOp>
static void internalizeIfPrivate(SymbolOp op, bool isDefinition) {
  if (isDefinition && op.isPrivate() &&
      op.getLinkage() == LLVM::Linkage::External)
    op.setLinkage(LLVM::Linkage::Internal);
}

namespace {
struct InternalizePrivateSymbolsPass
    : gather::impl::InternalizePrivateSymbolsPassBase<
          InternalizePrivateSymbolsPass> {
  void runOnOperation() override {
    // The module's own symbols only: a nested module is translated on its
    // own.
    ModuleOp module = getOperation();
    for (auto function : module.getOps<LLVM::LLVMFuncOp>())
      internalizeIfPrivate(function, !function.isExternal());
    for (auto global : module.getOps<LLVM::GlobalOp>())
      internalizeIfPrivate(global, global.getValue() ||
                                       !global.getInitializer().empty());
  }
};
} // namespace
