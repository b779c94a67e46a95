//===- LaneVectorizer.cpp - Linalg bodies on vector lanes -----------------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// Implements LaneVectorizer (LaneVectorizer.h).
//
//===----------------------------------------------------------------------===//

#include "LaneVectorizer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace gather::codegen;

LaneVectorizer::LaneVectorizer(OpBuilder &b, Location loc, int64_t vectorSize,
                               Value data, Value zero, Value one)
    : loc(loc), vectorSize(vectorSize), zero(zero) {
  // Strides of `data` (contiguous, row-major), in elements.
  int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
  strides.assign(rank, one);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = arith::MulIOp::create(
        b, loc, strides[d + 1],
        getValueOrCreateConstantIndexOp(
            b, loc, tensor::getMixedSize(b, loc, data, d + 1)));
}

LaneValue LaneVectorizer::getLanePositions(OpBuilder &b, Value value) const {
  return {LaneValue::Kind::Stepped, value,
          vector::StepOp::create(
              b, loc, VectorType::get({vectorSize}, b.getIndexType()))};
}

Value LaneVectorizer::vectorizeBody(OpBuilder &b, Block *body,
                                    ArrayRef<LaneValue> arguments,
                                    ArrayRef<LaneValue> coordinates) const {
  DenseMap<Value, LaneValue> values;
  for (auto [argument, value] : llvm::zip(body->getArguments(), arguments))
    values[argument] = value;
  auto lookup = [&](Value value) -> LaneValue {
    auto it = values.find(value);
    return it != values.end() ? it->second
                              : LaneValue{LaneValue::Kind::Uniform, value};
  };
  auto toVector = [&](LaneValue value) -> Value {
    if (value.kind == LaneValue::Kind::Varying)
      return value.value;
    auto type = VectorType::get({vectorSize}, value.value.getType());
    Value broadcast = vector::BroadcastOp::create(b, loc, type, value.value);
    if (value.kind == LaneValue::Kind::Uniform)
      return broadcast;
    return arith::AddIOp::create(b, loc, broadcast, value.lanes);
  };
  for (Operation &op : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(op)) {
      values[index.getResult()] = coordinates[index.getDim()];
      continue;
    }
    if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
      values[extract.getResult()] = {LaneValue::Kind::Varying,
                                     buildGather(b, extract, lookup)};
      continue;
    }
    bool uniform = llvm::all_of(op.getOperands(), [&](Value operand) {
      return lookup(operand).kind == LaneValue::Kind::Uniform;
    });
    IRMapping mapping;
    for (Value operand : op.getOperands())
      mapping.map(operand,
                  uniform ? lookup(operand).value : toVector(lookup(operand)));
    Operation *clone = b.clone(op, mapping);
    for (auto [result, cloned] :
         llvm::zip(op.getResults(), clone->getResults())) {
      if (!uniform)
        cloned.setType(VectorType::get({vectorSize}, result.getType()));
      values[result] = {uniform ? LaneValue::Kind::Uniform
                                : LaneValue::Kind::Varying,
                        cloned};
    }
  }
  return toVector(lookup(body->getTerminator()->getOperand(0)));
}

Value LaneVectorizer::buildGather(OpBuilder &b, tensor::ExtractOp extract,
                                  function_ref<LaneValue(Value)> lookup) const {
  SmallVector<Value> base;
  Value offsets;
  auto indexVector = VectorType::get({vectorSize}, b.getIndexType());
  auto addOffsets = [&](Value lanes, int64_t d) {
    if (!isConstantIntValue(getAsOpFoldResult(strides[d]), 1))
      lanes = arith::MulIOp::create(
          b, loc, lanes,
          vector::BroadcastOp::create(b, loc, indexVector, strides[d]));
    offsets = offsets
                  ? arith::AddIOp::create(b, loc, offsets, lanes).getResult()
                  : lanes;
  };
  for (auto [d, coordinate] : llvm::enumerate(extract.getIndices())) {
    LaneValue value = lookup(coordinate);
    switch (value.kind) {
    case LaneValue::Kind::Uniform:
      base.push_back(value.value);
      break;
    case LaneValue::Kind::Stepped:
      base.push_back(value.value);
      addOffsets(value.lanes, d);
      break;
    case LaneValue::Kind::Varying:
      base.push_back(zero);
      addOffsets(value.value, d);
      break;
    }
  }
  auto type = VectorType::get({vectorSize}, extract.getType());
  if (!offsets) // The same element in all lanes.
    return vector::BroadcastOp::create(
        b, loc, type,
        tensor::ExtractOp::create(b, loc, extract.getTensor(), base));
  Value mask = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(VectorType::get({vectorSize}, b.getI1Type()),
                             true));
  Value passThrough = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  return vector::GatherOp::create(b, loc, type, extract.getTensor(), base,
                                  offsets, mask, passThrough);
}
