//===- PartitionedGather.cpp - Pieces of a partitioned gather -------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See PartitionedGather.h.
//
//===----------------------------------------------------------------------===//

#include "PartitionedGather.h"

#include "gather/Dialect/ONNX/GatherElementsView.h"
#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/Dialect/ONNX/Sharding/Sharding.h"
#include "gather/RuntimeABI/RuntimeABI.h"
#include "gather/RuntimeABI/RuntimeReporter.h"
#include "gather/Support/CheckedSize.h"
#include "gather/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <limits>

using namespace mlir;
using namespace mlir::shard;
using namespace gather;

/// A tensor.empty of `shape` x `elementType`, dynamic sizes taken from the
/// same dimensions of `like` (which has the same rank as `shape`, or one
/// less: the extra trailing dimension is static).
static Value createEmptyLike(OpBuilder &b, Location loc, Value like,
                             ArrayRef<int64_t> shape, Type elementType) {
  SmallVector<Value> dynamicSizes;
  for (auto [d, size] : llvm::enumerate(shape))
    if (ShapedType::isDynamic(size))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, like, d));
  return tensor::EmptyOp::create(b, loc, shape, elementType, dynamicSizes);
}

static Value createI64Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 64);
}

/// shard.all_reduce of a scalar i64 (through a tensor<1xi64>).
static Value allReduceScalar(OpBuilder &b, Location loc, Value scalar,
                             StringRef grid, ArrayRef<GridAxis> gridAxes,
                             ReductionKind kind) {
  Value tensor = tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({1}, scalar.getType()), scalar);
  Value reduced =
      AllReduceOp::create(b, loc, tensor, grid, gridAxes, kind).getResult();
  return tensor::ExtractOp::create(
      b, loc, reduced, ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
}

/// A reduction of every element of `indices` into a scalar that starts at
/// `init` (a linalg.generic of all-reduction loops, `body` its region),
/// extracted.
static Value
reduceIndices(OpBuilder &builder, Location loc, Value indices, Value init,
              function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  int64_t rank = cast<RankedTensorType>(indices.getType()).getRank();
  Value initTensor = linalg::FillOp::create(
                         builder, loc, init,
                         tensor::EmptyOp::create(
                             builder, loc, ArrayRef<int64_t>{}, init.getType())
                             .getResult())
                         .getResult(0);
  SmallVector<AffineMap> maps = {
      builder.getMultiDimIdentityMap(rank),
      AffineMap::get(rank, 0, {}, builder.getContext())};
  Value reduced = linalg::GenericOp::create(
                      builder, loc, TypeRange{initTensor.getType()},
                      ValueRange{indices}, ValueRange{initTensor}, maps,
                      SmallVector<utils::IteratorType>(
                          rank, utils::IteratorType::reduction),
                      body)
                      .getResult(0);
  return tensor::ExtractOp::create(builder, loc, reduced, ValueRange{});
}

Value ONNX::createMaskedGather(OpBuilder &builder, Location loc, int64_t axis,
                               Value data, Value indices, Value lo, Value chunk,
                               Value axisSize) {
  auto indicesType = cast<RankedTensorType>(indices.getType());
  int64_t rank = indicesType.getRank();
  Type elementType = cast<RankedTensorType>(data.getType()).getElementType();
  auto resultType = RankedTensorType::get(indicesType.getShape(), elementType);
  Value identity = ONNX::getSumIdentity(builder, loc, elementType);
  Value init = createEmptyLike(builder, loc, indices, resultType.getShape(),
                               elementType);
  SmallVector<AffineMap> maps(2, builder.getMultiDimIdentityMap(rank));
  // One gather-like generic, written in place (destination-passing
  // style): the element at n - lo of this process's slab where the index
  // n (normalized with the global axis size) falls in it, all-zero bits
  // elsewhere.
  return linalg::GenericOp::create(
             builder, loc, TypeRange{resultType}, ValueRange{indices},
             ValueRange{init}, maps,
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &b, Location nl, ValueRange args) {
               Value n =
                   ONNX::buildNormalizedIndex(b, nl, args[0], axisSize).first;
               Value offset = arith::SubIOp::create(b, nl, n, lo);
               // Unsigned: n < lo is out of the slab too.
               Value inSlab = arith::CmpIOp::create(
                   b, nl, arith::CmpIPredicate::ult, offset, chunk);
               SmallVector<Value> coordinates;
               for (int64_t d = 0; d < rank; ++d)
                 coordinates.push_back(
                     d == axis ? arith::SelectOp::create(
                                     b, nl, inSlab, offset,
                                     arith::ConstantIndexOp::create(b, nl, 0))
                                     .getResult()
                               : linalg::IndexOp::create(b, nl, d).getResult());
               Value element =
                   tensor::ExtractOp::create(b, nl, data, coordinates);
               linalg::YieldOp::create(
                   b, nl,
                   arith::SelectOp::create(b, nl, inSlab, element, identity)
                       .getResult());
             })
      .getResult(0);
}

void ONNX::createGlobalIndexCheck(OpBuilder &builder, Location loc,
                                  Operation *op, Value indices,
                                  ArrayRef<Value> offsets,
                                  ArrayRef<Value> globalSizes,
                                  StringRef gridName,
                                  ArrayRef<GridAxis> usedAxes, Value axisSize) {
  auto indicesType = cast<RankedTensorType>(indices.getType());
  int64_t rank = indicesType.getRank();
  if (gather::hasZeroSize(indicesType.getShape()))
    return;
  SmallVector<Value> localSizes;
  for (int64_t d = 0; d < rank; ++d)
    localSizes.push_back(getValueOrCreateConstantIndexOp(
        builder, loc, tensor::getMixedSize(builder, loc, indices, d)));
  SmallVector<Value> strides(rank);
  Value stride = arith::ConstantIndexOp::create(builder, loc, 1);
  for (int64_t d = rank - 1; d >= 0; --d) {
    strides[d] = stride;
    stride = arith::MulIOp::create(builder, loc, stride, globalSizes[d]);
  }

  // First whether any process holds a bad value: an OR of the out-of-range
  // flags over `indices` (the form of the one-process check, which
  // gather-codegen fuses into the loops of the local gather that follows,
  // so each index is read once) and an 8-byte all_reduce. Only then the
  // position of the first one (below), which costs several times more per
  // index.
  Value localAny = reduceIndices(
      builder, loc, indices, arith::ConstantIntOp::create(builder, loc, 0, 1),
      [&](OpBuilder &b, Location nl, ValueRange args) {
        Value inRange =
            ONNX::buildNormalizedIndex(b, nl, args[0], axisSize).second;
        Value outside = arith::XOrIOp::create(
            b, nl, inRange, arith::ConstantIntOp::create(b, nl, 1, 1));
        linalg::YieldOp::create(
            b, nl, arith::OrIOp::create(b, nl, args[1], outside).getResult());
      });
  Value anyBad = allReduceScalar(
      builder, loc,
      arith::ExtUIOp::create(builder, loc, builder.getI64Type(), localAny),
      gridName, usedAxes, ReductionKind::Max);
  auto ifAnyBad = scf::IfOp::create(
      builder, loc,
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, anyBad,
                            createI64Constant(builder, loc, 0)),
      /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(ifAnyBad.thenBlock()->getTerminator());

  // key = the smallest global row-major position of a bad value, or
  // INT64_MAX.
  constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
  Value none = createI64Constant(builder, loc, kNone);
  Value localKey = reduceIndices(
      builder, loc, indices, none,
      [&](OpBuilder &b, Location nl, ValueRange args) {
        Value inRange =
            ONNX::buildNormalizedIndex(b, nl, args[0], axisSize).second;
        Value position = arith::ConstantIndexOp::create(b, nl, 0);
        for (int64_t d = 0; d < rank; ++d) {
          Value coordinate = arith::AddIOp::create(
              b, nl, linalg::IndexOp::create(b, nl, d), offsets[d]);
          position = arith::AddIOp::create(
              b, nl, position,
              arith::MulIOp::create(b, nl, coordinate, strides[d]));
        }
        Value candidate = arith::SelectOp::create(
            b, nl, inRange, createI64Constant(b, nl, kNone),
            arith::IndexCastOp::create(b, nl, b.getI64Type(), position));
        linalg::YieldOp::create(
            b, nl,
            arith::MinSIOp::create(b, nl, args[1], candidate).getResult());
      });
  Value key = allReduceScalar(builder, loc, localKey, gridName, usedAxes,
                              ReductionKind::Min);
  Value bad =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, key, none);
  ONNX::GatherElementsView gather = *ONNX::GatherElementsView::get(op);
  int64_t axis = ONNX::normalizeAxis(gather.axis, rank);
  RuntimeReporter reporter(op->getParentOfType<ModuleOp>(), op->getLoc());
  scf::IfOp::create(builder, loc, bad, [&](OpBuilder &b, Location nl) {
    // The global coordinates of `key`; a process whose slab holds them and
    // that found the bad value there itself (its own first bad position is
    // `key`) contributes the value: where the processes' slabs overlap (a
    // replicated `indices`) and their values differ there (a host that
    // passes different tensors), the value reported is still one that is
    // out of range, never another process's valid one.
    Value rest = arith::IndexCastOp::create(b, nl, b.getIndexType(), key);
    SmallVector<Value> coordinates(rank), localCoordinates(rank);
    Value owns =
        arith::CmpIOp::create(b, nl, arith::CmpIPredicate::eq, localKey, key);
    for (int64_t d = rank - 1; d >= 0; --d) {
      coordinates[d] = arith::RemUIOp::create(b, nl, rest, globalSizes[d]);
      rest = arith::DivUIOp::create(b, nl, rest, globalSizes[d]);
      localCoordinates[d] =
          arith::SubIOp::create(b, nl, coordinates[d], offsets[d]);
      owns = arith::AndIOp::create(
          b, nl, owns,
          arith::CmpIOp::create(b, nl, arith::CmpIPredicate::ult,
                                localCoordinates[d], localSizes[d]));
    }
    auto ifOwns = scf::IfOp::create(
        b, nl, owns,
        [&](OpBuilder &tb, Location tl) {
          Value value =
              tensor::ExtractOp::create(tb, tl, indices, localCoordinates);
          if (!value.getType().isInteger(64))
            value = arith::ExtSIOp::create(tb, tl, tb.getI64Type(), value);
          scf::YieldOp::create(tb, tl, value);
        },
        [&](OpBuilder &eb, Location el) {
          scf::YieldOp::create(eb, el, createI64Constant(eb, el, kNone));
        });
    Value value = allReduceScalar(b, nl, ifOwns.getResult(0), gridName,
                                  usedAxes, ReductionKind::Min);
    auto positionType = MemRefType::get({rank}, b.getI64Type());
    Value position = memref::AllocOp::create(b, nl, positionType);
    for (int64_t d = 0; d < rank; ++d)
      memref::StoreOp::create(
          b, nl,
          arith::IndexCastOp::create(b, nl, b.getI64Type(), coordinates[d]),
          position, ValueRange{arith::ConstantIndexOp::create(b, nl, d)});
    Value address = arith::IndexCastOp::create(
        b, nl, b.getI64Type(),
        memref::ExtractAlignedPointerAsIndexOp::create(b, nl, position));
    Value pointer = LLVM::IntToPtrOp::create(
        b, nl, LLVM::LLVMPointerType::get(b.getContext()), address);
    // (Freed by the buffer deallocation pipeline.)
    reporter.report(b, nl, RuntimeFunction::ReportIndexError,
                    [&](OpBuilder &ab, Location al) -> SmallVector<Value> {
                      return {value, pointer, createI64Constant(ab, al, rank),
                              createI64Constant(ab, al, axis),
                              arith::IndexCastOp::create(
                                  ab, al, ab.getI64Type(), axisSize)};
                    });
    scf::YieldOp::create(b, nl);
  });
}

std::pair<Value, Value> ONNX::createBlockBounds(OpBuilder &builder,
                                                Location loc, Value process,
                                                ShardBlocks blocks) {
  if (blocks.isEven()) {
    Value count = arith::ConstantIndexOp::create(builder, loc, blocks.count(0));
    return {arith::MulIOp::create(builder, loc, process, count), count};
  }
  // The offsets of every block and of the end, read at the process's index
  // and the next: the rule of ShardBlocks.h, evaluated here.
  SmallVector<APInt> offsets;
  for (int64_t rank = 0; rank <= blocks.processes; ++rank)
    offsets.push_back(APInt(64, blocks.offset(rank)));
  auto type =
      RankedTensorType::get({blocks.processes + 1}, builder.getIndexType());
  Value table = arith::ConstantOp::create(
      builder, loc, DenseElementsAttr::get(type, offsets));
  Value next = arith::AddIOp::create(
      builder, loc, process, arith::ConstantIndexOp::create(builder, loc, 1));
  Value lo = tensor::ExtractOp::create(builder, loc, table, process);
  Value hi = tensor::ExtractOp::create(builder, loc, table, next);
  return {lo, arith::SubIOp::create(builder, loc, hi, lo)};
}

void ONNX::createSlabSizeCheck(OpBuilder &builder, Location loc, Operation *op,
                               ArrayRef<std::pair<int64_t, Value>> slabs,
                               int64_t dim, ShardBlocks blocks,
                               StringRef gridName, ArrayRef<GridAxis> usedAxes,
                               Value process) {
  constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
  Type i64 = builder.getI64Type();
  Value none = createI64Constant(builder, loc, kNone);
  Value processes = createI64Constant(builder, loc, blocks.processes);
  Value process64 = arith::IndexCastOp::create(builder, loc, i64, process);
  Value count = createBlockBounds(builder, loc, process, blocks).second;
  // key = slab * processes + process for the first slab of a wrong size.
  Value key = none;
  for (auto [k, slab] : llvm::enumerate(slabs)) {
    Value wrong = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                        slab.second, count);
    Value candidate = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, createI64Constant(builder, loc, k),
                              processes),
        process64);
    key = arith::MinSIOp::create(
        builder, loc, key,
        arith::SelectOp::create(builder, loc, wrong, candidate, none));
  }
  key = allReduceScalar(builder, loc, key, gridName, usedAxes,
                        ReductionKind::Min);
  Value bad =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, key, none);
  RuntimeReporter reporter(op->getParentOfType<ModuleOp>(), op->getLoc());
  scf::IfOp::create(builder, loc, bad, [&](OpBuilder &b, Location nl) {
    Value slab = arith::DivUIOp::create(b, nl, key, processes);
    Value owner = arith::RemUIOp::create(b, nl, key, processes);
    // The number and (on this process) the size of that slab.
    Value argument = none, size = none;
    for (auto [k, entry] : llvm::enumerate(slabs)) {
      Value isSlab = arith::CmpIOp::create(b, nl, arith::CmpIPredicate::eq,
                                           slab, createI64Constant(b, nl, k));
      argument = arith::SelectOp::create(
          b, nl, isSlab, createI64Constant(b, nl, entry.first), argument);
      size = arith::SelectOp::create(
          b, nl, isSlab, arith::IndexCastOp::create(b, nl, i64, entry.second),
          size);
    }
    Value owns = arith::CmpIOp::create(b, nl, arith::CmpIPredicate::eq,
                                       process64, owner);
    Value given =
        allReduceScalar(b, nl, arith::SelectOp::create(b, nl, owns, size, none),
                        gridName, usedAxes, ReductionKind::Min);
    Value expected =
        createBlockBounds(
            b, nl, arith::IndexCastOp::create(b, nl, b.getIndexType(), owner),
            blocks)
            .second;
    reporter.report(
        b, nl, RuntimeFunction::ReportSlabShapeError,
        [&](OpBuilder &ab, Location al) -> SmallVector<Value> {
          return {argument, createI64Constant(ab, al, dim),
                  owner,    arith::IndexCastOp::create(ab, al, i64, expected),
                  given,    createI64Constant(ab, al, blocks.size),
                  processes};
        });
    scf::YieldOp::create(b, nl);
  });
}

Value ONNX::createBufferAddress(OpBuilder &b, Location loc, Value memref) {
  Value index = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), address);
}

Value ONNX::createAllToAllLookup(OpBuilder &builder, Location loc,
                                 Operation *op, int64_t axis, Value data,
                                 Value dataStart, Value indices,
                                 int64_t axisSize, StringRef grid,
                                 Value process, int64_t processes) {
  auto indicesType = cast<RankedTensorType>(indices.getType());
  auto dataType = cast<RankedTensorType>(data.getType());
  Type elementType = dataType.getElementType();
  int64_t rank = indicesType.getRank();
  int64_t elements = indicesType.getNumElements();
  Type i64 = builder.getI64Type();
  // The whole `data` as [outer, axisSize, inner], its row-major strides.
  SmallVector<int64_t> wholeShape(dataType.getShape());
  wholeShape[axis] = axisSize;
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * wholeShape[d + 1];
  int64_t outer = 1, inner = strides[axis];
  for (int64_t d = 0; d < axis; ++d)
    outer *= wholeShape[d];

  // This process's block of the row-major order of `indices`.
  ShardBlocks rows{elements, processes};
  auto [rowsLo, rowsCount] = createBlockBounds(builder, loc, process, rows);
  Value lo = rowsLo, count = rowsCount;
  int64_t blockSize = rows.isEven() ? rows.count(0) : ShapedType::kDynamic;
  Value flat = indices;
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < rank; ++d)
    all[0].push_back(d);
  if (rank != 1)
    flat = tensor::CollapseShapeOp::create(builder, loc, indices, all);
  SmallVector<OpFoldResult> offsets = {lo},
                            sizes = {rows.isEven()
                                         ? OpFoldResult(
                                               builder.getIndexAttr(blockSize))
                                         : OpFoldResult(count)};
  SmallVector<OpFoldResult> unit = {builder.getIndexAttr(1)};
  Value mine = tensor::ExtractSliceOp::create(
      builder, loc,
      RankedTensorType::get({blockSize}, indicesType.getElementType()), flat,
      offsets, sizes, unit);
  SmallVector<Value> dynamicSizes;
  if (!rows.isEven())
    dynamicSizes.push_back(count);
  Value empty =
      tensor::EmptyOp::create(builder, loc, {blockSize}, i64, dynamicSizes);
  Value axisSizeValue = arith::ConstantIndexOp::create(builder, loc, axisSize);
  SmallVector<AffineMap> maps(2, builder.getMultiDimIdentityMap(1));
  // position = the row-major position in the whole `data` of element
  // lo + i of `indices` (its coordinates, the axis' one replaced by the
  // normalized index).
  Value positions =
      linalg::GenericOp::create(
          builder, loc, TypeRange{empty.getType()}, ValueRange{mine},
          ValueRange{empty}, maps,
          SmallVector<utils::IteratorType>{utils::IteratorType::parallel},
          [&](OpBuilder &b, Location nl, ValueRange args) {
            Value rest = arith::AddIOp::create(
                b, nl, lo, linalg::IndexOp::create(b, nl, 0));
            Value position = arith::ConstantIndexOp::create(b, nl, 0);
            Value k =
                ONNX::buildNormalizedIndex(b, nl, args[0], axisSizeValue).first;
            for (int64_t d = rank - 1; d >= 0; --d) {
              Value size = arith::ConstantIndexOp::create(
                  b, nl, indicesType.getDimSize(d));
              Value coordinate =
                  d == axis ? k : arith::RemUIOp::create(b, nl, rest, size);
              rest = arith::DivUIOp::create(b, nl, rest, size);
              position = arith::AddIOp::create(
                  b, nl, position,
                  arith::MulIOp::create(
                      b, nl, coordinate,
                      arith::ConstantIndexOp::create(b, nl, strides[d])));
            }
            linalg::YieldOp::create(
                b, nl,
                arith::IndexCastOp::create(b, nl, i64, position).getResult());
          })
          .getResult(0);

  // The lookup, in buffers (the runtime reads and writes them through
  // their addresses).
  auto module = op->getParentOfType<ModuleOp>();
  Value positionsBuffer = bufferization::ToBufferOp::create(
      builder, loc, MemRefType::get({blockSize}, i64), positions,
      /*read_only=*/true);
  Value dataBuffer = bufferization::ToBufferOp::create(
      builder, loc, MemRefType::get(dataType.getShape(), elementType), data,
      /*read_only=*/true);
  auto lookedUpType = MemRefType::get({blockSize}, elementType);
  Value lookedUp =
      memref::AllocOp::create(builder, loc, lookedUpType, dynamicSizes);
  Value dataExtent = arith::IndexCastOp::create(
      builder, loc, i64, tensor::DimOp::create(builder, loc, data, axis));
  Value zero = createI64Constant(builder, loc, 0);
  func::CallOp::create(
      builder, loc,
      getOrDeclareRuntimeFunction(module, RuntimeFunction::MPIAlltoallLookup),
      ValueRange{createBufferAddress(builder, loc, positionsBuffer),
                 arith::IndexCastOp::create(builder, loc, i64, count),
                 createBufferAddress(builder, loc, lookedUp),
                 createBufferAddress(builder, loc, dataBuffer),
                 arith::IndexCastOp::create(builder, loc, i64, dataStart),
                 dataExtent, createI64Constant(builder, loc, outer),
                 createI64Constant(builder, loc, axisSize),
                 createI64Constant(builder, loc, inner),
                 createI64Constant(builder, loc,
                                   getElementBytes(elementType).value_or(1)),
                 zero, zero, zero});
  Value block = bufferization::ToTensorOp::create(
      builder, loc, RankedTensorType::get({blockSize}, elementType), lookedUp,
      /*restrict=*/true, /*writable=*/true);

  // The blocks assembled, in the shape of the result.
  auto wholeFlatType = RankedTensorType::get({elements}, elementType);
  auto gathered = AllGatherOp::create(
      builder, loc, rows.isEven() ? wholeFlatType : block.getType(), grid,
      ArrayRef<GridAxis>{0}, block, APInt(64, 0));
  gathered->setAttr(kAssembledAttrName, builder.getStringAttr("the lookups"));
  gathered->setAttr(kWholeSizeAttrName, builder.getI64IntegerAttr(elements));
  Value whole = gathered.getResult();
  if (whole.getType() != wholeFlatType)
    whole = tensor::CastOp::create(builder, loc, wholeFlatType, whole);
  if (rank == 1)
    return whole;
  return tensor::ExpandShapeOp::create(
      builder, loc, RankedTensorType::get(indicesType.getShape(), elementType),
      whole, all);
}
