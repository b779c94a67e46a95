//===- GPUDeviceMemory.cpp - Buffers of gpu-memory=device -----------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GPUDeviceMemory.h"

#include "gather/Conversion/ONNXToLinalg/GatherLinalgForm.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <functional>

using namespace mlir;

/// The dynamic sizes of `memref` (memref.dim), as an alloc of its type
/// takes them.
static SmallVector<Value> getDynamicSizes(OpBuilder &b, Location loc,
                                          Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(memref::DimOp::create(b, loc, memref, d));
  return sizes;
}

/// `body` on a stream of its own, synchronized: MLIR's lowering of
/// gpu.alloc, gpu.memcpy and gpu.dealloc takes them async only.
static void onStream(OpBuilder &b, Location loc,
                     llvm::function_ref<Value(Value)> body) {
  Type tokenType = gpu::AsyncTokenType::get(b.getContext());
  Value token =
      gpu::WaitOp::create(b, loc, tokenType, ValueRange{}).getAsyncToken();
  gpu::WaitOp::create(b, loc, Type(), body(token));
}

/// gpu-memory=device: `alloc` (a gather's result buffer the function
/// allocates) allocated on the device instead, and freed there. A buffer
/// the caller passes is already there.
Value gather::device_memory::allocateOnDevice(memref::AllocOp alloc) {
  OpBuilder b(alloc);
  Location loc = alloc.getLoc();
  Type tokenType = gpu::AsyncTokenType::get(b.getContext());
  Value device;
  onStream(b, loc, [&](Value token) {
    auto op = gpu::AllocOp::create(b, loc, alloc.getType(), tokenType, token,
                                   alloc.getDynamicSizes(),
                                   alloc.getSymbolOperands());
    device = op.getMemref();
    return op.getAsyncToken();
  });
  for (Operation *user : llvm::make_early_inc_range(alloc->getUsers())) {
    auto dealloc = dyn_cast<memref::DeallocOp>(user);
    if (!dealloc)
      continue;
    b.setInsertionPoint(dealloc);
    onStream(b, loc, [&](Value token) {
      return gpu::DeallocOp::create(b, loc, tokenType, token, device)
          .getAsyncToken();
    });
    dealloc.erase();
  }
  alloc.replaceAllUsesWith(device);
  alloc.erase();
  return device;
}

/// `host` (a host buffer) copied into a new device buffer of its type,
/// before `before`; `host` is freed.
static Value copyToDevice(OpBuilder &b, Location loc, Value host) {
  auto type = cast<MemRefType>(host.getType());
  SmallVector<Value> dynamicSizes = getDynamicSizes(b, loc, host);
  Type tokenType = gpu::AsyncTokenType::get(b.getContext());
  Value device;
  onStream(b, loc, [&](Value token) {
    auto alloc = gpu::AllocOp::create(b, loc, type, tokenType, token,
                                      dynamicSizes, ValueRange{});
    device = alloc.getMemref();
    return gpu::MemcpyOp::create(b, loc, tokenType, alloc.getAsyncToken(),
                                 device, host)
        .getAsyncToken();
  });
  memref::DeallocOp::create(b, loc, host);
  return device;
}

/// gpu-memory=device: a buffer that `func` returns and allocated on the
/// host (the result of a gather whose data has an empty axis, filled on the
/// host) is copied to the device before it is returned or yielded towards
/// the return, so that every returned buffer is the device's.
void gather::device_memory::returnDeviceBuffers(func::FuncOp func) {
  std::function<void(OpOperand &)> visit = [&](OpOperand &use) {
    Value value = use.get();
    if (!isa<MemRefType>(value.getType()))
      return;
    if (auto alloc = value.getDefiningOp<memref::AllocOp>()) {
      OpBuilder b(use.getOwner());
      use.set(copyToDevice(b, alloc.getLoc(), value));
      return;
    }
    auto result = dyn_cast<OpResult>(value);
    auto branch = result ? dyn_cast<scf::IfOp>(result.getOwner()) : nullptr;
    if (!branch)
      return;
    for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
      if (!region->empty())
        visit(cast<scf::YieldOp>(region->front().getTerminator())
                  ->getOpOperand(result.getResultNumber()));
  };
  func.walk([&](func::ReturnOp ret) {
    for (OpOperand &use : ret->getOpOperands())
      visit(use);
  });
}

/// gpu-memory=device: host code that still reads an argument of `func`
/// (a device buffer) reads a host copy instead: the report of a fused index
/// check, or the host check of a gather whose data has an empty axis. The
/// copy is made at the start of the region of the outermost scf.if around
/// the reader (the report's: only when an index is out of range), else
/// just before the reader.
void gather::device_memory::copyArgumentsForHostReaders(func::FuncOp func) {
  for (BlockArgument argument : func.getArguments()) {
    if (!isa<MemRefType>(argument.getType()))
      continue;
    // The region (or op) each copy serves, and the uses it replaces.
    llvm::MapVector<Operation *, SmallVector<OpOperand *>> copies;
    for (OpOperand &use : argument.getUses()) {
      Operation *reader = use.getOwner();
      if (!isa<memref::LoadOp, linalg::LinalgOp, memref::CopyOp>(reader) ||
          reader->getParentOfType<gpu::LaunchOp>())
        continue;
      Operation *anchor = reader;
      for (Operation *parent = reader->getParentOp(); parent != func;
           parent = parent->getParentOp())
        if (isa<scf::IfOp>(parent))
          anchor = parent;
      // The first op of the anchor's region that holds the reader.
      if (anchor != reader) {
        Region &then = anchor->getRegion(0);
        Region &holder = then.isAncestor(reader->getParentRegion())
                             ? then
                             : anchor->getRegion(1);
        anchor = &holder.front().front();
      } else {
        while (anchor->getParentOp() != func)
          anchor = anchor->getParentOp();
      }
      copies[anchor].push_back(&use);
    }
    for (auto &[anchor, uses] : copies) {
      OpBuilder b(anchor);
      Location loc = anchor->getLoc();
      Value host =
          memref::AllocOp::create(b, loc, cast<MemRefType>(argument.getType()),
                                  getDynamicSizes(b, loc, argument));
      onStream(b, loc, [&](Value token) {
        return gpu::MemcpyOp::create(b, loc,
                                     gpu::AsyncTokenType::get(b.getContext()),
                                     token, host, argument)
            .getAsyncToken();
      });
      for (OpOperand *use : uses)
        use->set(host);
      b.setInsertionPoint(anchor->getBlock()->getTerminator());
      if (anchor->getParentOp() == func)
        b.setInsertionPoint(anchor->getNextNode());
      memref::DeallocOp::create(b, loc, host);
    }
  }
}

/// The buffer that `buffer` is a view of (through view-like ops), or itself.
static Value getViewRoot(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  return buffer;
}

/// Whether `buffer` is (a view of) memory that gpu.alloc allocated.
static bool isDeviceBuffer(Value buffer) {
  return getViewRoot(buffer).getDefiningOp<gpu::AllocOp>() != nullptr;
}

/// gpu-memory=device: whether `buffer` is (a view of) memory on the device:
/// an argument of the function (the caller's device buffers) or what
/// gpu.alloc allocated. Others (a constant's global, a buffer host code
/// filled) are host memory, copied to the device for a kernel.
bool gather::device_memory::isDeviceResident(Value buffer) {
  if (isDeviceBuffer(buffer))
    return true;
  auto argument = dyn_cast<BlockArgument>(getViewRoot(buffer));
  return argument && isa<func::FuncOp>(argument.getOwner()->getParentOp()) &&
         argument.getOwner()->isEntryBlock();
}

/// gpu-memory=device: no host code left that reads or writes a buffer
/// allocated on the device (such as the indices of a gather computed by an
/// earlier gather, which the report of its check would read); an error at
/// the op otherwise.
LogicalResult
gather::device_memory::checkNoHostAccessToDevice(func::FuncOp func) {
  WalkResult result = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp>(op))
      return WalkResult::skip();
    if (!isa<memref::LoadOp, memref::StoreOp, linalg::LinalgOp, memref::CopyOp>(
            op))
      return WalkResult::advance();
    for (Value operand : op->getOperands())
      if (isa<MemRefType>(operand.getType()) && isDeviceBuffer(operand)) {
        op->emitError() << "with gpu-memory=device this host code would "
                           "access a buffer on the device (the result of a "
                           "gather); compute it on the host (gpu-memory=host)";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
