//===- GatherRecognizers.cpp - What gather-codegen matches ----------------===//
//
// Part of the gather project.
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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace gather::codegen;

/// Sets `*whyNot` (if not null) to `reason`; returns false.
static bool reject(StringRef *whyNot, StringRef reason) {
  if (whyNot)
    *whyNot = reason;
  return false;
}

bool gather::codegen::isGatherLike(linalg::GenericOp op, StringRef *whyNot) {
  if (!op.hasPureTensorSemantics())
    return reject(whyNot, "not on tensors");
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1)
    return reject(whyNot, "not one input and one output");
  if (op.getNumLoops() == 0 || op.getNumLoops() != op.getNumParallelLoops())
    return reject(whyNot, "not all-parallel loops");
  if (!llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return reject(whyNot, "an indexing map that is not the identity");
  auto extracts = op.getBody()->getOps<tensor::ExtractOp>();
  if (std::distance(extracts.begin(), extracts.end()) != 1)
    return reject(whyNot, "not exactly one tensor.extract in its body");
  return true;
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

linalg::GenericOp gather::codegen::findIndexCheck(linalg::GenericOp gather,
                                                  StringRef *whyNotFused) {
  int64_t rank = gather.getNumLoops();
  Value indices = gather.getDpsInputs()[0];
  Block *block = gather->getBlock();
  bool marked = isMarkedGatherElements(gather);
  for (Operation *op = gather->getNextNode(); op; op = op->getNextNode()) {
    auto check = dyn_cast<linalg::GenericOp>(op);
    if (!check)
      continue;
    if (isGatherLike(check))
      return nullptr;
    StringRef whyNot;
    if (!isIndexCheckOf(check, indices, rank, &whyNot)) {
      // A marked gather's marked check of its `indices` is its check.
      if (marked && isMarkedGatherIndexCheck(check) &&
          llvm::is_contained(check->getOperands(), indices)) {
        reject(whyNotFused, whyNot);
        return nullptr;
      }
      continue;
    }
    bool usedBefore = llvm::any_of(gather->getUsers(), [&](Operation *user) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      return !ancestor || ancestor->isBeforeInBlock(check);
    });
    if (usedBefore) {
      reject(whyNotFused, "the gather's result is used before the check");
      return nullptr;
    }
    return check;
  }
  return nullptr;
}

Value gather::codegen::getGatheredTensor(linalg::GenericOp gather) {
  return (*gather.getBody()->getOps<tensor::ExtractOp>().begin()).getTensor();
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
    return memref && memref.getLayout().isIdentity();
  }
  if (auto cast = dyn_cast<tensor::CastOp>(op))
    return isSurelyContiguousAt(cast.getSource(), depth + 1);
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

bool gather::codegen::isSurelyContiguous(Value value) {
  return isSurelyContiguousAt(value, 0);
}

bool gather::codegen::canVectorize(linalg::GenericOp gather,
                                   StringRef *whyNot) {
  if (!isSurelyContiguous(getGatheredTensor(gather)))
    return reject(whyNot, "data is not surely contiguous");
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
