//===- WidenI1Accesses.cpp - Vector accesses of i1 buffers as i8 ----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather-widen-i1-accesses (include/gather/Pipelines/Passes.td): vector reads
// and writes of i1 memrefs go through an i8 view of the same bytes, since
// convert-vector-to-llvm would pack the vector's bits.
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

namespace gather {
#define GEN_PASS_DEF_WIDENI1ACCESSESPASS
#include "gather/Pipelines/Passes.h.inc"
} // namespace gather

using namespace mlir;

/// The i8 form of `type`, a vector of i1 (or i1 itself).
static Type widen(Type type) {
  auto i8 = IntegerType::get(type.getContext(), 8);
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(i8);
  return i8;
}

/// `value` (i1 or a vector of it) as i8.
static Value extend(OpBuilder &builder, Location loc, Value value) {
  return arith::ExtUIOp::create(builder, loc, widen(value.getType()), value);
}

namespace {

/// The operands of a vector access of a buffer: the buffer, the values it
/// writes (or pads or passes through with), and whether it reads.
struct Access {
  OpOperand *base;
  OpOperand *value;
  bool reads;
};

struct WidenI1AccessesPass
    : gather::impl::WidenI1AccessesPassBase<WidenI1AccessesPass> {
  void runOnOperation() override {
    SmallVector<std::pair<Operation *, Access>> accesses;
    getOperation().walk([&](Operation *op) {
      std::optional<Access> access =
          llvm::TypeSwitch<Operation *, std::optional<Access>>(op)
              .Case([](vector::TransferReadOp read) {
                return Access{&read.getBaseMutable(), &read.getPaddingMutable(),
                              true};
              })
              .Case([](vector::TransferWriteOp write) {
                return Access{&write.getBaseMutable(),
                              &write.getValueToStoreMutable(), false};
              })
              .Case([](vector::LoadOp load) {
                return Access{&load.getBaseMutable(), nullptr, true};
              })
              .Case([](vector::StoreOp store) {
                return Access{&store.getBaseMutable(),
                              &store.getValueToStoreMutable(), false};
              })
              .Case([](vector::MaskedLoadOp load) {
                return Access{&load.getBaseMutable(),
                              &load.getPassThruMutable(), true};
              })
              .Case([](vector::MaskedStoreOp store) {
                return Access{&store.getBaseMutable(),
                              &store.getValueToStoreMutable(), false};
              })
              .Default([](Operation *) { return std::nullopt; });
      if (!access)
        return;
      auto type = dyn_cast<MemRefType>(access->base->get().getType());
      if (type && type.getElementType().isInteger(1))
        accesses.push_back({op, *access});
    });
    for (auto [op, access] : accesses) {
      OpBuilder builder(op);
      Location loc = op->getLoc();
      auto type = cast<MemRefType>(access.base->get().getType());
      auto view = MemRefType::get(type.getShape(), builder.getIntegerType(8),
                                  type.getLayout(), type.getMemorySpace());
      access.base->set(UnrealizedConversionCastOp::create(builder, loc, view,
                                                          access.base->get())
                           .getResult(0));
      if (access.value)
        access.value->set(extend(builder, loc, access.value->get()));
      if (!access.reads)
        continue;
      // What it reads, back to i1 (nonzero bytes are true, as a scalar
      // load of i1 reads them).
      Value result = op->getResult(0);
      result.setType(widen(result.getType()));
      builder.setInsertionPointAfter(op);
      Value zero = arith::ConstantOp::create(
          builder, loc, builder.getZeroAttr(result.getType()));
      auto truth = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                         result, zero);
      result.replaceAllUsesExcept(truth, truth);
    }
  }
};
} // namespace
