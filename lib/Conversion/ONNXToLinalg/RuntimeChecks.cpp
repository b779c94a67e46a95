//===- RuntimeChecks.cpp - Run-time checks of onnx.GatherElements ---------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The IR of the run-time checks of the onnx.GatherElements lowering (see
// RuntimeChecks.h and the pass description in Passes.td), on top of
// gather/RuntimeABI/RuntimeReporter.h.
//
//===----------------------------------------------------------------------===//

#include "RuntimeChecks.h"
#include "gather/Conversion/ONNXToLinalg/GatherLinalgForm.h"
#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/Support/CheckedSize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace gather;
using namespace gather::onnx_to_linalg;

/// Bad index values reported one by one per execution of an op; the rest
/// are counted.
static constexpr int64_t kMaxReportedIndices = 10;

static Value negate(OpBuilder &builder, Location loc, Value condition) {
  return arith::XOrIOp::create(
      builder, loc, condition,
      arith::ConstantIntOp::create(builder, loc, 1, 1));
}

static Value toI64(OpBuilder &builder, Location loc, Value index) {
  return arith::IndexCastOp::create(builder, loc, builder.getI64Type(), index);
}

Value GatherElementsChecks::emitShapeChecks(OpBuilder &b, Value data,
                                            Value indices, int64_t axis,
                                            RankedTensorType resultType) {
  auto dataType = cast<RankedTensorType>(data.getType());
  auto indicesType = cast<RankedTensorType>(indices.getType());
  // Only the first violation is reported.
  RuntimeConditions conditions(reporter);
  auto check = [&](Value holds, RuntimeFunction report, int64_t dim,
                   Value indicesSize, Value otherSize) {
    conditions.require(
        b, loc, holds, report,
        [&](OpBuilder &nb, Location nestedLoc) -> SmallVector<Value> {
          SmallVector<Value> args = {
              arith::ConstantIntOp::create(nb, nestedLoc, dim, 64),
              toI64(nb, nestedLoc, indicesSize),
              toI64(nb, nestedLoc, otherSize)};
          if (report == RuntimeFunction::ReportShapeError)
            args.push_back(
                arith::ConstantIntOp::create(nb, nestedLoc, axis, 64));
          return args;
        });
  };
  for (int64_t d = 0; d < dataType.getRank(); ++d) {
    if (d == axis ||
        (!dataType.isDynamicDim(d) && !indicesType.isDynamicDim(d)))
      continue;
    Value indicesSize = getValueOrCreateConstantIndexOp(
        b, loc, tensor::getMixedSize(b, loc, indices, d));
    Value dataSize = getValueOrCreateConstantIndexOp(
        b, loc, tensor::getMixedSize(b, loc, data, d));
    check(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, indicesSize,
                                dataSize),
          RuntimeFunction::ReportShapeError, d, indicesSize, dataSize);
  }
  for (int64_t d = 0; d < resultType.getRank(); ++d) {
    if (!indicesType.isDynamicDim(d) || resultType.isDynamicDim(d))
      continue;
    Value indicesSize = getValueOrCreateConstantIndexOp(
        b, loc, tensor::getMixedSize(b, loc, indices, d));
    Value resultSize =
        arith::ConstantIndexOp::create(b, loc, resultType.getDimSize(d));
    check(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, indicesSize,
                                resultSize),
          RuntimeFunction::ReportResultShapeError, d, indicesSize, resultSize);
  }
  // An axis of size 0 has nothing to read: every index is then reported
  // by the index check (unless `indices` is empty), and the gather is
  // skipped. The guard is not reported itself.
  bool indicesEmpty = gather::hasZeroSize(indicesType.getShape());
  if (!indicesEmpty && dataType.isDynamicDim(axis)) {
    Value axisSize = getValueOrCreateConstantIndexOp(
        b, loc, tensor::getMixedSize(b, loc, data, axis));
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    conditions.assume(b, loc,
                      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                            axisSize, zero));
  } else if (!indicesEmpty && dataType.getDimSize(axis) == 0) {
    return arith::ConstantIntOp::create(b, loc, 0, 1);
  }
  return conditions.getConjunction();
}

void GatherElementsChecks::emitRankCheck(OpBuilder &b, Value rankOk,
                                         bool dataIsUnranked, Value actualRank,
                                         int64_t rank) {
  if (!reporter)
    return;
  reporter->reportIf(
      b, loc, negate(b, loc, rankOk), RuntimeFunction::ReportRankError,
      [&](OpBuilder &nb, Location nestedLoc) -> SmallVector<Value> {
        return {arith::ConstantIntOp::create(nb, nestedLoc,
                                             dataIsUnranked ? 0 : 1, 64),
                toI64(nb, nestedLoc, actualRank),
                arith::ConstantIntOp::create(nb, nestedLoc, rank, 64)};
      });
}

bool GatherElementsChecks::needsIndexCheck(Value data, Value indices,
                                           int64_t axis) {
  auto dataType = cast<RankedTensorType>(data.getType());
  auto indicesType = cast<RankedTensorType>(indices.getType());
  DenseIntElementsAttr constantIndices;
  if (!dataType.isDynamicDim(axis) &&
      matchPattern(indices, m_Constant(&constantIndices)))
    return false;
  return !gather::hasZeroSize(indicesType.getShape());
}

Value GatherElementsChecks::emitScratch(OpBuilder &b, Location loc,
                                        RankedTensorType type,
                                        ValueRange dynamicSizes) {
  constexpr int64_t kMaxStackBytes = 64 * 1024;
  auto function = dyn_cast<FunctionOpInterface>(anchor);
  std::optional<int64_t> bytes = gather::getCheckedNumElements(
      type.getShape(), (type.getElementTypeBitWidth() + 7) / 8);
  if (!function || !bytes || *bytes > kMaxStackBytes)
    return tensor::EmptyOp::create(b, loc, type.getShape(),
                                   type.getElementType(), dynamicSizes);
  Value buffer;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&function.getFunctionBody().front());
    buffer = memref::AllocaOp::create(
        b, loc, MemRefType::get(type.getShape(), type.getElementType()));
  }
  return bufferization::ToTensorOp::create(b, loc, type, buffer,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

Value GatherElementsChecks::emitAnyOutOfRange(OpBuilder &builder, Location loc,
                                              Value indices, Value axisSize) {
  MLIRContext *context = builder.getContext();
  int64_t rank = cast<RankedTensorType>(indices.getType()).getRank();
  Type i1 = builder.getI1Type();
  Value any = emitScratch(builder, loc, RankedTensorType::get({}, i1), {});
  Value falseValue = arith::ConstantIntOp::create(builder, loc, 0, 1);
  any = linalg::FillOp::create(builder, loc, falseValue, any).getResult(0);
  SmallVector<AffineMap> maps = {builder.getMultiDimIdentityMap(rank),
                                 AffineMap::get(rank, 0, {}, context)};
  any = linalg::GenericOp::create(
            builder, loc, TypeRange{any.getType()}, ValueRange{indices},
            ValueRange{any}, maps,
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::reduction),
            [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
              Value inRange =
                  ONNX::buildNormalizedIndex(b, nestedLoc, args[0], axisSize)
                      .second;
              linalg::YieldOp::create(
                  b, nestedLoc,
                  arith::OrIOp::create(b, nestedLoc, args[1],
                                       negate(b, nestedLoc, inRange))
                      .getResult());
            },
            gather::getGatherIndexCheckMarker(builder))
            .getResult(0);
  return tensor::ExtractOp::create(builder, loc, any, ValueRange{});
}

void GatherElementsChecks::emitReportIfOutOfRange(OpBuilder &b,
                                                  Value anyOutOfRange,
                                                  Value indices, int64_t axis,
                                                  Value axisSize) {
  scf::IfOp::create(
      b, loc, anyOutOfRange, [&](OpBuilder &nb, Location nestedLoc) {
        emitReportBadIndices(nb, nestedLoc, indices, axis, axisSize);
        scf::YieldOp::create(nb, nestedLoc);
      });
}

void GatherElementsChecks::emitReportBadIndices(OpBuilder &b, Location loc,
                                                Value indices, int64_t axis,
                                                Value axisSize) {
  auto indicesType = cast<RankedTensorType>(indices.getType());
  int64_t rank = indicesType.getRank();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value cap = arith::ConstantIndexOp::create(b, loc, kMaxReportedIndices);
  SmallVector<Value> sizes;
  Value numElements = one;
  for (int64_t d = 0; d < rank; ++d) {
    sizes.push_back(getValueOrCreateConstantIndexOp(
        b, loc, tensor::getMixedSize(b, loc, indices, d)));
    numElements = arith::MulIOp::create(b, loc, numElements, sizes.back());
  }
  // The position goes to the runtime through a small buffer allocated
  // here, on the cold path (freed by the buffer deallocation pipeline): a
  // report inside a loop does not grow the stack, and concurrent reports
  // (a gather inside a parallel loop) do not share it.
  auto positionType = MemRefType::get({rank}, b.getI64Type());
  Value position = memref::AllocOp::create(b, loc, positionType);
  Value positionIndex =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, position);
  Value positionPtr = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()),
      toI64(b, loc, positionIndex));

  // The loop carries the number of bad values seen so far.
  auto loop = scf::ForOp::create(
      b, loc, zero, numElements, one, ValueRange{zero},
      [&](OpBuilder &lb, Location nestedLoc, Value linear, ValueRange iter) {
        Value count = iter[0];
        // Delinearize (row-major).
        SmallVector<Value> coordinates(rank);
        Value rest = linear;
        for (int64_t d = rank - 1; d >= 0; --d) {
          coordinates[d] =
              arith::RemUIOp::create(lb, nestedLoc, rest, sizes[d]);
          rest = arith::DivUIOp::create(lb, nestedLoc, rest, sizes[d]);
        }
        Value index =
            tensor::ExtractOp::create(lb, nestedLoc, indices, coordinates);
        Value inRange =
            ONNX::buildNormalizedIndex(lb, nestedLoc, index, axisSize).second;
        Value outOfRange = negate(lb, nestedLoc, inRange);
        Value reportNow = arith::AndIOp::create(
            lb, nestedLoc, outOfRange,
            arith::CmpIOp::create(lb, nestedLoc, arith::CmpIPredicate::ult,
                                  count, cap));
        scf::IfOp::create(
            lb, nestedLoc, reportNow, [&](OpBuilder &nb, Location innerLoc) {
              for (int64_t d = 0; d < rank; ++d)
                memref::StoreOp::create(
                    nb, innerLoc, toI64(nb, innerLoc, coordinates[d]), position,
                    ValueRange{
                        arith::ConstantIndexOp::create(nb, innerLoc, d)});
              reporter->report(
                  nb, innerLoc, RuntimeFunction::ReportIndexError,
                  [&](OpBuilder &ab, Location al) -> SmallVector<Value> {
                    Value value = index.getType().isInteger(64)
                                      ? index
                                      : arith::ExtSIOp::create(
                                            ab, al, ab.getI64Type(), index)
                                            .getResult();
                    return {value, positionPtr,
                            arith::ConstantIntOp::create(ab, al, rank, 64),
                            arith::ConstantIntOp::create(ab, al, axis, 64),
                            toI64(ab, al, axisSize)};
                  });
              scf::YieldOp::create(nb, innerLoc);
            });
        Value next = arith::AddIOp::create(
            lb, nestedLoc, count,
            arith::IndexCastUIOp::create(lb, nestedLoc, lb.getIndexType(),
                                         outOfRange));
        scf::YieldOp::create(lb, nestedLoc, next);
      });
  Value count = loop.getResult(0);
  Value omitted =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, count, cap);
  reporter->reportIf(
      b, loc, omitted, RuntimeFunction::ReportIndexErrorsOmitted,
      [&](OpBuilder &nb, Location nestedLoc) -> SmallVector<Value> {
        return {toI64(nb, nestedLoc,
                      arith::SubIOp::create(nb, nestedLoc, count, cap)),
                arith::ConstantIntOp::create(nb, nestedLoc, axis, 64),
                toI64(nb, nestedLoc, axisSize)};
      });
}
