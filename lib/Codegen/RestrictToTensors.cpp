//===- RestrictToTensors.cpp - to_tensor of buffers used only so ----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements `gather-restrict-to-tensors` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/SetVector.h"

namespace gather {
#define GEN_PASS_DEF_RESTRICTTOTENSORSPASS
#include "gather/Codegen/Passes.h.inc"
} // namespace gather

using namespace mlir;

/// The allocations (memref.alloc, memref.alloca) `buffer` may be a view of,
/// through view-like ops, casts and the results of scf.if; false if it may
/// be anything else (an argument, a global, a loop's value).
static bool collectAllocations(Value buffer, SetVector<Value> &allocations,
                               int depth = 0) {
  if (depth > 32)
    return false;
  Operation *def = buffer.getDefiningOp();
  if (!def)
    return false;
  if (isa<memref::AllocOp, memref::AllocaOp>(def)) {
    allocations.insert(buffer);
    return true;
  }
  if (auto view = dyn_cast<ViewLikeOpInterface>(def))
    return collectAllocations(view.getViewSource(), allocations, depth + 1);
  if (auto cast = dyn_cast<memref::CastOp>(def))
    return collectAllocations(cast.getSource(), allocations, depth + 1);
  if (auto branches = dyn_cast<scf::IfOp>(def)) {
    unsigned number = cast<OpResult>(buffer).getResultNumber();
    for (Region *region :
         {&branches.getThenRegion(), &branches.getElseRegion()})
      if (region->empty() ||
          !collectAllocations(
              region->front().getTerminator()->getOperand(number), allocations,
              depth + 1))
        return false;
    return true;
  }
  return false;
}

/// Appends to `aliases` every value that may alias `buffer` forward: its
/// views, casts, and the scf.if results it is yielded as. False if it
/// flows anywhere else (a call, a loop, a store of the pointer).
static bool collectAliases(Value buffer, SetVector<Value> &aliases,
                           SmallVectorImpl<Operation *> &users) {
  if (!aliases.insert(buffer))
    return true;
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    users.push_back(user);
    if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
      if (view.getViewSource() == buffer)
        for (Value result : user->getResults())
          if (!collectAliases(result, aliases, users))
            return false;
      continue;
    }
    if (isa<memref::CastOp>(user)) {
      if (!collectAliases(user->getResult(0), aliases, users))
        return false;
      continue;
    }
    if (isa<scf::YieldOp>(user)) {
      auto branches = dyn_cast<scf::IfOp>(user->getParentOp());
      if (!branches)
        return false;
      if (!collectAliases(branches.getResult(use.getOperandNumber()), aliases,
                          users))
        return false;
      continue;
    }
    // Ops that take the buffer as a pointer somewhere else.
    if (isa<memref::ExtractAlignedPointerAsIndexOp,
            memref::ExtractStridedMetadataOp, memref::DeallocOp>(user) ||
        user->hasTrait<OpTrait::IsTerminator>() || isa<CallOpInterface>(user))
      return false;
  }
  return true;
}

/// Whether `toTensor` may be `restrict`: its buffer is (a view of) buffers
/// allocated in the function that nothing reads, writes or takes after it.
/// (A to_tensor before it, e.g. the one a gather was computed in before it
/// was materialized into the buffer, is one such access.)
static bool canRestrict(bufferization::ToTensorOp toTensor) {
  // (In a loop, what comes before it in its block also runs after it.)
  if (!isa<FunctionOpInterface>(toTensor->getParentOp()))
    return false;
  SetVector<Value> allocations;
  if (!collectAllocations(toTensor.getBuffer(), allocations))
    return false;
  SetVector<Value> aliases;
  SmallVector<Operation *> users;
  for (Value allocation : allocations)
    if (!collectAliases(allocation, aliases, users))
      return false;
  Block *block = toTensor->getBlock();
  for (Operation *user : users) {
    if (user == toTensor)
      continue;
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor || !ancestor->isBeforeInBlock(toTensor))
      return false;
  }
  return true;
}

namespace {

struct RestrictToTensorsPass
    : public gather::impl::RestrictToTensorsPassBase<RestrictToTensorsPass> {
  void runOnOperation() override {
    getOperation()->walk([](bufferization::ToTensorOp toTensor) {
      if (!toTensor.getRestrict() && canRestrict(toTensor))
        toTensor.setRestrict(true);
    });
  }
};

} // namespace
