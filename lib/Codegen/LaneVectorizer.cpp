//===- LaneVectorizer.cpp - Linalg bodies on vector lanes -----------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
                               ValueRange tensors, Value zero, Value one,
                               unsigned offsetBits)
    : loc(loc), vectorSize(vectorSize), zero(zero), offsetBits(offsetBits) {
  for (Value tensor : tensors) {
    if (strides.contains(tensor))
      continue;
    // Strides of `tensor` (contiguous, row-major), in elements.
    int64_t rank = cast<RankedTensorType>(tensor.getType()).getRank();
    SmallVector<Value> tensorStrides(rank, one);
    for (int64_t d = rank - 2; d >= 0; --d)
      tensorStrides[d] = arith::MulIOp::create(
          b, loc, tensorStrides[d + 1],
          getValueOrCreateConstantIndexOp(
              b, loc, tensor::getMixedSize(b, loc, tensor, d + 1)));
    strides[tensor] = std::move(tensorStrides);
  }
}

Value LaneVectorizer::readLanes(OpBuilder &b, Value tensor,
                                ArrayRef<LaneValue> coordinates) const {
  bool row =
      !coordinates.empty() &&
      coordinates.back().kind == LaneValue::Kind::Stepped &&
      coordinates.back().lanes.getDefiningOp<vector::StepOp>() &&
      llvm::all_of(coordinates.drop_back(), [](const LaneValue &coordinate) {
        return coordinate.kind == LaneValue::Kind::Uniform;
      });
  if (!row)
    return buildGather(b, tensor, coordinates);
  SmallVector<Value> base;
  for (const LaneValue &coordinate : coordinates)
    base.push_back(coordinate.value);
  Type element = getElementTypeOrSelf(tensor.getType());
  Value padding = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  return vector::TransferReadOp::create(
      b, loc, VectorType::get({vectorSize}, element), tensor, base, padding,
      ArrayRef<bool>{true});
}

void LaneVectorizer::setRowPermute(Value tensor, const RowPermute &rowPermute) {
  permutedTensor = tensor;
  permute = rowPermute;
}

LaneValue LaneVectorizer::getLanePositions(OpBuilder &b, Value value) const {
  return {LaneValue::Kind::Stepped, value,
          vector::StepOp::create(
              b, loc, VectorType::get({vectorSize}, b.getIndexType()))};
}

SmallVector<Value> LaneVectorizer::vectorizeBody(
    OpBuilder &b, Block *body, ArrayRef<LaneValue> arguments,
    ArrayRef<LaneValue> coordinates, const BodySplit &split) const {
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
    // (Once `last` is built, nothing after it is needed.)
    if (split.last && values.contains(split.last->getResult(0)))
      break;
    if (&op == split.given) {
      values[op.getResult(0)] = {LaneValue::Kind::Varying, split.givenValue};
      continue;
    }
    if (auto index = dyn_cast<linalg::IndexOp>(op)) {
      values[index.getResult()] = coordinates[index.getDim()];
      continue;
    }
    if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
      SmallVector<LaneValue> laneCoordinates =
          llvm::map_to_vector(extract.getIndices(), lookup);
      bool rowRead =
          permute && extract.getTensor() == permutedTensor &&
          !laneCoordinates.empty() &&
          laneCoordinates.back().kind == LaneValue::Kind::Varying &&
          llvm::all_of(ArrayRef(laneCoordinates).drop_back(),
                       [](const LaneValue &coordinate) {
                         return coordinate.kind == LaneValue::Kind::Uniform;
                       });
      if (!rowRead) {
        values[extract.getResult()] = {
            LaneValue::Kind::Varying,
            buildGather(b, extract.getTensor(), laneCoordinates)};
        continue;
      }
      SmallVector<Value> rowStart;
      for (const LaneValue &coordinate : ArrayRef(laneCoordinates).drop_back())
        rowStart.push_back(coordinate.value);
      rowStart.push_back(zero);
      values[extract.getResult()] = {
          LaneValue::Kind::Varying,
          buildRowPermute(b, loc, *permute, permutedTensor, rowStart,
                          cast<RankedTensorType>(permutedTensor.getType())
                              .getShape()
                              .back(),
                          laneCoordinates.back().value)};
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
  if (split.last)
    return {toVector(lookup(split.last->getResult(0)))};
  return llvm::map_to_vector(
      body->getTerminator()->getOperands(),
      [&](Value yielded) { return toVector(lookup(yielded)); });
}

Value LaneVectorizer::buildGather(OpBuilder &b, Value tensor,
                                  ArrayRef<LaneValue> coordinates) const {
  ArrayRef<Value> tensorStrides = strides.at(tensor);
  SmallVector<Value> base;
  Value offsets;
  // 32-bit offsets: each lane's coordinates are truncated (exact for the
  // in-bounds elements, whose offsets fit), then linearized in i32.
  Type offsetType =
      offsetBits == 32 ? Type(b.getI32Type()) : Type(b.getIndexType());
  auto offsetVector = VectorType::get({vectorSize}, offsetType);
  auto castToOffsetType = [&](Value value) -> Value {
    Type type =
        isa<VectorType>(value.getType()) ? Type(offsetVector) : offsetType;
    if (value.getType() == type)
      return value;
    return arith::IndexCastOp::create(b, loc, type, value);
  };
  // A coordinate chosen by a select (the safe coordinate of the index rule:
  // in range ? normalized : 0) is truncated before the select, after the
  // compare that chose it: the compare sees the whole index value, the
  // select takes 32-bit lanes.
  auto toOffsetType = [&](Value value) -> Value {
    auto select = value.getDefiningOp<arith::SelectOp>();
    if (offsetBits != 32 || !select ||
        !getElementTypeOrSelf(value.getType()).isIndex())
      return castToOffsetType(value);
    return arith::SelectOp::create(b, loc, select.getCondition(),
                                   castToOffsetType(select.getTrueValue()),
                                   castToOffsetType(select.getFalseValue()))
        .getResult();
  };
  auto addOffsets = [&](Value lanes, int64_t d) {
    lanes = toOffsetType(lanes);
    if (!isConstantIntValue(getAsOpFoldResult(tensorStrides[d]), 1))
      lanes = arith::MulIOp::create(
          b, loc, lanes,
          vector::BroadcastOp::create(b, loc, offsetVector,
                                      toOffsetType(tensorStrides[d])));
    offsets = offsets
                  ? arith::AddIOp::create(b, loc, offsets, lanes).getResult()
                  : lanes;
  };
  for (auto [d, value] : llvm::enumerate(coordinates)) {
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
  auto type =
      VectorType::get({vectorSize}, getElementTypeOrSelf(tensor.getType()));
  if (!offsets) // The same element in all lanes.
    return vector::BroadcastOp::create(
        b, loc, type, tensor::ExtractOp::create(b, loc, tensor, base));
  Value mask = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(VectorType::get({vectorSize}, b.getI1Type()),
                             true));
  Value passThrough = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  return vector::GatherOp::create(b, loc, type, tensor, base, offsets, mask,
                                  passThrough);
}
