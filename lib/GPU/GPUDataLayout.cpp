//===- GPUDataLayout.cpp - The gather-gpu-data-layout pass ----------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements `gather-gpu-data-layout` (see Passes.td): the data layout of
// the device modules, so that their loads get their natural alignment when
// they are translated to LLVM IR.
//
//===----------------------------------------------------------------------===//

#include "gather/GPU/Passes.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace gather {
#define GEN_PASS_DEF_GPUDATALAYOUTPASS
#include "gather/GPU/Passes.h.inc"
} // namespace gather

using namespace mlir;

namespace {

struct GPUDataLayoutPass
    : public gather::impl::GPUDataLayoutPassBase<GPUDataLayoutPass> {
  using Base::Base;

  void runOnOperation() override {
    StringAttr layout = StringAttr::get(&getContext(), dataLayout);
    StringRef name = LLVM::LLVMDialect::getDataLayoutAttrName();
    getOperation().walk([&](gpu::GPUModuleOp module) {
      if (!module->hasAttr(name) &&
          !module->hasAttr(DLTIDialect::kDataLayoutAttrName))
        module->setAttr(name, layout);
    });
  }
};

} // namespace
