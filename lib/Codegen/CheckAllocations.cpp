//===- CheckAllocations.cpp - Failed heap allocations reported ------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements `gather-check-allocations` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/Passes.h"
#include "gather/RuntimeABI/RuntimeABI.h"
#include "gather/RuntimeABI/RuntimeReporter.h"
#include "gather/Support/CheckedSize.h"
#include "gather/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

namespace gather {
#define GEN_PASS_DEF_CHECKALLOCATIONSPASS
#include "gather/Codegen/Passes.h.inc"
} // namespace gather

using namespace mlir;

/// The buffer of `alloc` for the report: the location of its report site
/// (its source location if that is `file:line:col`, otherwise unknown) and
/// "<name> (<type>)" with the op's name if its location has one (a NameLoc,
/// as convert-onnx-to-linalg gives its result buffers), or just the type;
/// another kind of location is added as ` at <loc>`.
static std::pair<Location, std::string> describe(memref::AllocOp alloc) {
  std::string what;
  llvm::raw_string_ostream os(what);
  Location loc = alloc.getLoc();
  if (auto named = dyn_cast<NameLoc>(loc)) {
    os << named.getName().getValue() << " (" << alloc.getType() << ")";
    loc = named.getChildLoc();
  } else {
    os << alloc.getType();
  }
  if (isa<FileLineColLoc>(loc))
    return {loc, what};
  if (!isa<UnknownLoc>(loc))
    os << " at " << loc;
  return {UnknownLoc::get(alloc.getContext()), what};
}

namespace {

struct CheckAllocationsPass
    : public gather::impl::CheckAllocationsPassBase<CheckAllocationsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation().walk(
        [&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    // Per module nearest to an allocation: the report's declaration, one
    // symbol table (unique names in constant time, whatever the number of
    // allocations) and the description globals by text.
    struct ModuleState {
      func::FuncOp report;
      std::unique_ptr<SymbolTable> symbols;
      llvm::StringMap<LLVM::GlobalOp> strings;
    };
    llvm::DenseMap<Operation *, ModuleState> modules;
    for (memref::AllocOp alloc : allocs) {
      auto module = alloc->getParentOfType<ModuleOp>();
      ModuleState &state = modules[module];
      if (!state.report) {
        FailureOr<func::FuncOp> report =
            gather::getOrDeclareCheckedRuntimeFunction(
                module, gather::RuntimeFunction::ReportAllocationErrorIf);
        if (failed(report))
          return signalPassFailure();
        state.report = *report;
        state.symbols = std::make_unique<SymbolTable>(module);
      }
      auto [location, what] = describe(alloc);
      LLVM::GlobalOp site = gather::getOrCreateLocationGlobal(
          module, location, /*listener=*/nullptr, state.symbols.get());
      guard(alloc, state.report, site,
            getOrCreateString(what, alloc.getLoc(), module, *state.symbols,
                              state.strings));
    }
  }

private:
  /// `text` as a private constant NUL-terminated string global, one per
  /// distinct text.
  LLVM::GlobalOp getOrCreateString(std::string text, Location loc,
                                   ModuleOp module, SymbolTable &symbols,
                                   llvm::StringMap<LLVM::GlobalOp> &strings) {
    text.push_back('\0');
    LLVM::GlobalOp &global = strings[text];
    if (global)
      return global;
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    global = LLVM::GlobalOp::create(
        b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), text.size()),
        /*isConstant=*/true, LLVM::Linkage::Private, "__gather_alloc_site",
        b.getStringAttr(text), /*alignment=*/0);
    // Renamed to a free name (with a counter) if it is taken.
    symbols.insert(global);
    return global;
  }

  /// Emits the size check before `alloc` and the null check after it, each
  /// one unconditional call of the report with a "failed" flag (no branch
  /// in the IR: lowering one scf.if per allocation to control flow would
  /// take time quadratic in their number in one block).
  void guard(memref::AllocOp alloc, func::FuncOp report, LLVM::GlobalOp site,
             LLVM::GlobalOp description) {
    Location loc = alloc.getLoc();
    OpBuilder b(alloc);
    MemRefType type = alloc.getType();
    Type i64 = b.getI64Type();
    Value where = LLVM::AddressOfOp::create(b, loc, site);
    Value what = LLVM::AddressOfOp::create(b, loc, description);
    auto reportIf = [&](Value failed, Value bytes) {
      Value flag = arith::ExtUIOp::create(b, loc, b.getI32Type(), failed);
      func::CallOp::create(b, loc, report,
                           ValueRange{flag, bytes, where, what});
    };

    // Static part: element bytes times the static sizes, checked here
    // (getCheckedNumElements: 0 with a size 0, whatever the others).
    std::optional<int64_t> staticBytes = gather::getCheckedNumElements(
        llvm::to_vector(llvm::make_filter_range(
            type.getShape(),
            [](int64_t s) { return !ShapedType::isDynamic(s); })),
        gather::getElementBytes(type.getElementType()).value_or(1));
    Value tooBig;
    Value bytes;
    if (!staticBytes) {
      tooBig = arith::ConstantIntOp::create(b, loc, 1, 1);
      bytes = arith::ConstantIntOp::create(b, loc, -1, 64);
    } else {
      // Dynamic part: multiplied at run time, unsigned, watching the high
      // half of each product and the sign of the low half; a size 0 makes
      // it 0 bytes, not too many, even after a product that overflowed.
      bytes = arith::ConstantIntOp::create(b, loc, *staticBytes, 64);
      Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
      Value anyZero;
      for (Value size : alloc.getDynamicSizes()) {
        Value size64 = arith::IndexCastUIOp::create(b, loc, i64, size);
        Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             size64, zero);
        anyZero =
            anyZero ? arith::OrIOp::create(b, loc, anyZero, isZero).getResult()
                    : isZero;
        auto product = arith::MulUIExtendedOp::create(b, loc, bytes, size64);
        Value overflow = arith::OrIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                  product.getHigh(), zero),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                  product.getLow(), zero));
        tooBig =
            tooBig ? arith::OrIOp::create(b, loc, tooBig, overflow).getResult()
                   : overflow;
        bytes = product.getLow();
      }
      if (anyZero) {
        tooBig = arith::AndIOp::create(
            b, loc, tooBig,
            arith::XOrIOp::create(b, loc, anyZero,
                                  arith::ConstantIntOp::create(b, loc, 1, 1)));
        bytes = arith::SelectOp::create(b, loc, anyZero, zero, bytes);
      }
    }
    if (tooBig) {
      bytes = arith::SelectOp::create(
          b, loc, tooBig, arith::ConstantIntOp::create(b, loc, -1, 64), bytes);
      reportIf(tooBig, bytes);
    }

    // After the allocation: a null buffer of a non-zero size failed.
    b.setInsertionPointAfter(alloc);
    Value pointer =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, alloc);
    Value zeroIndex = arith::ConstantIndexOp::create(b, loc, 0);
    Value isNull = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         pointer, zeroIndex);
    Value nonEmpty =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bytes,
                              arith::ConstantIntOp::create(b, loc, 0, 64));
    reportIf(arith::AndIOp::create(b, loc, isNull, nonEmpty), bytes);
  }
};

} // namespace
