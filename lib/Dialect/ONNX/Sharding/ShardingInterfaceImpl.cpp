//===- ShardingInterfaceImpl.cpp - onnx.GatherElements on a grid ----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ShardingInterface model of onnx.GatherElements (see Sharding.h) and the
// bit-exact all-reduce it shares with gather-shard-prepare-for-mpi.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/Sharding/Sharding.h"

#include "UpstreamWorkarounds.h"
#include "gather/Dialect/ONNX/GatherElementsView.h"
#include "gather/Dialect/ONNX/ONNXDialect.h"
#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/Runtime/RuntimeReporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterfaceImpl.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/IRMapping.h"
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

namespace {

/// onnx.GatherElements as a one-hot contraction (see Sharding.h). A
/// FallbackModel, attached by op name: it applies to another `onnx`
/// dialect's GatherElements (onnx-mlir's) as well as to gather's.
struct GatherElementsShardingModel
    : public ShardingInterface::FallbackModel<GatherElementsShardingModel> {
  /// Both operands ranked with the same rank and `axis` in range: the rank;
  /// otherwise 0 (not partitionable).
  static int64_t getRank(Operation *op) {
    std::optional<ONNX::GatherElementsView> gather =
        ONNX::GatherElementsView::get(op);
    if (!gather)
      return 0;
    auto dataType = dyn_cast<RankedTensorType>(gather->data.getType());
    auto indicesType = dyn_cast<RankedTensorType>(gather->indices.getType());
    if (!dataType || !indicesType ||
        dataType.getRank() != indicesType.getRank())
      return 0;
    int64_t rank = dataType.getRank();
    return gather->axis >= -rank && gather->axis < rank ? rank : 0;
  }

  static int64_t getAxis(Operation *op) {
    int64_t axis = ONNX::GatherElementsView::get(op)->axis;
    return axis < 0 ? axis + getRank(op) : axis;
  }

  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    int64_t rank = getRank(op);
    if (rank == 0)
      return {};
    SmallVector<utils::IteratorType> types(rank, utils::IteratorType::parallel);
    types.push_back(utils::IteratorType::reduction);
    return types;
  }

  SmallVector<ReductionKind> getReductionLoopIteratorKinds(Operation *) const {
    return {ReductionKind::Sum};
  }

  FailureOr<std::vector<Sharding>>
  getShardingAnnotations(Operation *op, const ShardingOption &option) const {
    return shard::detail::defaultGetShardingAnnotations(op, option);
  }

  LogicalResult addShardingAnnotations(Operation *op, OpBuilder &builder,
                                       const ShardingOption &option) const {
    return shard::detail::defaultAddShardingAnnotations(op, builder, option);
  }

  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    int64_t rank = getRank(op);
    if (rank == 0)
      return {};
    MLIRContext *context = op->getContext();
    int64_t axis = getAxis(op);
    SmallVector<AffineExpr> dataExprs;
    for (int64_t d = 0; d < rank; ++d)
      dataExprs.push_back(getAffineDimExpr(d == axis ? rank : d, context));
    AffineMap parallel = AffineMap::getMultiDimIdentityMap(rank + 1, context)
                             .getMajorSubMap(rank);
    return {AffineMap::get(rank + 1, 0, dataExprs, context), parallel,
            parallel};
  }

  /// Checks that the grid axes assigned to the loops split evenly and align
  /// `data` with `indices`; emits an error otherwise.
  ///
  /// MLIR 22.1 workaround (UpstreamWorkarounds.h lists them all): an uneven
  /// static split is an error here because shard::shardDimension
  /// (ShardOps.h), which gives shard-partition the slab sizes, only asserts
  /// divisibility: without assertions (Debian's build) the shapes come out
  /// wrong. The divisibility check can go when shardDimension handles or
  /// rejects uneven splits.
  static LogicalResult verifySplit(Operation *op, ShardingArrayRef loopAxes,
                                   GridOp grid) {
    ONNX::GatherElementsView gather = *ONNX::GatherElementsView::get(op);
    auto dataType = cast<RankedTensorType>(gather.data.getType());
    auto indicesType = cast<RankedTensorType>(gather.indices.getType());
    int64_t rank = dataType.getRank();
    int64_t axis = getAxis(op);
    for (auto [loop, axes] : llvm::enumerate(loopAxes)) {
      if (axes.empty())
        continue;
      if (failed(ONNX::verifyShardableData(gather)))
        return failure();
      int64_t processes = collectiveProcessGroupSize(axes, grid.getShape());
      int64_t dim = static_cast<int64_t>(loop) == rank ? axis : loop;
      RankedTensorType type =
          static_cast<int64_t>(loop) == rank ? dataType : indicesType;
      StringRef name = static_cast<int64_t>(loop) == rank ? "data" : "indices";
      int64_t size = type.getDimSize(dim);
      if (ShapedType::isDynamic(size) || ShapedType::isDynamic(processes))
        return op->emitOpError("cannot split dimension ")
               << dim << " of '" << name
               << "': its size and the number of processes must be static";
      if (size % processes != 0)
        return op->emitOpError("cannot split dimension ")
               << dim << " of '" << name << "' (size " << size << ") over "
               << processes << " processes: the size must be a multiple";
      if (static_cast<int64_t>(loop) < rank && dim != axis &&
          dataType.getDimSize(dim) != size)
        return op->emitOpError("cannot split dimension ")
               << dim << ": 'indices' has size " << size << " there and "
               << "'data' size " << dataType.getDimSize(dim)
               << "; the slabs would not align";
    }
    return success();
  }

  FailureOr<ShardingOption>
  getShardingOption(Operation *op, ArrayRef<Sharding> operandShardings,
                    ArrayRef<Sharding> resultShardings) const {
    if (getRank(op) == 0)
      return ShardingOption::makeEmpty();
    FailureOr<ShardingOption> option = shard::detail::defaultGetShardingOption(
        op, operandShardings, resultShardings);
    if (failed(option) || option->empty)
      return option;
    SymbolTableCollection symbolTable;
    GridOp grid = shard::getGrid(op, option->grid, symbolTable);
    if (!grid)
      return op->emitOpError("refers to an unknown grid ") << option->grid;
    ShardingArray loopAxes(option->shardingArray);
    loopAxes.resize(getRank(op) + 1);
    if (failed(verifySplit(op, loopAxes, grid)))
      return failure();
    return option;
  }

  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<Sharding> operandShardings,
                          ArrayRef<Sharding> resultShardings,
                          IRMapping &partitionMap,
                          SymbolTableCollection &symbolTable,
                          OpBuilder &builder) const {
    int64_t rank = getRank(op);
    Sharding sharding;
    for (const Sharding &candidate :
         llvm::concat<const Sharding>(operandShardings, resultShardings))
      if (candidate && !sharding)
        sharding = candidate;
    if (rank == 0 || !sharding) {
      partitionTriviallyShardableOperation(*op, partitionedOperands,
                                           operandShardings, resultShardings,
                                           partitionMap, symbolTable, builder);
      return success();
    }
    GridOp grid = shard::getGrid(op, sharding.getGridAttr(), symbolTable);
    if (!grid)
      return op->emitOpError("refers to an unknown grid ")
             << sharding.getGridAttr();
    ShardingArray loopAxes = getGridAxisAssignmentForLoopIterators(
        operandShardings, resultShardings, getLoopIteratorTypes(op),
        getIndexingMaps(op));
    loopAxes.resize(rank + 1);
    if (failed(verifySplit(op, loopAxes, grid)))
      return failure();
    SmallVector<GridAxis> usedAxes;
    for (ArrayRef<GridAxis> axes : loopAxes)
      llvm::append_range(usedAxes, axes);
    if (usedAxes.empty()) {
      partitionTriviallyShardableOperation(*op, partitionedOperands,
                                           operandShardings, resultShardings,
                                           partitionMap, symbolTable, builder);
      return success();
    }

    Location loc = op->getLoc();
    int64_t axis = getAxis(op);
    Value data = partitionedOperands[0];
    Value indices = partitionedOperands[1];
    // The global size of the axis.
    Value axisSize = getValueOrCreateConstantIndexOp(
        builder, loc, tensor::getMixedSize(builder, loc, data, axis));
    ArrayRef<GridAxis> axisGridAxes = loopAxes[rank];
    if (!axisGridAxes.empty())
      axisSize = arith::MulIOp::create(
          builder, loc, axisSize,
          arith::ConstantIndexOp::create(
              builder, loc,
              collectiveProcessGroupSize(axisGridAxes, grid.getShape())));

    emitGlobalIndexCheck(builder, loc, op, indices, loopAxes, usedAxes, grid,
                         axisSize);

    if (axisGridAxes.empty()) {
      // Only dimensions other than the axis are split: each process gathers
      // from its slab.
      partitionTriviallyShardableOperation(*op, partitionedOperands,
                                           operandShardings, resultShardings,
                                           partitionMap, symbolTable, builder);
      return success();
    }

    // The axis is split: a masked gather from this process's slab
    // [lo, lo + chunk) of the axis, then a sum over the axis' processes.
    ImplicitLocOpBuilder ib(loc, builder);
    Value chunk = getValueOrCreateConstantIndexOp(
        builder, loc, tensor::getMixedSize(builder, loc, data, axis));
    Value lo = arith::MulIOp::create(
        builder, loc,
        createProcessLinearIndex(grid.getSymName(), axisGridAxes, ib), chunk);
    auto indicesType = cast<RankedTensorType>(indices.getType());
    Type elementType = cast<RankedTensorType>(data.getType()).getElementType();
    auto resultType =
        RankedTensorType::get(indicesType.getShape(), elementType);
    Value identity = ONNX::getSumIdentity(builder, loc, elementType);
    Value init = createEmptyLike(builder, loc, indices, resultType.getShape(),
                                 elementType);
    SmallVector<AffineMap> maps(2, builder.getMultiDimIdentityMap(rank));
    // One gather-like generic, written in place (destination-passing
    // style): the element at n - lo of this process's slab where the index
    // n (normalized with the global axis size) falls in it, all-zero bits
    // elsewhere.
    Value masked =
        linalg::GenericOp::create(
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
    Value result = ONNX::createBitExactAllReduce(
        builder, loc, masked, grid.getSymName(), axisGridAxes);
    Type expected =
        shardType(op->getResult(0).getType(), grid, resultShardings.front());
    if (result.getType() != expected)
      result = tensor::CastOp::create(builder, loc, expected, result);
    partitionMap.map(op->getResult(0), result);
    partitionMap.map(op, masked.getDefiningOp());
    return success();
  }

  /// Checks every index value of this process's slab `indices` against the
  /// global axis size; the first value out of range in the row-major order
  /// of the whole `indices` is reported on every process (see Sharding.h).
  static void emitGlobalIndexCheck(OpBuilder &builder, Location loc,
                                   Operation *op, Value indices,
                                   ShardingArrayRef loopAxes,
                                   ArrayRef<GridAxis> usedAxes, GridOp grid,
                                   Value axisSize) {
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t rank = indicesType.getRank();
    if (indicesType.hasStaticShape() && indicesType.getNumElements() == 0)
      return;
    ImplicitLocOpBuilder ib(loc, builder);
    StringRef gridName = grid.getSymName();
    // Local sizes, offsets of the slab and global sizes of `indices`.
    SmallVector<Value> localSizes, offsets, globalSizes;
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    for (int64_t d = 0; d < rank; ++d) {
      localSizes.push_back(getValueOrCreateConstantIndexOp(
          builder, loc, tensor::getMixedSize(builder, loc, indices, d)));
      if (loopAxes[d].empty()) {
        offsets.push_back(zero);
        globalSizes.push_back(localSizes.back());
        continue;
      }
      Value processes = arith::ConstantIndexOp::create(
          builder, loc,
          collectiveProcessGroupSize(loopAxes[d], grid.getShape()));
      offsets.push_back(arith::MulIOp::create(
          builder, loc, createProcessLinearIndex(gridName, loopAxes[d], ib),
          localSizes.back()));
      globalSizes.push_back(
          arith::MulIOp::create(builder, loc, localSizes.back(), processes));
    }
    SmallVector<Value> strides(rank);
    Value stride = arith::ConstantIndexOp::create(builder, loc, 1);
    for (int64_t d = rank - 1; d >= 0; --d) {
      strides[d] = stride;
      stride = arith::MulIOp::create(builder, loc, stride, globalSizes[d]);
    }

    // key = the smallest global row-major position of a bad value, or
    // INT64_MAX.
    constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
    Type i64 = builder.getI64Type();
    Value none = createI64Constant(builder, loc, kNone);
    Value keyInit =
        linalg::FillOp::create(
            builder, loc, none,
            tensor::EmptyOp::create(builder, loc, ArrayRef<int64_t>{}, i64)
                .getResult())
            .getResult(0);
    SmallVector<AffineMap> maps = {
        builder.getMultiDimIdentityMap(rank),
        AffineMap::get(rank, 0, {}, builder.getContext())};
    Value localKey =
        linalg::GenericOp::create(
            builder, loc, TypeRange{keyInit.getType()}, ValueRange{indices},
            ValueRange{keyInit}, maps,
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::reduction),
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
                  arith::MinSIOp::create(b, nl, args[1], candidate)
                      .getResult());
            })
            .getResult(0);
    Value key = allReduceScalar(
        builder, loc,
        tensor::ExtractOp::create(builder, loc, localKey, ValueRange{}),
        gridName, usedAxes, ReductionKind::Min);
    Value bad = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                      key, none);
    RuntimeReporter reporter(op->getParentOfType<ModuleOp>(), op->getLoc());
    scf::IfOp::create(builder, loc, bad, [&](OpBuilder &b, Location nl) {
      // The global coordinates of `key`; the process whose slab holds them
      // contributes the value.
      Value rest = arith::IndexCastOp::create(b, nl, b.getIndexType(), key);
      SmallVector<Value> coordinates(rank), localCoordinates(rank);
      Value owns = arith::ConstantIntOp::create(b, nl, 1, 1);
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
                                createI64Constant(ab, al, getAxis(op)),
                                arith::IndexCastOp::create(
                                    ab, al, ab.getI64Type(), axisSize)};
                      });
      scf::YieldOp::create(b, nl);
    });
  }
};

} // namespace

Value ONNX::getSumIdentity(OpBuilder &b, Location loc, Type elementType) {
  // All-zero bits, read from a 1-element constant (no scalar constant
  // exists for unsigned or complex types).
  auto complex = dyn_cast<ComplexType>(elementType);
  unsigned bits = complex ? 2 * complex.getElementType().getIntOrFloatBitWidth()
                          : elementType.getIntOrFloatBitWidth();
  SmallVector<char> bytes((bits + 7) / 8, 0);
  auto oneType = RankedTensorType::get({1}, elementType);
  Value one = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::getFromRawBuffer(oneType, bytes));
  return tensor::ExtractOp::create(
      b, loc, one, ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
}

Value ONNX::createBitExactAllReduce(OpBuilder &builder, Location loc,
                                    Value value, StringRef grid,
                                    ArrayRef<GridAxis> gridAxes) {
  auto allReduce = AllReduceOp::create(builder, loc, value, grid, gridAxes,
                                       ReductionKind::Sum);
  allReduce->setAttr(kBitExactSumAttrName, builder.getUnitAttr());
  return allReduce.getResult();
}

LogicalResult ONNX::verifyShardableData(const GatherElementsView &gather) {
  auto type = dyn_cast<ShapedType>(gather.data.getType());
  Type elementType = type ? type.getElementType() : Type();
  auto complex = dyn_cast_or_null<ComplexType>(elementType);
  if (elementType && (isa<IntegerType, FloatType>(elementType) ||
                      (complex && isa<FloatType>(complex.getElementType()))))
    return success();
  InFlightDiagnostic diag =
      gather.op->emitOpError("cannot be sharded over processes: 'data' holds ");
  if (isa_and_nonnull<ONNX::StringType>(elementType))
    return diag << "!onnx.string elements, which point into one process's "
                   "memory";
  return diag << elementType
              << " elements; only integers, floats and complex numbers can be "
                 "sent to other processes";
}

namespace {
/// Attaches the sharding model to the registered op named
/// onnx.GatherElements once a dialect named `onnx` is loaded: gather's, or
/// another project's (onnx-mlir's) registered in its place. (An extension
/// on gather's dialect class would miss the other.)
class GatherElementsShardingExtension : public DialectExtensionBase {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GatherElementsShardingExtension)

  GatherElementsShardingExtension() : DialectExtensionBase({"onnx"}) {}

  void apply(MLIRContext *context, MutableArrayRef<Dialect *>) const final {
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup(ONNX::kGatherElementsOpName, context);
    if (!name || name->hasInterface<ShardingInterface>())
      return;
    name->attachInterface<GatherElementsShardingModel>();
    // What partition() creates: shard-partition cannot declare it.
    context->loadDialect<
        arith::ArithDialect, complex::ComplexDialect, func::FuncDialect,
        linalg::LinalgDialect, LLVM::LLVMDialect, memref::MemRefDialect,
        scf::SCFDialect, ShardDialect, tensor::TensorDialect>();
  }

  std::unique_ptr<DialectExtensionBase> clone() const final {
    return std::make_unique<GatherElementsShardingExtension>(*this);
  }
};
} // namespace

void ONNX::registerShardingInterfaceExternalModels(DialectRegistry &registry) {
  registry.addExtensions<GatherElementsShardingExtension>();
  ONNX::registerMPIAllReduceMemoryEffects(registry);
}
