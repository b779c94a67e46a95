//===- TileAndVectorizeGathers.cpp - Threads and vectors for gathers ------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// Implements `linalg-tile-and-vectorize-gathers` (see Passes.td) with the
// upstream tiling (scf::tileUsingSCF, TilingInterface) and vectorization
// (linalg::vectorize with vectorizeNDExtract) entry points, followed by the
// vector and tensor cleanup patterns that make every transfer 1-D.
//
//===----------------------------------------------------------------------===//

#include "gather/Support/CheckedSize.h"
#include "gather/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace gather {
#define GEN_PASS_DEF_TILEANDVECTORIZEGATHERSPASS
#include "gather/Transforms/Passes.h.inc"
} // namespace gather

using namespace mlir;

namespace {

/// Whether `op` has the form convert-onnx-to-linalg gives a gather: ranked
/// tensors, all-parallel, one input and one output with identity maps, and
/// one tensor.extract (the read of `data`) in its body.
bool isGatherLike(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() == 0 ||
      op.getNumLoops() != op.getNumParallelLoops())
    return false;
  if (!llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  auto extracts = op.getBody()->getOps<tensor::ExtractOp>();
  return std::distance(extracts.begin(), extracts.end()) == 1;
}

/// The index check convert-onnx-to-linalg emits with `gather`: a
/// linalg.generic after it in the same block, before any other gather, that
/// reduces the same `indices` (identity map, all iterators reductions) into
/// a tensor<i1> with an `arith.ori` of its accumulator. Nothing between the
/// two uses the gather's result (the fused loop replaces both at the
/// check). Null if there is none.
linalg::GenericOp findIndexCheck(linalg::GenericOp gather) {
  int64_t rank = gather.getNumLoops();
  Value indices = gather.getDpsInputs()[0];
  Block *block = gather->getBlock();
  for (Operation *op = gather->getNextNode(); op; op = op->getNextNode()) {
    auto check = dyn_cast<linalg::GenericOp>(op);
    if (!check)
      continue;
    if (isGatherLike(check))
      return nullptr;
    if (!check.hasPureTensorSemantics() || check.getNumDpsInputs() != 1 ||
        check.getDpsInputs()[0] != indices || check.getNumDpsInits() != 1 ||
        check.getNumLoops() != rank || check.getNumReductionLoops() != rank ||
        check.getDpsInits()[0].getType() !=
            RankedTensorType::get({}, IntegerType::get(op->getContext(), 1)))
      continue;
    SmallVector<AffineMap> maps = check.getIndexingMapsArray();
    auto yield = cast<linalg::YieldOp>(check.getBody()->getTerminator());
    auto ori = yield.getValues().front().getDefiningOp<arith::OrIOp>();
    Value accumulator = check.getBody()->getArgument(1);
    if (maps[0].isIdentity() && maps[1].getNumResults() == 0 && ori &&
        (ori.getLhs() == accumulator || ori.getRhs() == accumulator) &&
        llvm::hasSingleElement(accumulator.getUses()) &&
        check.getBody()->getOps<linalg::IndexOp>().empty()) {
      bool usedBefore = llvm::any_of(gather->getUsers(), [&](Operation *user) {
        Operation *ancestor = block->findAncestorOpInBlock(*user);
        return !ancestor || ancestor->isBeforeInBlock(check);
      });
      return usedBefore ? nullptr : check;
    }
  }
  return nullptr;
}

/// Whether the buffer of tensor `value` is surely contiguous and row-major
/// once bufferized. vector.gather linearizes its offsets with the tensor's
/// shape, so it must not read a strided buffer (a slice, a memref with a
/// strided layout). Function arguments are contiguous under the pipeline's
/// identity-layout-map function boundaries; anything unsure is not.
bool isSurelyContiguous(Value value, int depth = 0) {
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
    return isSurelyContiguous(cast.getSource(), depth + 1);
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return isSurelyContiguous(collapse.getSrc(), depth + 1);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return isSurelyContiguous(expand.getSrc(), depth + 1);
  // Destination-style ops write into (the buffer of) their init.
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
    return isSurelyContiguous(
        dps.getDpsInits()[cast<OpResult>(value).getResultNumber()], depth + 1);
  return false;
}

/// The tensor a gather-like generic reads with tensor.extract (`data`).
Value getGatheredTensor(linalg::GenericOp gather) {
  return (*gather.getBody()->getOps<tensor::ExtractOp>().begin()).getTensor();
}

/// Whether vector.gather can implement `gather`: a contiguous row-major
/// `data`, and whole-byte integer or float elements (not complex numbers or
/// strings, which are no vector elements, nor i1: a vector.gather of i1
/// from i1 buffers, stored one byte per element, reads wrong values).
bool canVectorize(linalg::GenericOp gather) {
  if (!isSurelyContiguous(getGatheredTensor(gather)))
    return false;
  return llvm::all_of(gather->getOperandTypes(), [](Type type) {
    Type element = getElementTypeOrSelf(type);
    return VectorType::isValidElementType(element) &&
           (element.isIndex() || (element.isIntOrFloat() &&
                                  element.getIntOrFloatBitWidth() % 8 == 0));
  });
}

/// Larger vectors only slow compilation down (vector ops are unrolled to the
/// target's width).
constexpr int64_t kMaxVectorSize = 256;

/// Whether the ops of `body` (a gather's or its check's) can be computed on
/// vectors: linalg.index, scalar constants, the read of `data`
/// (tensor.extract of a tensor defined outside the body) and elementwise ops
/// on scalars.
bool isVectorizableBody(Block *body) {
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

/// Bytes of one cache line, for the prefetches: 64 on x86-64 and on most
/// other CPUs. (LLVM's X86 TargetTransformInfo::getCacheLineSize and
/// getPrefetchDistance return 0, "unknown", for every x86 CPU.)
constexpr int64_t kCacheLineBytes = 64;

/// Gathers whose `data` and `indices` hold fewer bytes than this (statically)
/// get no prefetches: they stay in the L1 data cache (32 KiB on the x86 CPUs
/// LLVM models, TargetTransformInfo::getCacheSize(L1D)).
constexpr int64_t kPrefetchMinBytes = 32 * 1024;

/// Bytes of one element of `type` (whole-byte integers and floats, index).
int64_t getElementBytes(Type type) {
  return type.isIndex() ? 8 : type.getIntOrFloatBitWidth() / 8;
}

/// Whether the loops of `gather` prefetch (RowPrefetcher): `distance` > 0,
/// rank >= 2, the gathered axis is the innermost dimension (the last
/// coordinate of the read of `data` is not linalg.index of the innermost
/// loop), `data` and `indices` are surely contiguous with whole-byte
/// elements, a row of `data` is at least one cache line (or dynamic), and
/// `data` plus `indices` are not statically smaller than kPrefetchMinBytes.
/// Measured (docs/CodeShape.md): rows along the innermost axis of 64 bytes
/// and more gain up to 2x; gathers along another axis (rows of `data`
/// chosen by the index values) gain nothing from prefetches of the index
/// values and lose up to 2x with prefetches of the chosen lines.
bool shouldPrefetch(linalg::GenericOp gather, int64_t distance) {
  if (distance <= 0 || gather.getNumLoops() < 2 || !canVectorize(gather) ||
      !isSurelyContiguous(gather.getDpsInputs()[0]))
    return false;
  int64_t rank = gather.getNumLoops();
  tensor::ExtractOp extract =
      *gather.getBody()->getOps<tensor::ExtractOp>().begin();
  auto last = extract.getIndices().back().getDefiningOp<linalg::IndexOp>();
  if (last && static_cast<int64_t>(last.getDim()) == rank - 1)
    return false;
  auto dataType = cast<RankedTensorType>(extract.getTensor().getType());
  auto indicesType = cast<RankedTensorType>(gather.getDpsInputs()[0].getType());
  int64_t dataBytes = getElementBytes(dataType.getElementType());
  int64_t rowSize = dataType.getShape().back();
  if (!ShapedType::isDynamic(rowSize) &&
      rowSize < llvm::divideCeilSigned(kCacheLineBytes, dataBytes))
    return false;
  if (!dataType.hasStaticShape() || !indicesType.hasStaticShape())
    return true;
  // Sizes beyond int64_t (types that no buffer can have) count as large.
  std::optional<int64_t> dataTotal =
      gather::getCheckedNumElements(dataType.getShape(), dataBytes);
  std::optional<int64_t> indicesTotal = gather::getCheckedNumElements(
      indicesType.getShape(), getElementBytes(indicesType.getElementType()));
  return !dataTotal || !indicesTotal || *dataTotal >= kPrefetchMinBytes ||
         *indicesTotal >= kPrefetchMinBytes - *dataTotal;
}

/// Software prefetches for the row loops of a gather along its innermost
/// axis (shouldPrefetch). `data` row i is read in the order of the index
/// values, so its lines miss in an order no hardware prefetcher predicts;
/// `indices` is a stream, but one the hardware prefetchers (busy with the
/// random reads) do not run far enough ahead on. The loop over row i at
/// element j therefore prefetches (into all cache levels, locality 3)
///
///   - the line of `data` at row i + D, element j, where D is the fewest
///     rows of `data` that span `distance` bytes (one row for rows of
///     `distance` bytes or more): the row a few rows later reads;
///   - the line of `indices` `distance` bytes after element j of row i
///     (in row-major order, so across rows).
///
/// Both addresses are taken on the buffers viewed as 1-D and clamped to
/// their last element: a prefetch never points outside its buffer. Vector
/// iterations prefetch every line their elements span; scalar loops
/// prefetch once per line of index values (an scf.if on the element
/// number).
class RowPrefetcher {
public:
  /// Views `data` and `indices` of `gather` (surely contiguous) as 1-D
  /// memrefs (bufferization.to_buffer read_only, memref.collapse_shape) and
  /// computes the distances, at the insertion point of `b` (before the
  /// loops).
  RowPrefetcher(OpBuilder &b, Location loc, linalg::GenericOp gather,
                int64_t distance)
      : loc(loc) {
    Value indicesTensor = gather.getDpsInputs()[0];
    Value dataTensor = getGatheredTensor(gather);
    auto flatten = [&](Value tensor, SmallVector<Value> &strides, Value &last) {
      auto type = cast<RankedTensorType>(tensor.getType());
      Value buffer = bufferization::ToBufferOp::create(
          b, loc, MemRefType::get(type.getShape(), type.getElementType()),
          tensor, /*read_only=*/true);
      SmallVector<Value> sizes;
      for (int64_t d = 0; d < type.getRank(); ++d)
        sizes.push_back(
            type.isDynamicDim(d)
                ? tensor::DimOp::create(b, loc, tensor, d).getResult()
                : arith::ConstantIndexOp::create(b, loc, type.getDimSize(d))
                      .getResult());
      strides.assign(type.getRank(), arith::ConstantIndexOp::create(b, loc, 1));
      for (int64_t d = type.getRank() - 2; d >= 0; --d)
        strides[d] =
            arith::MulIOp::create(b, loc, strides[d + 1], sizes[d + 1]);
      Value count = arith::MulIOp::create(b, loc, strides[0], sizes[0]);
      last = arith::SubIOp::create(b, loc, count,
                                   arith::ConstantIndexOp::create(b, loc, 1));
      ReassociationIndices all =
          llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
      return memref::CollapseShapeOp::create(
                 b, loc, buffer, ArrayRef<ReassociationIndices>{all})
          .getResult();
    };
    data = flatten(dataTensor, dataStrides, dataLast);
    indices = flatten(indicesTensor, indicesStrides, indicesLast);
    dataBytes = getElementBytes(getElementTypeOrSelf(dataTensor.getType()));
    indexBytes = getElementBytes(getElementTypeOrSelf(indicesTensor.getType()));
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

  /// Prefetches for `count` elements of the row at `outer` (coordinates
  /// before the innermost one) from element `position` on: every line they
  /// span.
  void emitForElements(OpBuilder &b, ArrayRef<Value> outer, Value position,
                       int64_t count) {
    emitLines(b, data, linearize(b, dataStrides, outer, position), dataAhead,
              dataLast, count * dataBytes, dataBytes);
    emitLines(b, indices, linearize(b, indicesStrides, outer, position),
              indicesAhead, indicesLast, count * indexBytes, indexBytes);
  }

  /// For a scalar loop: emitForElements for one line of index values, at
  /// the elements whose number `position` is a multiple of it.
  void emitForScalar(OpBuilder &b, ArrayRef<Value> outer, Value position) {
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

private:
  /// The row-major position of (outer..., position).
  Value linearize(OpBuilder &b, ArrayRef<Value> strides, ArrayRef<Value> outer,
                  Value position) {
    Value linear = position;
    for (auto [coordinate, stride] : llvm::zip(outer, strides))
      linear = arith::AddIOp::create(
          b, loc, linear, arith::MulIOp::create(b, loc, coordinate, stride));
    return linear;
  }

  /// One prefetch per cache line of `bytes` bytes from element
  /// `linear` + `ahead` of the 1-D `buffer`, each clamped to `last`.
  void emitLines(OpBuilder &b, Value buffer, Value linear, Value ahead,
                 Value last, int64_t bytes, int64_t elementBytes) {
    Value target = arith::AddIOp::create(b, loc, linear, ahead);
    int64_t lineElements = std::max<int64_t>(1, kCacheLineBytes / elementBytes);
    for (int64_t offset = 0; offset * elementBytes < bytes;
         offset += lineElements) {
      Value at = offset == 0
                     ? target
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

  Location loc;
  Value data, indices;
  SmallVector<Value> dataStrides, indicesStrides;
  Value dataLast, indicesLast, dataAhead, indicesAhead;
  int64_t dataBytes, indexBytes;
};

/// Builds the loops of one gather and, if any, of its index check, fused:
/// every element of `indices` is read once, by the iteration that gathers
/// with it, and that iteration also ORs "out of range" into a loop-carried
/// i1 (a vector<Nxi1> in vectorized loops, reduced once per row). The
/// element computations are the bodies of the two generics: cloned for
/// scalar iterations, computed on vectors (the read of `data` as one
/// vector.gather) for vector iterations.
class FusedGatherBuilder {
public:
  FusedGatherBuilder(OpBuilder &b, Location loc, linalg::GenericOp gather,
                     linalg::GenericOp check, int64_t vectorSize,
                     RowPrefetcher *prefetcher)
      : loc(loc), gather(gather), check(check), vectorSize(vectorSize),
        prefetcher(prefetcher) {
    indices = gather.getDpsInputs()[0];
    data = getGatheredTensor(gather);
    resultType = cast<RankedTensorType>(gather.getResult(0).getType());
    rank = resultType.getRank();
    zero = arith::ConstantIndexOp::create(b, loc, 0);
    one = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(getSize(b, indices, d));
    if (vectorSize == 0)
      return;
    // Strides of `data` (contiguous, row-major), in elements.
    strides.assign(rank, one);
    for (int64_t d = rank - 2; d >= 0; --d)
      strides[d] = arith::MulIOp::create(b, loc, strides[d + 1],
                                         getSize(b, data, d + 1));
  }

  /// Sizes of `indices`, as index values.
  ArrayRef<Value> getSizes() const { return sizes; }

  /// Serial loops over the rows (scf.for), writing into `init`; `accumulator`
  /// (null without check) is the initial "out of range". Returns the result
  /// and the final "out of range" (null without check).
  std::pair<Value, Value> buildSerial(OpBuilder &b, Value init,
                                      Value accumulator) {
    SmallVector<Value> outer;
    return buildSerialLevel(b, 0, outer, init, accumulator);
  }

  /// Threads: one scf.forall over the rows (chunks of `chunk` elements for
  /// rank 1), writing into `init`. A row that finds a value out of range
  /// sets `flag` (a memref<i8>, zeroed here) with an atomic or; returns the
  /// result and "any out of range" (null without check).
  std::pair<Value, Value> buildThreaded(OpBuilder &b, Value init, Value flag,
                                        int64_t chunk) {
    if (check)
      memref::StoreOp::create(b, loc,
                              arith::ConstantIntOp::create(b, loc, 0, 8), flag,
                              ValueRange{});
    scf::ForallOp forall;
    if (rank == 1) {
      forall = scf::ForallOp::create(
          b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{getAsOpFoldResult(sizes[0])},
          ArrayRef<OpFoldResult>{b.getIndexAttr(chunk)}, ValueRange{init},
          std::nullopt);
    } else {
      SmallVector<OpFoldResult> upperBounds;
      for (int64_t d = 0; d + 1 < rank; ++d)
        upperBounds.push_back(getAsOpFoldResult(sizes[d]));
      forall = scf::ForallOp::create(b, loc, upperBounds, ValueRange{init},
                                     std::nullopt);
    }
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forall.getTerminator());
    Value shared = forall.getRegionIterArgs()[0];
    SmallVector<Value> outer, offsets;
    Value start = zero, length = sizes[rank - 1];
    if (rank == 1) {
      start = forall.getInductionVars()[0];
      length = arith::MinSIOp::create(
          b, loc, arith::ConstantIndexOp::create(b, loc, chunk),
          arith::SubIOp::create(b, loc, sizes[0], start));
    } else {
      outer = llvm::to_vector(forall.getInductionVars());
    }
    offsets = outer;
    offsets.push_back(start);
    SmallVector<OpFoldResult> sliceSizes(rank - 1, b.getIndexAttr(1));
    sliceSizes.push_back(getAsOpFoldResult(length));
    SmallVector<OpFoldResult> unitStrides(rank, b.getIndexAttr(1));
    std::optional<int64_t> staticLength = getConstantIntValue(length);
    auto rowType = RankedTensorType::get(
        {staticLength ? *staticLength : ShapedType::kDynamic},
        resultType.getElementType());
    Value row = tensor::ExtractSliceOp::create(b, loc, rowType, shared,
                                               getAsOpFoldResult(offsets),
                                               sliceSizes, unitStrides);
    Value noneYet =
        check ? arith::ConstantIntOp::create(b, loc, 0, 1) : Value();
    auto [newRow, bad] = buildRow(b, outer, start, length, row, {}, noneYet);
    if (check) {
      scf::IfOp::create(b, loc, bad, [&](OpBuilder &nb, Location nl) {
        memref::AtomicRMWOp::create(nb, nl, arith::AtomicRMWKind::ori,
                                    arith::ConstantIntOp::create(nb, nl, 1, 8),
                                    flag, ValueRange{});
        scf::YieldOp::create(nb, nl);
      });
    }
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, newRow, shared,
                                          getAsOpFoldResult(offsets),
                                          sliceSizes, unitStrides);
    b.setInsertionPointAfter(forall);
    Value any;
    if (check) {
      Value flagValue = memref::LoadOp::create(b, loc, flag, ValueRange{});
      any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, flagValue,
                                  arith::ConstantIntOp::create(b, loc, 0, 8));
    }
    return {forall.getResult(0), any};
  }

private:
  /// A value of a vector iteration: the same for every lane (`Uniform`, a
  /// scalar), one per lane (`Varying`, a vector), or the lane's position
  /// along the innermost dimension (`Innermost`: the scalar is lane 0's).
  struct LaneValue {
    enum class Kind { Uniform, Varying, Innermost } kind;
    Value value;
  };

  Value getSize(OpBuilder &b, Value tensor, int64_t d) {
    auto type = cast<RankedTensorType>(tensor.getType());
    if (!type.isDynamicDim(d))
      return arith::ConstantIndexOp::create(b, loc, type.getDimSize(d));
    return tensor::DimOp::create(b, loc, tensor, d);
  }

  std::pair<Value, Value> buildSerialLevel(OpBuilder &b, int64_t d,
                                           SmallVector<Value> &outer, Value out,
                                           Value accumulator) {
    if (d + 1 >= rank)
      return buildRow(b, outer, zero, sizes[rank - 1], out, outer, accumulator);
    SmallVector<Value> iterArgs = {out};
    if (accumulator)
      iterArgs.push_back(accumulator);
    auto loop = scf::ForOp::create(
        b, loc, zero, sizes[d], one, iterArgs,
        [&](OpBuilder &lb, Location, Value iv, ValueRange args) {
          outer.push_back(iv);
          auto [newOut, newAccumulator] = buildSerialLevel(
              lb, d + 1, outer, args[0], accumulator ? args[1] : Value());
          outer.pop_back();
          SmallVector<Value> yielded = {newOut};
          if (newAccumulator)
            yielded.push_back(newAccumulator);
          scf::YieldOp::create(lb, loc, yielded);
        });
    return {loop.getResult(0), accumulator ? loop.getResult(1) : Value()};
  }

  /// Elements [start, start + length) of the row at `outer` (the
  /// coordinates before the innermost one) into `out` at
  /// [outPrefix..., 0 .. length): vectors of vectorSize, then scalars for
  /// the rest.
  std::pair<Value, Value> buildRow(OpBuilder &b, ArrayRef<Value> outer,
                                   Value start, Value length, Value out,
                                   ArrayRef<Value> outPrefix,
                                   Value accumulator) {
    Value lower = zero;
    std::optional<int64_t> staticLength = getConstantIntValue(length);
    if (vectorSize > 1 && (!staticLength || *staticLength >= vectorSize)) {
      Value vectorEnd;
      if (staticLength) {
        vectorEnd = arith::ConstantIndexOp::create(
            b, loc, *staticLength - *staticLength % vectorSize);
      } else {
        Value step = arith::ConstantIndexOp::create(b, loc, vectorSize);
        vectorEnd = arith::SubIOp::create(
            b, loc, length, arith::RemUIOp::create(b, loc, length, step));
      }
      auto flagsType = VectorType::get({vectorSize}, b.getI1Type());
      SmallVector<Value> iterArgs = {out};
      if (accumulator)
        iterArgs.push_back(arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(flagsType, false)));
      auto loop = scf::ForOp::create(
          b, loc, zero, vectorEnd,
          arith::ConstantIndexOp::create(b, loc, vectorSize), iterArgs,
          [&](OpBuilder &lb, Location, Value position, ValueRange args) {
            SmallVector<Value> yielded = buildVectorIteration(
                lb, outer, arith::AddIOp::create(lb, loc, start, position),
                position, args[0], outPrefix, accumulator ? args[1] : Value());
            scf::YieldOp::create(lb, loc, yielded);
          });
      out = loop.getResult(0);
      if (accumulator)
        accumulator = arith::OrIOp::create(
            b, loc, accumulator,
            vector::ReductionOp::create(b, loc, vector::CombiningKind::OR,
                                        loop.getResult(1)));
      if (staticLength && *staticLength % vectorSize == 0)
        return {out, accumulator};
      lower = vectorEnd;
    }
    SmallVector<Value> iterArgs = {out};
    if (accumulator)
      iterArgs.push_back(accumulator);
    auto loop = scf::ForOp::create(
        b, loc, lower, length, one, iterArgs,
        [&](OpBuilder &lb, Location, Value position, ValueRange args) {
          SmallVector<Value> yielded = buildScalarIteration(
              lb, outer, arith::AddIOp::create(lb, loc, start, position),
              position, args[0], outPrefix, accumulator ? args[1] : Value());
          scf::YieldOp::create(lb, loc, yielded);
        });
    return {loop.getResult(0), accumulator ? loop.getResult(1) : Value()};
  }

  /// One element: the gather's body, then the check's on the same index
  /// value.
  SmallVector<Value> buildScalarIteration(OpBuilder &b, ArrayRef<Value> outer,
                                          Value position, Value outPosition,
                                          Value out, ArrayRef<Value> outPrefix,
                                          Value accumulator) {
    if (prefetcher && vectorSize == 0)
      prefetcher->emitForScalar(b, outer, position);
    SmallVector<Value> coordinates(outer);
    coordinates.push_back(position);
    Value index = tensor::ExtractOp::create(b, loc, indices, coordinates);
    Value element = cloneBody(b, gather.getBody(), {index}, coordinates);
    SmallVector<Value> outCoordinates(outPrefix);
    outCoordinates.push_back(outPosition);
    SmallVector<Value> results = {
        tensor::InsertOp::create(b, loc, element, out, outCoordinates)};
    if (accumulator)
      results.push_back(
          cloneBody(b, check.getBody(), {index, accumulator}, coordinates));
    return results;
  }

  /// The ops of `body` with its arguments replaced by `arguments` and
  /// linalg.index d by `coordinates[d]`; returns the yielded value.
  Value cloneBody(OpBuilder &b, Block *body, ValueRange arguments,
                  ArrayRef<Value> coordinates) {
    IRMapping mapping;
    mapping.map(body->getArguments().take_front(arguments.size()), arguments);
    for (Operation &op : body->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(op))
        mapping.map(index.getResult(), coordinates[index.getDim()]);
      else
        b.clone(op, mapping);
    }
    return mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
  }

  /// vectorSize elements: one read of the index values (a
  /// vector.transfer_read), the gather's body on vectors, the check's body
  /// on the same vector of index values.
  SmallVector<Value> buildVectorIteration(OpBuilder &b, ArrayRef<Value> outer,
                                          Value position, Value outPosition,
                                          Value out, ArrayRef<Value> outPrefix,
                                          Value accumulator) {
    if (prefetcher)
      prefetcher->emitForElements(b, outer, position, vectorSize);
    SmallVector<Value> coordinates(outer);
    coordinates.push_back(position);
    Type indexType = getElementTypeOrSelf(indices.getType());
    Value padding = arith::ConstantOp::create(b, loc, b.getZeroAttr(indexType));
    Value index = vector::TransferReadOp::create(
        b, loc, VectorType::get({vectorSize}, indexType), indices, coordinates,
        padding, ArrayRef<bool>{true});
    LaneValue indexLanes = {LaneValue::Kind::Varying, index};
    Value element =
        vectorizeBody(b, gather.getBody(), {indexLanes}, outer, position);
    SmallVector<Value> outCoordinates(outPrefix);
    outCoordinates.push_back(outPosition);
    SmallVector<Value> results = {
        vector::TransferWriteOp::create(b, loc, element, out, outCoordinates,
                                        ArrayRef<bool>{true})
            .getResult()};
    if (accumulator)
      results.push_back(
          vectorizeBody(b, check.getBody(),
                        {indexLanes, {LaneValue::Kind::Varying, accumulator}},
                        outer, position));
    return results;
  }

  /// The ops of `body` (isVectorizableBody) on vectorSize lanes; returns the
  /// yielded value as a vector.
  Value vectorizeBody(OpBuilder &b, Block *body, ArrayRef<LaneValue> arguments,
                      ArrayRef<Value> outer, Value position) {
    DenseMap<Value, LaneValue> values;
    for (auto [argument, value] : llvm::zip(body->getArguments(), arguments))
      values[argument] = value;
    auto lookup = [&](Value value) -> LaneValue {
      auto it = values.find(value);
      return it != values.end() ? it->second
                                : LaneValue{LaneValue::Kind::Uniform, value};
    };
    Value lanes; // The lane numbers, built on first use.
    auto getLanes = [&]() {
      if (!lanes)
        lanes = vector::StepOp::create(
            b, loc, VectorType::get({vectorSize}, b.getIndexType()));
      return lanes;
    };
    auto toVector = [&](LaneValue value) -> Value {
      if (value.kind == LaneValue::Kind::Varying)
        return value.value;
      auto type = VectorType::get({vectorSize}, value.value.getType());
      Value broadcast = vector::BroadcastOp::create(b, loc, type, value.value);
      if (value.kind == LaneValue::Kind::Uniform)
        return broadcast;
      return arith::AddIOp::create(b, loc, broadcast, getLanes());
    };
    for (Operation &op : body->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(op)) {
        int64_t d = index.getDim();
        values[index.getResult()] =
            d + 1 < rank ? LaneValue{LaneValue::Kind::Uniform, outer[d]}
                         : LaneValue{LaneValue::Kind::Innermost, position};
        continue;
      }
      if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
        values[extract.getResult()] = {
            LaneValue::Kind::Varying,
            buildGather(b, extract, lookup, getLanes)};
        continue;
      }
      bool uniform = llvm::all_of(op.getOperands(), [&](Value operand) {
        return lookup(operand).kind == LaneValue::Kind::Uniform;
      });
      IRMapping mapping;
      for (Value operand : op.getOperands())
        mapping.map(operand, uniform ? lookup(operand).value
                                     : toVector(lookup(operand)));
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

  /// The read of `data` on vectorSize lanes: one vector.gather whose base
  /// holds the coordinates equal in all lanes and whose offsets the others,
  /// linearized with the strides of `data`.
  template <typename Lookup, typename GetLanes>
  Value buildGather(OpBuilder &b, tensor::ExtractOp extract, Lookup lookup,
                    GetLanes getLanes) {
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
      case LaneValue::Kind::Innermost:
        base.push_back(value.value);
        addOffsets(getLanes(), d);
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

  Location loc;
  linalg::GenericOp gather, check;
  int64_t vectorSize;
  RowPrefetcher *prefetcher; // Null: no prefetches.
  Value indices, data, zero, one;
  RankedTensorType resultType;
  int64_t rank;
  SmallVector<Value> sizes, strides;
};

struct TileAndVectorizeGathersPass
    : public gather::impl::TileAndVectorizeGathersPassBase<
          TileAndVectorizeGathersPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    if (vectorSize < 0 || vectorSize > kMaxVectorSize ||
        parallelThreshold < 0 || parallelChunk < 1)
      return emitError(UnknownLoc::get(context),
                       "linalg-tile-and-vectorize-gathers: vector-size must "
                       "be in [0, ")
             << kMaxVectorSize
             << "], parallel-threshold >= 0 and parallel-chunk >= 1";
    if (prefetchDistance < 0)
      return emitError(UnknownLoc::get(context),
                       "linalg-tile-and-vectorize-gathers: prefetch-distance "
                       "must be >= 0 (bytes; 0: no prefetches)");
    return success();
  }

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> gathers;
    getOperation().walk([&](linalg::GenericOp op) {
      if (isGatherLike(op))
        gathers.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp gather : gathers)
      lowerGather(rewriter, gather);
  }

  /// Replaces `gather` (and its index check) by loops, unless a single
  /// loop nest of convert-linalg-to-loops would do (no check, no threads,
  /// no vectors).
  void lowerGather(RewriterBase &rewriter, linalg::GenericOp gather) {
    int64_t rank = gather.getNumLoops();
    SmallVector<int64_t> ranges = gather.getStaticLoopRanges();
    if (gather::hasZeroSize(ranges) ||
        !gather.getBody()->getArgument(1).use_empty())
      return;
    bool isStatic = !llvm::any_of(ranges, ShapedType::isDynamic);
    // (Counted without wrap-around; a count beyond int64_t is large.)
    int64_t numElements = gather::getCheckedNumElements(ranges).value_or(
        std::numeric_limits<int64_t>::max());
    linalg::GenericOp check = findIndexCheck(gather);
    int64_t innermost = ranges.back();
    bool vectorize =
        vectorSize > 1 &&
        (ShapedType::isDynamic(innermost) || innermost >= vectorSize) &&
        canVectorize(gather) && isVectorizableBody(gather.getBody()) &&
        (!check || isVectorizableBody(check.getBody()));
    // Threads: rows (chunks of parallelChunk for rank 1) in parallel, unless
    // already inside a parallel loop or a static shape has a single row or
    // too few elements; decided at run time for dynamic shapes.
    Operation *allocationScope =
        gather->getParentWithTrait<OpTrait::AutomaticAllocationScope>();
    int64_t rowSize = rank == 1 ? parallelChunk : innermost;
    bool threads = parallel && allocationScope &&
                   !gather->getParentOfType<scf::ForallOp>() &&
                   !gather->getParentOfType<scf::ParallelOp>() &&
                   (!isStatic || (numElements >= parallelThreshold &&
                                  llvm::divideCeil(numElements, rowSize) > 1));
    bool prefetch = shouldPrefetch(gather, prefetchDistance);
    if (!check && !threads && !vectorize && !prefetch)
      return;

    Location loc = gather.getLoc();
    rewriter.setInsertionPoint(check ? check : gather);
    std::optional<RowPrefetcher> prefetcher;
    if (prefetch)
      prefetcher.emplace(rewriter, loc, gather, prefetchDistance);
    FusedGatherBuilder builder(rewriter, loc, gather, check,
                               vectorize ? vectorSize : 0,
                               prefetcher ? &*prefetcher : nullptr);
    Value init = gather.getDpsInits()[0];
    Value accumulator;
    if (check)
      accumulator = tensor::ExtractOp::create(
          rewriter, loc, check.getDpsInits()[0], ValueRange{});
    Value flag;
    if (threads && check) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&allocationScope->getRegion(0).front());
      flag = memref::AllocaOp::create(
          rewriter, loc, MemRefType::get({}, rewriter.getI8Type()));
    }
    auto threaded = [&](OpBuilder &b) {
      auto [result, any] = builder.buildThreaded(b, init, flag, parallelChunk);
      SmallVector<Value> values = {result};
      if (check)
        values.push_back(arith::OrIOp::create(b, loc, accumulator, any));
      return values;
    };
    auto serial = [&](OpBuilder &b) {
      auto [result, any] = builder.buildSerial(b, init, accumulator);
      SmallVector<Value> values = {result};
      if (check)
        values.push_back(any);
      return values;
    };
    SmallVector<Value> values;
    if (!threads) {
      values = serial(rewriter);
    } else if (isStatic) {
      values = threaded(rewriter);
    } else {
      // Threads only for enough elements (a dynamic count).
      Value count = builder.getSizes().front();
      for (Value size : builder.getSizes().drop_front())
        count = arith::MulIOp::create(rewriter, loc, count, size);
      Value enough = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::uge, count,
          arith::ConstantIndexOp::create(rewriter, loc, parallelThreshold));
      auto ifOp = scf::IfOp::create(
          rewriter, loc, enough,
          [&](OpBuilder &b, Location) {
            scf::YieldOp::create(b, loc, threaded(b));
          },
          [&](OpBuilder &b, Location) {
            scf::YieldOp::create(b, loc, serial(b));
          });
      values = ifOp.getResults();
    }
    if (check) {
      rewriter.replaceOp(check, tensor::FromElementsOp::create(
                                    rewriter, loc, check.getResultTypes(),
                                    ValueRange{values[1]}));
    }
    rewriter.replaceOp(gather, values[0]);
  }
};

} // namespace
