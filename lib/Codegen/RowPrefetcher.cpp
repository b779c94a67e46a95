//===- RowPrefetcher.cpp - Prefetches in the rows of gathers --------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements RowPrefetcher (RowPrefetcher.h): 1-D views of `data` and
// `indices`, and memref.prefetch ops clamped to the buffers.
//
//===----------------------------------------------------------------------===//

#include "RowPrefetcher.h"

#include "GatherRecognizers.h"
#include "gather/Support/CheckedSize.h"
#include "gather/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace gather::codegen;

RowPrefetcher::RowPrefetcher(OpBuilder &b, Location loc,
                             linalg::GenericOp gather, int64_t distance)
    : loc(loc) {
  Value indicesTensor = getIndices(gather);
  Value dataTensor = getGatheredTensor(gather);
  auto flatten = [&](Value tensor, SmallVector<Value> &strides, Value &last) {
    auto type = cast<RankedTensorType>(tensor.getType());
    Value buffer = bufferization::ToBufferOp::create(
        b, loc, MemRefType::get(type.getShape(), type.getElementType()), tensor,
        /*read_only=*/true);
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(getValueOrCreateConstantIndexOp(
          b, loc, tensor::getMixedSize(b, loc, tensor, d)));
    strides.assign(type.getRank(), arith::ConstantIndexOp::create(b, loc, 1));
    for (int64_t d = type.getRank() - 2; d >= 0; --d)
      strides[d] = arith::MulIOp::create(b, loc, strides[d + 1], sizes[d + 1]);
    Value count = arith::MulIOp::create(b, loc, strides[0], sizes[0]);
    last = arith::SubIOp::create(b, loc, count,
                                 arith::ConstantIndexOp::create(b, loc, 1));
    ReassociationIndices all =
        llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    // The flat size is static only if every size is and their product fits
    // int64_t: the inferred type (CollapseShapeOp's builder without one)
    // makes it a static 0 when a size is 0 and another dynamic, which its
    // verifier rejects.
    int64_t flatSize = type.hasStaticShape()
                           ? gather::getCheckedNumElements(type.getShape())
                                 .value_or(ShapedType::kDynamic)
                           : ShapedType::kDynamic;
    return memref::CollapseShapeOp::create(
               b, loc, MemRefType::get({flatSize}, type.getElementType()),
               buffer, ArrayRef<ReassociationIndices>{all})
        .getResult();
  };
  data = flatten(dataTensor, dataStrides, dataLast);
  indices = flatten(indicesTensor, indicesStrides, indicesLast);
  // (Whole-byte integers and floats: shouldPrefetch in CodegenPlan.cpp.)
  dataBytes =
      *gather::getElementBytes(getElementTypeOrSelf(dataTensor.getType()));
  indexBytes =
      *gather::getElementBytes(getElementTypeOrSelf(indicesTensor.getType()));
  // D rows of data: ceil(distance / row bytes) rows, in elements.
  Value rowSize = dataStrides[dataStrides.size() - 2];
  Value rows = arith::CeilDivUIOp::create(
      b, loc,
      arith::ConstantIndexOp::create(
          b, loc, std::max<int64_t>(1, distance / dataBytes)),
      rowSize);
  dataAhead = arith::MulIOp::create(b, loc, rows, rowSize);
  indicesAhead = arith::ConstantIndexOp::create(
      b, loc, std::max<int64_t>(1, distance / indexBytes));
}

void RowPrefetcher::emitForElements(OpBuilder &b, ArrayRef<Value> outer,
                                    Value position, int64_t count) {
  emitLines(b, data, linearize(b, dataStrides, outer, position), dataAhead,
            dataLast, count * dataBytes, dataBytes);
  emitLines(b, indices, linearize(b, indicesStrides, outer, position),
            indicesAhead, indicesLast, count * indexBytes, indexBytes);
}

void RowPrefetcher::emitForScalar(OpBuilder &b, ArrayRef<Value> outer,
                                  Value position) {
  int64_t perLine = std::max<int64_t>(1, kCacheLineBytes / indexBytes);
  Value first = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, position,
                             arith::ConstantIndexOp::create(b, loc, perLine)),
      arith::ConstantIndexOp::create(b, loc, 0));
  scf::IfOp::create(b, loc, first, [&](OpBuilder &tb, Location) {
    emitForElements(tb, outer, position, perLine);
    scf::YieldOp::create(tb, loc);
  });
}

Value RowPrefetcher::linearize(OpBuilder &b, ArrayRef<Value> strides,
                               ArrayRef<Value> outer, Value position) {
  Value linear = position;
  for (auto [coordinate, stride] : llvm::zip(outer, strides))
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, coordinate, stride));
  return linear;
}

void RowPrefetcher::emitLines(OpBuilder &b, Value buffer, Value linear,
                              Value ahead, Value last, int64_t bytes,
                              int64_t elementBytes) {
  Value target = arith::AddIOp::create(b, loc, linear, ahead);
  int64_t lineElements = std::max<int64_t>(1, kCacheLineBytes / elementBytes);
  for (int64_t offset = 0; offset * elementBytes < bytes;
       offset += lineElements) {
    Value at = offset == 0 ? target
                           : arith::AddIOp::create(
                                 b, loc, target,
                                 arith::ConstantIndexOp::create(b, loc, offset))
                                 .getResult();
    memref::PrefetchOp::create(
        b, loc, buffer, ValueRange{arith::MinSIOp::create(b, loc, at, last)},
        /*isWrite=*/false, /*localityHint=*/3,
        /*isDataCache=*/true);
  }
}
