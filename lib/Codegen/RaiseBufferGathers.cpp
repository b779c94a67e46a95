//===- RaiseBufferGathers.cpp - Gathers on buffers back to tensors --------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements `gather-raise-buffer-gathers` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/Passes.h"

#include "GatherRecognizers.h"
#include "gather/Codegen/GatherDataRead.h"
#include "gather/Conversion/ONNXToLinalg/GatherLinalgForm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Support/DebugStringHelper.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace gather {
#define GEN_PASS_DEF_RAISEBUFFERGATHERSPASS
#include "gather/Codegen/Passes.h.inc"
} // namespace gather

using namespace mlir;
using namespace gather::codegen;

/// The buffer `value` is a view of (through view-like ops and casts).
static Value getRootBuffer(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      value = view.getViewSource();
      continue;
    }
    if (auto cast = dyn_cast<memref::CastOp>(def)) {
      value = cast.getSource();
      continue;
    }
    break;
  }
  return value;
}

/// Whether `buffer` is the result of an allocation in the function (a
/// memref.alloc or memref.alloca, not an argument or a global).
static bool isLocalAllocation(Value buffer) {
  Operation *def = buffer.getDefiningOp();
  if (!def)
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(def);
  return effects &&
         effects.getEffectOnValue<MemoryEffects::Allocate>(buffer).has_value();
}

/// How a buffer of `type` is laid out, for the tensor form.
enum class Layout {
  /// Surely contiguous and row-major (hasContiguousLayout).
  Contiguous,
  /// Strides or offset known only at run time: contiguous and row-major
  /// with offset 0 (the identity layout) in the runs that check so.
  Unknown,
  /// Known not to be contiguous and row-major.
  Strided,
};

static Layout getLayout(MemRefType type) {
  if (hasContiguousLayout(type))
    return Layout::Contiguous;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return Layout::Strided;
  if (!ShapedType::isDynamic(offset) && offset != 0)
    return Layout::Strided;
  // A static stride must be the row-major one where the sizes to its right
  // are static.
  int64_t expected = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (!ShapedType::isDynamic(strides[d]) &&
        !ShapedType::isDynamic(expected) && strides[d] != expected)
      return Layout::Strided;
    // (A product beyond int64_t is unknown, as a dynamic one.)
    expected = ShapedType::isDynamic(expected) || type.isDynamicDim(d)
                   ? ShapedType::kDynamic
                   : llvm::checkedMul(expected, type.getDimSize(d))
                         .value_or(ShapedType::kDynamic);
  }
  return Layout::Unknown;
}

/// Sets `*whyNot`; returns false.
static bool reject(std::string *whyNot, const Twine &reason) {
  *whyNot = reason.str();
  return false;
}

/// Whether `op` (a linalg.generic on buffers) is a gather that can run on
/// tensors: its read of `data` is a gather's (findGatherDataRead), it writes
/// one buffer, allocated in the function and no view of what it reads, and
/// every buffer it accesses is contiguous and row-major, or may be (strides
/// known only at run time).
static bool canRaiseGather(linalg::GenericOp op, std::string *whyNot) {
  if (!op.hasPureBufferSemantics())
    return reject(whyNot, "not on buffers");
  if (op.getNumDpsInits() != 1 || op.getNumLoops() == 0 ||
      op.getNumLoops() != op.getNumParallelLoops())
    return reject(whyNot, "not one output and all-parallel loops");
  StringRef why;
  std::optional<GatherDataRead> read = findGatherDataRead(op, &why);
  if (!read)
    return reject(whyNot, why);
  Value out = getRootBuffer(op.getDpsInits()[0]);
  if (!isLocalAllocation(out))
    return reject(whyNot,
                  "its output buffer is not allocated in the function (an "
                  "argument may alias its inputs)");
  SmallVector<Value> buffers(op.getDpsInputs());
  buffers.push_back(read->data);
  for (Value buffer : buffers)
    if (getRootBuffer(buffer) == out)
      return reject(whyNot, "its output buffer is a view of a buffer it reads");
  buffers.push_back(op.getDpsInits()[0]);
  for (Value buffer : buffers)
    if (auto type = dyn_cast<MemRefType>(buffer.getType());
        type && getLayout(type) == Layout::Strided)
      return reject(whyNot, "it accesses a buffer of " +
                                debugString(buffer.getType()) +
                                ", not contiguous and row-major");
  return true;
}

/// The tensor `buffer` is the `bufferization.to_buffer` of, if every use
/// of it only reads it (so that it holds that tensor's contents wherever it
/// is read): what a partial bufferization leaves of the function's tensor
/// arguments. Null otherwise.
static Value getSourceTensor(Value buffer) {
  auto toBuffer = buffer.getDefiningOp<bufferization::ToBufferOp>();
  if (!toBuffer)
    return {};
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (isa<memref::LoadOp, memref::DimOp, memref::ExtractStridedMetadataOp>(
            user))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (linalgOp && linalgOp.isDpsInput(&use))
      continue;
    return {};
  }
  return toBuffer.getTensor();
}

/// Whether buffers `a` and `b` hold the same contents wherever they are
/// read: one value, or read-only buffers of one tensor.
static bool haveSameContents(Value a, Value b) {
  if (a == b)
    return true;
  Value tensor = getSourceTensor(a);
  return tensor && tensor == getSourceTensor(b);
}

/// Whether `op` is the index check of `gather` on buffers: right after it
/// (only its own linalg.fill and ops without memory effects between), the
/// same indices as its one input, one memref<i1> output allocated in the
/// function, all-reduction loops. gather-codegen checks the rest of the
/// form on tensors.
static bool isBufferIndexCheckOf(linalg::GenericOp op, linalg::GenericOp gather,
                                 Value indices) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 1 ||
      !haveSameContents(op.getDpsInputs()[0], indices) ||
      op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumReductionLoops() ||
      op.getNumLoops() != gather.getNumLoops())
    return false;
  Value flag = op.getDpsInits()[0];
  auto type = dyn_cast<MemRefType>(flag.getType());
  return type && type.getRank() == 0 && type.getElementType().isInteger(1) &&
         isLocalAllocation(getRootBuffer(flag)) &&
         getRootBuffer(flag) != getRootBuffer(gather.getDpsInits()[0]);
}

namespace {

/// Builds the tensor form of buffer ops: one `bufferization.to_tensor
/// restrict` per buffer read (shared by the ops raised together), the op on
/// tensors, and its result materialized into its buffer.
class Raiser {
public:
  Raiser(OpBuilder &builder) : builder(builder) {}

  /// The tensor of `buffer` (made at the builder's point on first use):
  /// for a buffer read only, the tensor it was made of if any.
  Value getTensor(Value buffer, bool writable) {
    if (!writable)
      if (Value source = getSourceTensor(buffer))
        return source;
    auto [it, inserted] = tensors.try_emplace(buffer);
    if (inserted) {
      auto type = cast<MemRefType>(buffer.getType());
      it->second = bufferization::ToTensorOp::create(
          builder, buffer.getLoc(),
          RankedTensorType::get(type.getShape(), type.getElementType()), buffer,
          /*restrict=*/true, writable);
    }
    return it->second;
  }

  /// `op` on tensors; its results go to `results` (one per output buffer).
  linalg::GenericOp raiseGeneric(linalg::GenericOp op, ValueRange inits) {
    SmallVector<Value> inputs;
    for (Value input : op.getDpsInputs())
      inputs.push_back(getTensor(input, /*writable=*/false));
    SmallVector<Type> resultTypes;
    for (Value init : inits)
      resultTypes.push_back(init.getType());
    auto raised = linalg::GenericOp::create(
        builder, op.getLoc(), resultTypes, inputs, inits,
        op.getIndexingMapsArray(), op.getIteratorTypesArray(),
        /*bodyBuild=*/nullptr, linalg::getPrunedAttributeList(op));
    IRMapping mapping;
    op.getRegion().cloneInto(&raised.getRegion(), mapping);
    // The reads of buffers defined outside the body read their tensors.
    raised.getRegion().walk([&](memref::LoadOp load) {
      if (raised.getRegion().isAncestor(load.getMemRef().getParentRegion()))
        return;
      OpBuilder inBody(load);
      Value tensor;
      {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPoint(raised);
        tensor = getTensor(load.getMemRef(), /*writable=*/false);
      }
      load.replaceAllUsesWith(tensor::ExtractOp::create(inBody, load.getLoc(),
                                                        tensor,
                                                        load.getIndices())
                                  .getResult());
      load.erase();
    });
    return raised;
  }

private:
  OpBuilder &builder;
  llvm::MapVector<Value, Value> tensors;
};

struct RaiseBufferGathersPass
    : public gather::impl::RaiseBufferGathersPassBase<RaiseBufferGathersPass> {
  using RaiseBufferGathersPassBase::RaiseBufferGathersPassBase;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (op.hasPureBufferSemantics() && findGatherDataRead(op))
        candidates.push_back(op);
    });
    for (linalg::GenericOp op : candidates) {
      std::string whyNot;
      if (!canRaiseGather(op, &whyNot)) {
        // A gather of the lowering (marked) that keeps its scalar loops
        // says so; others only with `remarks`.
        if (gather::isMarkedGatherElements(op))
          emitWarning(op.getLoc())
              << "gather on buffers left to scalar loops: " << whyNot;
        else if (remarks)
          emitRemark(op.getLoc()) << "not raised to tensors: " << whyNot;
        continue;
      }
      raise(op);
    }
  }

  /// Raises `gather` and, if it follows, its index check (with the
  /// linalg.fill of its flag): the check stays next to the gather, on the
  /// same tensor of `indices`, so that gather-codegen fuses the two. Where
  /// a buffer's layout is known only at run time, the raised ops run under
  /// an scf.if that it is the identity (the buffers cast to it), the ops as
  /// they were otherwise.
  void raise(linalg::GenericOp gather) {
    Value indices = findGatherDataRead(gather)->indices->get();
    linalg::GenericOp check;
    linalg::FillOp fill;
    SmallVector<Operation *> between, deferred;
    for (Operation *op = gather->getNextNode(); op; op = op->getNextNode()) {
      if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
        if (isBufferIndexCheckOf(generic, gather, indices))
          check = generic;
        break;
      }
      auto filling = dyn_cast<linalg::FillOp>(op);
      if (filling && !fill && filling.hasPureBufferSemantics()) {
        fill = filling;
      } else if (isMemoryEffectFree(op) && op->getNumRegions() == 0) {
        between.push_back(op);
      } else if (isa<bufferization::ToTensorOp>(op)) {
        // (The tensor of a buffer, e.g. of the gather's result, as a
        // partial bufferization leaves it: it can move after the check.)
        deferred.push_back(op);
      } else {
        break;
      }
    }
    // An op that uses the tensor of a buffer (or what was computed from
    // one) goes below the check with it; the check must not use it.
    {
      llvm::SmallPtrSet<Operation *, 8> below(deferred.begin(), deferred.end());
      auto usesBelow = [&](Operation *op) {
        bool uses = false;
        op->walk([&](Operation *nested) {
          for (Value operand : nested->getOperands())
            if (Operation *def = operand.getDefiningOp())
              uses |= below.contains(def);
        });
        return uses;
      };
      SmallVector<Operation *> above, ordered;
      for (Operation *op = gather->getNextNode(); op && op != check;
           op = op->getNextNode()) {
        if (below.contains(op)) {
          ordered.push_back(op);
        } else if (llvm::is_contained(between, op)) {
          if (usesBelow(op)) {
            below.insert(op);
            ordered.push_back(op);
          } else {
            above.push_back(op);
          }
        }
      }
      between = std::move(above);
      deferred = std::move(ordered);
      if (check && (usesBelow(check) || (fill && usesBelow(fill))))
        check = {};
    }
    if (check && fill && fill.getDpsInits()[0] != check.getDpsInits()[0])
      check = {};
    if (check && llvm::any_of(deferred, [&](Operation *op) {
          return isa<bufferization::ToTensorOp>(op) &&
                 getRootBuffer(op->getOperand(0)) ==
                     getRootBuffer(check.getDpsInits()[0]);
        }))
      check = {};
    SmallVector<Operation *> group{gather};
    if (check) {
      // What the check uses from between the two goes above the gather,
      // the tensors of buffers below the check.
      for (Operation *op : between)
        op->moveBefore(gather);
      for (Operation *op : llvm::reverse(deferred))
        op->moveAfter(check);
      if (fill)
        group.push_back(fill);
      group.push_back(check);
    } else {
      fill = {};
    }

    // The buffers whose layout is known only at run time.
    SetVector<Value> dynamic;
    auto noteBuffer = [&](Value buffer) {
      auto type = dyn_cast<MemRefType>(buffer.getType());
      if (type && getLayout(type) == Layout::Unknown &&
          !getSourceTensor(buffer))
        dynamic.insert(buffer);
    };
    for (Value buffer : gather->getOperands())
      noteBuffer(buffer);
    noteBuffer(findGatherDataRead(gather)->data);
    if (!dynamic.empty()) {
      IRMapping mapping;
      Block *thenBlock = versionOnLayouts(group, dynamic, mapping);
      for (Operation *&op : group)
        op = thenBlock->findAncestorOpInBlock(*mapping.lookup(op));
      gather = cast<linalg::GenericOp>(group.front());
      if (check) {
        check = cast<linalg::GenericOp>(group.back());
        fill = fill ? cast<linalg::FillOp>(group[1]) : linalg::FillOp();
      }
    }
    raiseGroup(gather, fill, check);
  }

  /// Puts `group` (ops in one block, in order) under `scf.if` "every buffer
  /// of `dynamic` is contiguous and row-major at offset 0": the ops
  /// themselves in the else branch, clones of them on the buffers
  /// reinterpreted with the identity layout in the then branch (`mapping`:
  /// from the ops to their clones). (A memref.cast to the identity layout
  /// would fold away into the ops that read it, which would then read with
  /// strides known only at run time.)
  Block *versionOnLayouts(ArrayRef<Operation *> group,
                          const SetVector<Value> &dynamic, IRMapping &mapping) {
    Operation *first = group.front();
    Location loc = first->getLoc();
    OpBuilder builder(first);
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value condition;
    auto require = [&](Value actual, Value expected) {
      Value equal = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq, actual, expected);
      condition = condition
                      ? arith::AndIOp::create(builder, loc, condition, equal)
                      : equal;
    };
    // Per buffer, the sizes and row-major strides of its identity view.
    SmallVector<std::pair<SmallVector<OpFoldResult>, SmallVector<OpFoldResult>>>
        views;
    for (Value buffer : dynamic) {
      auto type = cast<MemRefType>(buffer.getType());
      auto metadata =
          memref::ExtractStridedMetadataOp::create(builder, loc, buffer);
      require(metadata.getOffset(), zero);
      int64_t rank = type.getRank();
      SmallVector<OpFoldResult> sizes(rank), strides(rank);
      OpFoldResult expected = builder.getIndexAttr(1);
      for (int64_t d = rank - 1; d >= 0; --d) {
        require(metadata.getStrides()[d],
                getValueOrCreateConstantIndexOp(builder, loc, expected));
        strides[d] = expected;
        sizes[d] = type.isDynamicDim(d)
                       ? OpFoldResult(metadata.getSizes()[d])
                       : OpFoldResult(builder.getIndexAttr(type.getDimSize(d)));
        std::optional<int64_t> stride = getConstantIntValue(expected);
        // (Folded where the product fits int64_t.)
        std::optional<int64_t> product =
            stride && !type.isDynamicDim(d)
                ? llvm::checkedMul(*stride, type.getDimSize(d))
                : std::nullopt;
        expected =
            product
                ? OpFoldResult(builder.getIndexAttr(*product))
                : OpFoldResult(arith::MulIOp::create(
                      builder, loc,
                      getValueOrCreateConstantIndexOp(builder, loc, expected),
                      getValueOrCreateConstantIndexOp(builder, loc, sizes[d])));
      }
      views.emplace_back(std::move(sizes), std::move(strides));
    }
    auto version = scf::IfOp::create(builder, loc, TypeRange(), condition,
                                     /*withElseRegion=*/true);
    for (Operation *op : group)
      op->moveBefore(version.elseBlock()->getTerminator());
    OpBuilder thenBuilder = OpBuilder::atBlockBegin(version.thenBlock());
    for (auto [buffer, view] : llvm::zip_equal(dynamic, views)) {
      auto type = cast<MemRefType>(buffer.getType());
      auto identity =
          MemRefType::get(type.getShape(), type.getElementType(),
                          MemRefLayoutAttrInterface(), type.getMemorySpace());
      mapping.map(buffer,
                  memref::ReinterpretCastOp::create(
                      thenBuilder, loc, identity, buffer,
                      thenBuilder.getIndexAttr(0), view.first, view.second)
                      .getResult());
    }
    thenBuilder.setInsertionPoint(version.thenBlock()->getTerminator());
    for (Operation *op : group)
      mapping.map(op, thenBuilder.clone(*op, mapping));
    return version.thenBlock();
  }

  /// The tensor form of `gather`, `fill` and `check` (the latter two may be
  /// null), ops on buffers in this order in one block.
  void raiseGroup(linalg::GenericOp gather, linalg::FillOp fill,
                  linalg::GenericOp check) {
    OpBuilder builder(gather);
    Raiser raiser(builder);
    Value out = gather.getDpsInits()[0];
    // A buffer allocated for the result and only read as a tensor after
    // the gather (what a partial bufferization leaves): the result is that
    // tensor, built in a tensor.empty, and the buffer goes.
    auto alloc = out.getDefiningOp<memref::AllocOp>();
    bufferization::ToTensorOp resultTensor;
    if (alloc && alloc->getBlock() == gather->getBlock() &&
        llvm::count_if(out.getUsers(), [](Operation *) { return true; }) == 2)
      for (Operation *user : out.getUsers())
        if (auto toTensor = dyn_cast<bufferization::ToTensorOp>(user))
          if (toTensor->getBlock() == gather->getBlock() &&
              gather->isBeforeInBlock(toTensor))
            resultTensor = toTensor;
    Value outTensor =
        resultTensor
            ? tensor::EmptyOp::create(
                  builder, gather.getLoc(),
                  cast<RankedTensorType>(resultTensor.getType()).getShape(),
                  cast<RankedTensorType>(resultTensor.getType())
                      .getElementType(),
                  alloc.getDynamicSizes())
                  .getResult()
            : raiser.getTensor(out, /*writable=*/true);
    linalg::GenericOp raised = raiser.raiseGeneric(gather, outTensor);
    Operation *last = raised;
    Value flag, flagTensor;
    if (check) {
      flag = check.getDpsInits()[0];
      builder.setInsertionPoint(check);
      flagTensor = raiser.getTensor(flag, /*writable=*/true);
      if (fill)
        flagTensor = linalg::FillOp::create(builder, fill.getLoc(),
                                            fill.getInputs(), flagTensor)
                         .getResult(0);
      linalg::GenericOp raisedCheck = raiser.raiseGeneric(check, flagTensor);
      flagTensor = raisedCheck.getResult(0);
      last = raisedCheck;
    }
    // The results into their buffers, after both (nothing between the
    // gather and its check uses the gather's result).
    builder.setInsertionPointAfter(last);
    auto materialize = [&](Value tensor, Value buffer) {
      bufferization::MaterializeInDestinationOp::create(
          builder, tensor.getLoc(), TypeRange(), tensor, buffer,
          /*restrict=*/true, /*writable=*/true);
    };
    if (resultTensor)
      resultTensor.replaceAllUsesWith(raised.getResult(0));
    else
      materialize(raised.getResult(0), out);
    if (check) {
      materialize(flagTensor, flag);
      check.erase();
      if (fill)
        fill.erase();
    }
    gather.erase();
    if (resultTensor) {
      resultTensor.erase();
      alloc.erase();
    }
  }
};

} // namespace
