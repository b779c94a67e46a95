//===- GPUReadOnlyLoads.cpp - Loads of read-only kernel buffers -----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The loads through a kernel's pointer arguments that the kernel only reads
// marked `invariant` (LLVM's !invariant.load), which NVPTX emits as
// ld.global.nc: the read-only data cache path, as CUDA's __ldg and the
// peers' `const __restrict__` kernels get.
//
//===----------------------------------------------------------------------===//

#include "gather/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace gather {
#define GEN_PASS_DEF_GPUREADONLYLOADSPASS
#include "gather/GPU/Passes.h.inc"
} // namespace gather

using namespace mlir;

/// Whether every use of `pointer`, through GEPs and address space casts, is
/// the address of a plain llvm.load; the loads go into `loads`. Any other
/// use (a store, an atomic, a call, a pointer passed on or stored) may
/// write, and a volatile or atomic load says that something else may (a
/// flag another thread or the host sets): the argument is not read-only.
static bool collectLoads(Value pointer, SmallVectorImpl<LLVM::LoadOp> &loads) {
  SmallVector<Value> worklist{pointer};
  while (!worklist.empty()) {
    Value address = worklist.pop_back_val();
    for (OpOperand &use : address.getUses()) {
      Operation *user = use.getOwner();
      if (auto load = dyn_cast<LLVM::LoadOp>(user)) {
        if (load.getVolatile_() ||
            load.getOrdering() != LLVM::AtomicOrdering::not_atomic)
          return false;
        loads.push_back(load);
        continue;
      }
      if (auto gep = dyn_cast<LLVM::GEPOp>(user);
          gep && use.get() == gep.getBase()) {
        worklist.push_back(gep.getResult());
        continue;
      }
      if (isa<LLVM::AddrSpaceCastOp>(user)) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      return false;
    }
  }
  return true;
}

namespace {
struct GPUReadOnlyLoadsPass
    : gather::impl::GPUReadOnlyLoadsPassBase<GPUReadOnlyLoadsPass> {
  void runOnOperation() override {
    for (auto function : getOperation().getBody()->getOps<LLVM::LLVMFuncOp>()) {
      if (!function->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()) ||
          function.isExternal())
        continue;
      for (BlockArgument argument : function.getArguments()) {
        if (!isa<LLVM::LLVMPointerType>(argument.getType()))
          continue;
        SmallVector<LLVM::LoadOp> loads;
        if (!collectLoads(argument, loads))
          continue;
        for (LLVM::LoadOp load : loads)
          load.setInvariant(true);
      }
    }
  }
};
} // namespace
