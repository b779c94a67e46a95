//===- GatherRecognizers.cpp - What gather-codegen matches ----------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements the recognizers of GatherRecognizers.h: the structural match
// of a gather and its index check (GatherLinalgForm.h; the markers choose
// which check belongs to a marked gather), and the legality checks of
// vector code.
//
//===----------------------------------------------------------------------===//

#include "GatherRecognizers.h"

#include "gather/Conversion/ONNXToLinalg/GatherLinalgForm.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace gather::codegen;

/// Sets `*whyNot` (if not null) to `reason`; returns false.
static bool reject(StringRef *whyNot, StringRef reason) {
  if (whyNot)
    *whyNot = reason;
  return false;
}

bool gather::codegen::hasNoDataRead(linalg::GenericOp op) {
  return op.getBody()->getOps<tensor::ExtractOp>().empty();
}

/// isGatherLike, with `outputs` saying what output maps it takes: the
/// identity only, or any permutation.
enum class OutputMaps { Identity, Permutations };
static bool matchGatherLike(linalg::GenericOp op, OutputMaps outputs,
                            StringRef *whyNot) {
  if (!op.hasPureTensorSemantics())
    return reject(whyNot, "not on tensors");
  if (op.getNumDpsInputs() < 1)
    return reject(whyNot, "no input");
  if (op.getNumDpsInits() < 1)
    return reject(whyNot, "no result");
  if (op.getNumLoops() == 0 || op.getNumLoops() != op.getNumParallelLoops())
    return reject(whyNot, "not all-parallel loops");
  std::optional<GatherDataRead> read = findGatherDataRead(op, whyNot);
  if (!read)
    return false;
  if (!op.getMatchingIndexingMap(read->indices).isPermutation())
    return reject(whyNot, "the indexing map of its indices is not a "
                          "permutation");
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (outputs == OutputMaps::Identity && !map.isIdentity())
      return reject(whyNot, "an output indexing map that is not the identity");
    if (!map.isPermutation())
      return reject(whyNot, "an output indexing map that is not a permutation");
  }
  for (OpOperand *input : op.getDpsInputOperands())
    if (!op.getMatchingIndexingMap(input).isProjectedPermutation())
      return reject(whyNot, "an input indexing map that is not a projected "
                            "permutation");
  return true;
}

bool gather::codegen::isGatherLike(linalg::GenericOp op, StringRef *whyNot) {
  return matchGatherLike(op, OutputMaps::Identity, whyNot);
}

bool gather::codegen::hasResultsInOtherOrders(linalg::GenericOp op) {
  return !isGatherLike(op) &&
         matchGatherLike(op, OutputMaps::Permutations, nullptr);
}

OpOperand &gather::codegen::getIndicesOperand(linalg::GenericOp gather) {
  return *findGatherDataRead(gather)->indices;
}

Value gather::codegen::getIndices(linalg::GenericOp gather) {
  return getIndicesOperand(gather).get();
}

bool gather::codegen::readsIndicesPermuted(linalg::GenericOp gather) {
  return !gather.getMatchingIndexingMap(&getIndicesOperand(gather))
              .isIdentity();
}

SetVector<Operation *>
gather::codegen::getOpsOfDataRead(linalg::GenericOp gather) {
  Block *body = gather.getBody();
  BackwardSliceOptions options(
      [&](Operation *op) { return op->getBlock() == body; });
  options.inclusive = true;
  options.omitBlockArguments = true;
  SetVector<Operation *> ops;
  // (Without block arguments to follow, the slice is always computed.)
  (void)getBackwardSlice(findGatherDataRead(gather)->read, &ops, options);
  return ops;
}

bool gather::codegen::canSplitAtDataRead(linalg::GenericOp gather,
                                         StringRef *whyNot) {
  Operation *read = findGatherDataRead(gather)->read;
  Block *body = gather.getBody();
  SetVector<Operation *> before = getOpsOfDataRead(gather);
  auto onlyBefore = [&](Value value) {
    return llvm::all_of(value.getUsers(),
                        [&](Operation *user) { return before.contains(user); });
  };
  for (Operation *op : before)
    if (op != read && !llvm::all_of(op->getResults(), onlyBefore))
      return reject(whyNot, "a value computed for the read of data is used "
                            "after it");
  BlockArgument index =
      body->getArgument(getIndicesOperand(gather).getOperandNumber());
  if (!onlyBefore(index))
    return reject(whyNot, "the index value is used after the read of data");
  return true;
}

SmallVector<OpOperand *>
gather::codegen::getElementwiseInputs(linalg::GenericOp gather) {
  OpOperand *indices = &getIndicesOperand(gather);
  SmallVector<OpOperand *> inputs;
  for (OpOperand *input : gather.getDpsInputOperands())
    if (input != indices)
      inputs.push_back(input);
  return inputs;
}

/// Whether `check` has the form of the index check of a gather of `rank`
/// loops over `indices` (findIndexCheck), leaving out where it is.
static bool isIndexCheckOf(linalg::GenericOp check, Value indices, int64_t rank,
                           StringRef *whyNot) {
  if (!check.hasPureTensorSemantics() || check.getNumDpsInputs() != 1 ||
      check.getDpsInputs()[0] != indices || check.getNumDpsInits() != 1)
    return reject(whyNot, "not one input, the gather's indices, and one "
                          "output");
  if (check.getNumLoops() != rank || check.getNumReductionLoops() != rank)
    return reject(whyNot, "not all-reduction loops of the gather's rank");
  if (check.getDpsInits()[0].getType() !=
      RankedTensorType::get({}, IntegerType::get(check.getContext(), 1)))
    return reject(whyNot, "its output is not a tensor<i1>");
  SmallVector<AffineMap> maps = check.getIndexingMapsArray();
  auto yield = cast<linalg::YieldOp>(check.getBody()->getTerminator());
  auto ori = yield.getValues().front().getDefiningOp<arith::OrIOp>();
  Value accumulator = check.getBody()->getArgument(1);
  if (!maps[0].isIdentity() || maps[1].getNumResults() != 0)
    return reject(whyNot, "not an identity map in and an empty map out");
  if (!ori || (ori.getLhs() != accumulator && ori.getRhs() != accumulator) ||
      !llvm::hasSingleElement(accumulator.getUses()))
    return reject(whyNot, "its body does not yield an arith.ori of its "
                          "accumulator");
  if (!check.getBody()->getOps<linalg::IndexOp>().empty())
    return reject(whyNot, "its body reads linalg.index");
  return true;
}

/// Whether `op` has no regions and at most reads memory (no writes,
/// allocations, frees or unknown effects): a bufferization.to_tensor of an
/// argument's buffer, a memref.load.
static bool onlyReadsMemory(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (op->getNumRegions() != 0 || !effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::all_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Read>(e.getEffect());
  });
}

/// Appends to `toHoist` (in block order) the ops between `check` and
/// `gather` in their block that define the values `gather` uses, and the
/// ops those use in turn; false if one of them has regions or memory
/// effects other than reads, or if one reads memory and an op it would move
/// above (one that stays) may write memory. A `restrict`
/// bufferization.to_tensor (of a kernel's argument) moves freely.
static bool collectOpsToHoist(linalg::GenericOp gather, linalg::GenericOp check,
                              SmallVectorImpl<Operation *> &toHoist) {
  Block *block = gather->getBlock();
  SetVector<Value> used;
  getUsedValuesDefinedAbove(gather->getRegions(), used);
  SmallVector<Value> worklist(gather->getOperands());
  llvm::append_range(worklist, used);
  DenseSet<Operation *> seen;
  Operation *lastReader = nullptr;
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != block || def->isBeforeInBlock(check) ||
        !seen.insert(def).second)
      continue;
    if (def->getNumRegions() != 0)
      return false;
    // (A `restrict` bufferization.to_tensor: its buffer is accessed only
    // through the tensor, so no op it moves above writes it.)
    auto toTensor = dyn_cast<bufferization::ToTensorOp>(def);
    if (!isMemoryEffectFree(def) && !(toTensor && toTensor.getRestrict())) {
      if (!onlyReadsMemory(def))
        return false;
      if (!lastReader || lastReader->isBeforeInBlock(def))
        lastReader = def;
    }
    llvm::append_range(worklist, def->getOperands());
  }
  for (Operation &op :
       llvm::make_range(check->getIterator(), gather->getIterator())) {
    if (seen.contains(&op))
      toHoist.push_back(&op);
    else if (lastReader && op.isBeforeInBlock(lastReader) &&
             !isMemoryEffectFree(&op) && !onlyReadsMemory(&op))
      return false;
  }
  return true;
}

IndexCheckMatch gather::codegen::findIndexCheck(linalg::GenericOp gather,
                                                StringRef *whyNotFused) {
  int64_t rank = gather.getNumLoops();
  Value indices = getIndices(gather);
  Block *block = gather->getBlock();
  bool marked = isMarkedGatherElements(gather);
  StringRef ignored;
  if (!whyNotFused)
    whyNotFused = &ignored;
  // The first check of the form from `gather` on in one direction, up to
  // the next gather; a marked check of `indices` not of the form (when
  // `brokenStops`) is its check, which cannot be fused (null).
  auto scan = [&](bool forward, bool brokenStops) -> linalg::GenericOp {
    for (Operation *op = forward ? gather->getNextNode()
                                 : gather->getPrevNode();
         op; op = forward ? op->getNextNode() : op->getPrevNode()) {
      auto check = dyn_cast<linalg::GenericOp>(op);
      if (!check)
        continue;
      if (isGatherLike(check))
        return nullptr;
      StringRef whyNot;
      if (isIndexCheckOf(check, indices, rank, &whyNot))
        return check;
      if (brokenStops && isMarkedGatherIndexCheck(check) &&
          llvm::is_contained(check->getOperands(), indices)) {
        reject(whyNotFused, whyNot);
        return nullptr;
      }
    }
    return nullptr;
  };
  if (linalg::GenericOp check = scan(/*forward=*/true, marked)) {
    bool usedBefore = llvm::any_of(gather->getUsers(), [&](Operation *user) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      return !ancestor || ancestor->isBeforeInBlock(check);
    });
    if (usedBefore) {
      reject(whyNotFused, "the gather's result is used before the check");
      return {};
    }
    return {check, {}};
  }
  if (!whyNotFused->empty())
    return {};
  // Passes that rebuild the gather (linalg-fuse-elementwise-ops puts the
  // fused generic where its consumer was, without the marker) may leave its
  // check before it: the check of the same `indices` in the same block,
  // marked or not. The fused loops go where the check is, so the ops that
  // define what the gather uses move above it.
  IndexCheckMatch match{scan(/*forward=*/false, /*brokenStops=*/true), {}};
  if (match.check && !collectOpsToHoist(gather, match.check, match.toHoist)) {
    reject(whyNotFused, "the check is before the gather, above an op that "
                        "the gather uses and that cannot move above it "
                        "(memory effects other than reads, or a read after "
                        "a write)");
    return {};
  }
  return match;
}

Value gather::codegen::getGatheredTensor(linalg::GenericOp gather) {
  return (*gather.getBody()->getOps<tensor::ExtractOp>().begin()).getTensor();
}

bool gather::codegen::readsRowsOfData(linalg::GenericOp gather) {
  tensor::ExtractOp read =
      *gather.getBody()->getOps<tensor::ExtractOp>().begin();
  int64_t rank = gather.getNumLoops();
  OperandRange coordinates = read.getIndices();
  if (coordinates.empty() ||
      coordinates.back().getDefiningOp<linalg::IndexOp>())
    return false;
  return llvm::all_of(coordinates.drop_back(), [&](Value coordinate) {
    if (auto index = coordinate.getDefiningOp<linalg::IndexOp>())
      return static_cast<int64_t>(index.getDim()) < rank - 1;
    return !gather->isAncestor(coordinate.getParentBlock()->getParentOp());
  });
}

/// isSurelyContiguous, `depth` ops up the chain of definitions.
static bool isSurelyContiguousAt(Value value, int depth) {
  if (depth > 16)
    return false;
  if (auto argument = dyn_cast<BlockArgument>(value))
    return isa<FunctionOpInterface>(argument.getOwner()->getParentOp());
  Operation *op = value.getDefiningOp();
  if (isa<arith::ConstantOp, tensor::EmptyOp, tensor::GenerateOp,
          tensor::FromElementsOp, func::CallOp>(op))
    return true;
  if (auto toTensor = dyn_cast<bufferization::ToTensorOp>(op)) {
    auto memref = dyn_cast<MemRefType>(toTensor.getBuffer().getType());
    return memref && hasContiguousLayout(memref);
  }
  // An unranked tensor's buffer may have any layout (a strided view cast to
  // memref<*x...>): what a cast learns from it is not surely contiguous.
  if (auto cast = dyn_cast<tensor::CastOp>(op))
    return !isa<UnrankedTensorType>(cast.getSource().getType()) &&
           isSurelyContiguousAt(cast.getSource(), depth + 1);
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return isSurelyContiguousAt(collapse.getSrc(), depth + 1);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return isSurelyContiguousAt(expand.getSrc(), depth + 1);
  // Destination-style ops write into (the buffer of) their init.
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
    return isSurelyContiguousAt(
        dps.getDpsInits()[cast<OpResult>(value).getResultNumber()], depth + 1);
  return false;
}

bool gather::codegen::hasContiguousLayout(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)))
    return false;
  // (The row-major strides without wrap-around: one beyond int64_t is no
  // stride a layout has.)
  std::optional<int64_t> expected = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (!expected || strides[d] != *expected)
      return false;
    expected = llvm::checkedMul(*expected, type.getDimSize(d));
  }
  return true;
}

bool gather::codegen::isSurelyContiguous(Value value) {
  return isSurelyContiguousAt(value, 0);
}

bool gather::codegen::canVectorize(linalg::GenericOp gather,
                                   StringRef *whyNot) {
  if (!isSurelyContiguous(getGatheredTensor(gather)))
    return reject(whyNot, "data is not surely contiguous");
  // (Read with vector.gather where their map is not the identity or the
  // rows are in groups.)
  if (!llvm::all_of(getElementwiseInputs(gather), [](OpOperand *input) {
        return isSurelyContiguous(input->get());
      }))
    return reject(whyNot, "an elementwise input is not surely contiguous");
  // (Read with vector.gather when the loops follow a transposing consumer.)
  if (readsIndicesPermuted(gather) && !isSurelyContiguous(getIndices(gather)))
    return reject(whyNot, "indices, read through a permuted map, is not "
                          "surely contiguous");
  if (!llvm::all_of(gather->getOperandTypes(), [](Type type) {
        Type element = getElementTypeOrSelf(type);
        return VectorType::isValidElementType(element) &&
               (element.isIndex() ||
                (element.isIntOrFloat() &&
                 element.getIntOrFloatBitWidth() % 8 == 0));
      }))
    return reject(whyNot, "elements that are not whole-byte integers or "
                          "floats");
  return true;
}

bool gather::codegen::isVectorizableBody(Block *body) {
  auto isScalar = [](Type type) { return type.isIntOrIndexOrFloat(); };
  return llvm::all_of(body->without_terminator(), [&](Operation &op) {
    if (isa<linalg::IndexOp, arith::ConstantOp>(op))
      return true;
    if (auto extract = dyn_cast<tensor::ExtractOp>(op))
      return extract.getTensor().getParentBlock() != body;
    return op.hasTrait<OpTrait::Elementwise>() && op.getNumRegions() == 0 &&
           llvm::all_of(op.getOperandTypes(), isScalar) &&
           llvm::all_of(op.getResultTypes(), isScalar);
  });
}
