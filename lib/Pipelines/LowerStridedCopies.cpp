//===- LowerStridedCopies.cpp - Copies without memrefCopy -----------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather-lower-strided-copies (include/gather/Pipelines/Passes.td): each
// memref.copy with a ranked side that finalize-memref-to-llvm would lower to
// a call of the runner library's memrefCopy becomes a linalg.copy (then
// loops).
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/Builders.h"

namespace gather {
#define GEN_PASS_DEF_LOWERSTRIDEDCOPIESPASS
#include "gather/Pipelines/Passes.h.inc"
} // namespace gather

using namespace mlir;

/// Whether finalize-memref-to-llvm copies a buffer of this type with
/// llvm.memcpy (MemRefCopyOpLowering in MLIR 22's MemRefToLLVM.cpp): an
/// identity layout, or a static, non-empty, contiguous row-major one.
static bool isCopiedWithMemcpy(MemRefType type) {
  return type.getLayout().isIdentity() ||
         (type.hasStaticShape() && type.getNumElements() > 0 &&
          memref::isStaticShapeAndContiguousRowMajor(type));
}

/// `value`, an unranked memref, cast to `rank` dimensions with dynamic
/// sizes and strides.
static Value castToRank(OpBuilder &builder, Location loc, Value value,
                        int64_t rank) {
  auto type = cast<UnrankedMemRefType>(value.getType());
  auto layout =
      StridedLayoutAttr::get(builder.getContext(), ShapedType::kDynamic,
                             SmallVector<int64_t>(rank, ShapedType::kDynamic));
  auto ranked =
      MemRefType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                      type.getElementType(), layout, type.getMemorySpace());
  return memref::CastOp::create(builder, loc, ranked, value);
}

namespace {

struct LowerStridedCopiesPass
    : gather::impl::LowerStridedCopiesPassBase<LowerStridedCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      // One side unranked: always memrefCopy upstream; the ranked side
      // gives the rank.
      if (!source && !target)
        return;
      if (!source || !target ||
          !(isCopiedWithMemcpy(source) && isCopiedWithMemcpy(target)))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder builder(copy);
      Location loc = copy.getLoc();
      Value source = copy.getSource(), target = copy.getTarget();
      if (auto ranked = dyn_cast<MemRefType>(target.getType());
          ranked && !isa<MemRefType>(source.getType()))
        source = castToRank(builder, loc, source, ranked.getRank());
      if (auto ranked = dyn_cast<MemRefType>(source.getType());
          ranked && !isa<MemRefType>(target.getType()))
        target = castToRank(builder, loc, target, ranked.getRank());
      linalg::CopyOp::create(builder, loc, source, target);
      copy.erase();
    }
  }
};
} // namespace
