//===- DuplicateSharedTensors.cpp - One tensor.empty per use --------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements `gather-duplicate-shared-tensors` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace gather {
#define GEN_PASS_DEF_DUPLICATESHAREDTENSORSPASS
#include "gather/Codegen/Passes.h.inc"
} // namespace gather

using namespace mlir;

/// Whether `op` is a tensor.empty or a constant tensor.
static bool isDuplicable(Operation *op) {
  if (isa<tensor::EmptyOp>(op))
    return true;
  auto constant = dyn_cast<arith::ConstantOp>(op);
  return constant && isa<TensorType>(constant.getType());
}

namespace {

struct DuplicateSharedTensorsPass
    : public gather::impl::DuplicateSharedTensorsPassBase<
          DuplicateSharedTensorsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> shared;
    getOperation()->walk([&](Operation *op) {
      if (isDuplicable(op) && !op->getResult(0).hasOneUse() &&
          !op->getResult(0).use_empty())
        shared.push_back(op);
    });
    for (Operation *op : shared) {
      SmallVector<OpOperand *> uses =
          llvm::to_vector(llvm::make_pointer_range(op->getResult(0).getUses()));
      // The first use keeps `op`.
      for (OpOperand *use : llvm::drop_begin(uses)) {
        OpBuilder builder(use->getOwner());
        use->set(builder.clone(*op)->getResult(0));
      }
    }
  }
};

} // namespace
