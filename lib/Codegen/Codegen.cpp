//===- Codegen.cpp - Threads and vectors for gathers ----------------------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// Implements `gather-codegen` (see Passes.td) with the
// upstream tiling (scf::tileUsingSCF, TilingInterface) and vectorization
// (linalg::vectorize with vectorizeNDExtract) entry points, followed by the
// vector and tensor cleanup patterns that make every transfer 1-D.
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/Passes.h"
#include "gather/Support/CheckedSize.h"

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

#include <limits>
#include <numeric>
#include <optional>

namespace gather {
#define GEN_PASS_DEF_CODEGENPASS
#include "gather/Codegen/Passes.h.inc"
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

/// Rows of L elements, L shorter than a vector of N (static), in groups of
/// R = N / gcd(L, N) consecutive rows: the G = R * L = K * N elements of a
/// group (contiguous in `indices` and in the result once the two innermost
/// dimensions are merged) are K whole vectors, K = L / gcd(L, N). Lane j of
/// vector k holds row (k * N + j) / L and column (k * N + j) % L of the
/// group: constants, so each vector is one contiguous read of index values,
/// a gather with per-lane row offsets and one contiguous store, with no
/// scalar rest per row (rows of 10 with N = 16: 8 rows as 5 vectors).
struct RowGroups {
  RowGroups(int64_t length, int64_t vectorSize)
      : length(length), rows(vectorSize / std::gcd(length, vectorSize)),
        vectors(length / std::gcd(length, vectorSize)) {}
  int64_t elements() const { return rows * length; }
  int64_t length, rows, vectors;
};

/// The most vectors of one group (K, unrolled in the loop body; at most 15
/// with vectors of 16).
constexpr int64_t kMaxVectorsPerGroup = 16;

/// Whether the rows of `gather` (vectorizable with `vectorSize`) can run in
/// groups: rank >= 2, a static innermost size L < `vectorSize`, at most
/// kMaxVectorsPerGroup vectors per group, at least one whole group of rows
/// (or a dynamic count), and `indices` and the result `init` surely
/// contiguous (their two innermost dimensions are merged).
bool canGroupRows(linalg::GenericOp gather, int64_t vectorSize) {
  SmallVector<int64_t> ranges = gather.getStaticLoopRanges();
  int64_t rank = ranges.size();
  if (rank < 2 || vectorSize <= 1 || ShapedType::isDynamic(ranges.back()) ||
      ranges.back() >= vectorSize)
    return false;
  RowGroups groups(ranges.back(), vectorSize);
  return groups.vectors <= kMaxVectorsPerGroup &&
         (ShapedType::isDynamic(ranges[rank - 2]) ||
          ranges[rank - 2] >= groups.rows) &&
         isSurelyContiguous(gather.getDpsInputs()[0]) &&
         isSurelyContiguous(gather.getDpsInits()[0]);
}

/// Builds the loops of one gather and, if any, of its index check, fused:
/// every element of `indices` is read once, by the iteration that gathers
/// with it, and that iteration also ORs "out of range" into a loop-carried
/// i1 (a vector<Nxi1> in vectorized loops, reduced once per row). The
/// element computations are the bodies of the two generics: cloned for
/// scalar iterations, computed on vectors (the read of `data` as one
/// vector.gather) for vector iterations.
class FusedGatherBuilder {
public:
  /// `vectorSize` 0: scalar loops. `groupRows`: rows shorter than
  /// `vectorSize` (static length) in groups (see RowGroups; the caller
  /// checked canGroupRows).
  /// `prefetcher` (null: none) adds its prefetches to the row loops.
  FusedGatherBuilder(OpBuilder &b, Location loc, linalg::GenericOp gather,
                     linalg::GenericOp check, int64_t vectorSize,
                     bool groupRows, RowPrefetcher *prefetcher)
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
    if (!groupRows)
      return;
    groups = RowGroups(resultType.getShape().back(), vectorSize);
    // `indices` with its two innermost dimensions merged: a group's index
    // values are contiguous.
    SmallVector<ReassociationIndices> reassociation;
    for (int64_t d = 0; d + 2 < rank; ++d)
      reassociation.push_back({d});
    reassociation.push_back({rank - 2, rank - 1});
    flatIndices =
        tensor::CollapseShapeOp::create(b, loc, indices, reassociation);
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
    if (groups) {
      // (The outer dimensions, the groups of rows.)
      SmallVector<OpFoldResult> upperBounds;
      for (int64_t d = 0; d + 2 < rank; ++d)
        upperBounds.push_back(getAsOpFoldResult(sizes[d]));
      upperBounds.push_back(getAsOpFoldResult(arith::CeilDivUIOp::create(
          b, loc, sizes[rank - 2],
          arith::ConstantIndexOp::create(b, loc, groups->rows))));
      forall = scf::ForallOp::create(b, loc, upperBounds, ValueRange{init},
                                     std::nullopt);
    } else if (rank == 1) {
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
    Value group, groupRows;
    if (groups) {
      // Group g: rows [g * R, min((g + 1) * R, B)), a slice of the shape
      // [rows, L].
      SmallVector<Value> ivs = forall.getInductionVars();
      outer.assign(ivs.begin(), ivs.end() - 1);
      group = ivs.back();
      Value firstRow = arith::MulIOp::create(
          b, loc, group, arith::ConstantIndexOp::create(b, loc, groups->rows));
      groupRows = arith::ConstantIndexOp::create(b, loc, groups->rows);
      std::optional<int64_t> rows = getConstantIntValue(sizes[rank - 2]);
      if (!rows || *rows % groups->rows != 0)
        groupRows = arith::MinSIOp::create(
            b, loc, groupRows,
            arith::SubIOp::create(b, loc, sizes[rank - 2], firstRow));
      outer.push_back(firstRow);
    } else if (rank == 1) {
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
    if (groups) {
      outer.pop_back();
      sliceSizes[rank - 2] = getAsOpFoldResult(groupRows);
    }
    SmallVector<OpFoldResult> unitStrides(rank, b.getIndexAttr(1));
    Value row = extractSlice(b, shared, offsets, sliceSizes, groups ? 2 : 1);
    Value noneYet =
        check ? arith::ConstantIntOp::create(b, loc, 0, 1) : Value();
    auto [newRow, bad] =
        groups ? buildGroupSlice(b, outer, group, row, groupRows, noneYet)
               : buildRow(b, outer, start, length, row, {}, noneYet);
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
  /// scalar), one per lane (`Varying`, a vector), or a scalar plus a
  /// constant per lane (`Stepped`: lane i holds value + lanes[i], `lanes` a
  /// constant vector of index; a coordinate along a row).
  struct LaneValue {
    enum class Kind { Uniform, Varying, Stepped } kind;
    Value value;
    Value lanes = {};
  };

  /// `value` + the lane number in each lane.
  LaneValue getLanePositions(OpBuilder &b, Value value) {
    return {LaneValue::Kind::Stepped, value,
            vector::StepOp::create(
                b, loc, VectorType::get({vectorSize}, b.getIndexType()))};
  }

  Value getSize(OpBuilder &b, Value tensor, int64_t d) {
    auto type = cast<RankedTensorType>(tensor.getType());
    if (!type.isDynamicDim(d))
      return arith::ConstantIndexOp::create(b, loc, type.getDimSize(d));
    return tensor::DimOp::create(b, loc, tensor, d);
  }

  /// An scf.for from `lower` to `upper` by `step` carrying `out` and, if
  /// not null, `accumulator`; `body(builder, iv, out, accumulator)` returns
  /// their next values. Returns their final values.
  template <typename Body>
  std::pair<Value, Value> buildLoop(OpBuilder &b, Value lower, Value upper,
                                    Value step, Value out, Value accumulator,
                                    Body body) {
    SmallVector<Value> iterArgs = {out};
    if (accumulator)
      iterArgs.push_back(accumulator);
    auto loop = scf::ForOp::create(
        b, loc, lower, upper, step, iterArgs,
        [&](OpBuilder &lb, Location, Value iv, ValueRange args) {
          auto [newOut, newAccumulator] =
              body(lb, iv, args[0], accumulator ? args[1] : Value());
          SmallVector<Value> yielded = {newOut};
          if (newAccumulator)
            yielded.push_back(newAccumulator);
          scf::YieldOp::create(lb, loc, yielded);
        });
    return {loop.getResult(0), accumulator ? loop.getResult(1) : Value()};
  }

  /// The values of `results` (a value and, if any, an accumulator) as a
  /// pair.
  static std::pair<Value, Value> toPair(ArrayRef<Value> results) {
    return {results[0], results.size() > 1 ? results[1] : Value()};
  }

  std::pair<Value, Value> buildSerialLevel(OpBuilder &b, int64_t d,
                                           SmallVector<Value> &outer, Value out,
                                           Value accumulator) {
    if (groups && d + 2 >= rank)
      return buildGroupedRows(b, outer, out, accumulator);
    if (d + 1 >= rank)
      return buildRow(b, outer, zero, sizes[rank - 1], out, outer, accumulator);
    return buildLoop(b, zero, sizes[d], one, out, accumulator,
                     [&](OpBuilder &lb, Value iv, Value out, Value bad) {
                       outer.push_back(iv);
                       auto results =
                           buildSerialLevel(lb, d + 1, outer, out, bad);
                       outer.pop_back();
                       return results;
                     });
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
      auto [vectorOut, lanes] = buildLoop(
          b, zero, vectorEnd,
          arith::ConstantIndexOp::create(b, loc, vectorSize), out,
          accumulator ? getNoLanesOutOfRange(b) : Value(),
          [&](OpBuilder &lb, Value position, Value out, Value lanes) {
            Value column = arith::AddIOp::create(lb, loc, start, position);
            if (prefetcher)
              prefetcher->emitForElements(lb, outer, column, vectorSize);
            SmallVector<Value> indexCoordinates(outer);
            indexCoordinates.push_back(column);
            SmallVector<LaneValue> coordinates;
            for (Value coordinate : outer)
              coordinates.push_back({LaneValue::Kind::Uniform, coordinate});
            coordinates.push_back(getLanePositions(lb, column));
            SmallVector<Value> outCoordinates(outPrefix);
            outCoordinates.push_back(position);
            return toPair(buildVectorIteration(lb, indices, indexCoordinates,
                                               coordinates, out, outCoordinates,
                                               lanes));
          });
      out = vectorOut;
      if (accumulator)
        accumulator = orLanes(b, accumulator, lanes);
      if (staticLength && *staticLength % vectorSize == 0)
        return {out, accumulator};
      lower = vectorEnd;
    }
    return buildLoop(
        b, lower, length, one, out, accumulator,
        [&](OpBuilder &lb, Value position, Value out, Value bad) {
          SmallVector<Value> coordinates(outer);
          coordinates.push_back(
              arith::AddIOp::create(lb, loc, start, position));
          if (prefetcher && vectorSize == 0)
            prefetcher->emitForScalar(lb, outer, coordinates.back());
          SmallVector<Value> outCoordinates(outPrefix);
          outCoordinates.push_back(position);
          return toPair(buildScalarIteration(
              lb, indices, coordinates, coordinates, out, outCoordinates, bad));
        });
  }

  /// "Out of range" in no lane: the initial accumulator of vector
  /// iterations.
  Value getNoLanesOutOfRange(OpBuilder &b) {
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(VectorType::get({vectorSize}, b.getI1Type()),
                               false));
  }

  /// `accumulator` or "out of range" in any lane of `lanes`.
  Value orLanes(OpBuilder &b, Value accumulator, Value lanes) {
    return arith::OrIOp::create(
        b, loc, accumulator,
        vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, lanes));
  }

  /// The slice of `tensor` at `offsets` of `sizes` (ones but for the
  /// last `keep` dimensions), without its unit dimensions.
  Value extractSlice(OpBuilder &b, Value tensor, ArrayRef<Value> offsets,
                     ArrayRef<OpFoldResult> sizes, int64_t keep) {
    SmallVector<int64_t> shape;
    for (OpFoldResult size : sizes.take_back(keep)) {
      std::optional<int64_t> value = getConstantIntValue(size);
      shape.push_back(value ? *value : ShapedType::kDynamic);
    }
    SmallVector<OpFoldResult> unitStrides(sizes.size(), b.getIndexAttr(1));
    return tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get(shape, resultType.getElementType()),
        tensor, getAsOpFoldResult(offsets), sizes, unitStrides);
  }

  /// The rows at `outer` (the coordinates before the two innermost) of
  /// `out`: whole groups of R rows as vectors, then the rows left (fewer
  /// than R) as scalars.
  std::pair<Value, Value> buildGroupedRows(OpBuilder &b, ArrayRef<Value> outer,
                                           Value out, Value accumulator) {
    Value rowsPerGroup = arith::ConstantIndexOp::create(b, loc, groups->rows);
    Value wholeGroups =
        arith::DivUIOp::create(b, loc, sizes[rank - 2], rowsPerGroup);
    auto [groupsOut, groupsBad] = buildLoop(
        b, zero, wholeGroups, one, out, accumulator,
        [&](OpBuilder &lb, Value group, Value out, Value bad) {
          SmallVector<Value> offsets(outer);
          offsets.push_back(
              arith::MulIOp::create(lb, loc, group, rowsPerGroup));
          offsets.push_back(zero);
          SmallVector<OpFoldResult> sliceSizes(rank - 2, lb.getIndexAttr(1));
          sliceSizes.push_back(lb.getIndexAttr(groups->rows));
          sliceSizes.push_back(lb.getIndexAttr(groups->length));
          Value slice = extractSlice(lb, out, offsets, sliceSizes, 2);
          auto [newSlice, newBad] =
              buildGroupSlice(lb, outer, group, slice, rowsPerGroup, bad);
          SmallVector<OpFoldResult> unitStrides(rank, lb.getIndexAttr(1));
          Value newOut = tensor::InsertSliceOp::create(
              lb, loc, newSlice, out, getAsOpFoldResult(offsets), sliceSizes,
              unitStrides);
          return std::make_pair(newOut, newBad);
        });
    Value firstLeft = arith::MulIOp::create(b, loc, wholeGroups, rowsPerGroup);
    return buildScalarRows(b, outer, firstLeft, sizes[rank - 2], groupsOut,
                           outer, zero, groupsBad);
  }

  /// Group `group` of the rows at `outer`: `rows` rows (R, or fewer for the
  /// last group) in `slice` (a tensor of [rows, L]); K vectors when the
  /// group is whole, scalars otherwise. Returns the new slice and, with a
  /// check, `accumulator` ORed with "out of range".
  std::pair<Value, Value> buildGroupSlice(OpBuilder &b, ArrayRef<Value> outer,
                                          Value group, Value slice, Value rows,
                                          Value accumulator) {
    auto sliceType = cast<RankedTensorType>(slice.getType());
    SmallVector<ReassociationIndices> merge = {{0, 1}};
    auto vectors = [&](OpBuilder &nb) {
      Value flat = tensor::CollapseShapeOp::create(nb, loc, slice, merge);
      SmallVector<Value> results =
          buildGroup(nb, outer, group, flat,
                     accumulator ? getNoLanesOutOfRange(nb) : Value());
      results[0] =
          tensor::ExpandShapeOp::create(nb, loc, sliceType, results[0], merge);
      if (accumulator)
        results[1] = orLanes(nb, accumulator, results[1]);
      return results;
    };
    if (isConstantIntValue(getAsOpFoldResult(rows), groups->rows))
      return toPair(vectors(b));
    Value whole = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, rows,
        arith::ConstantIndexOp::create(b, loc, groups->rows));
    auto ifOp = scf::IfOp::create(
        b, loc, whole,
        [&](OpBuilder &nb, Location) {
          scf::YieldOp::create(nb, loc, vectors(nb));
        },
        [&](OpBuilder &nb, Location) {
          Value firstRow = arith::MulIOp::create(
              nb, loc, group,
              arith::ConstantIndexOp::create(nb, loc, groups->rows));
          auto [newSlice, bad] =
              buildScalarRows(nb, outer, firstRow,
                              arith::AddIOp::create(nb, loc, firstRow, rows),
                              slice, {}, firstRow, accumulator);
          SmallVector<Value> yielded = {newSlice};
          if (bad)
            yielded.push_back(bad);
          scf::YieldOp::create(nb, loc, yielded);
        });
    return {ifOp.getResult(0), accumulator ? ifOp.getResult(1) : Value()};
  }

  /// The K vectors of whole group `group` of the rows at `outer`, read from
  /// the flattened `indices` and written into `out` (the group's G
  /// elements). Returns `out` and, with a check, the lanes' "out of range"
  /// ORed into `accumulator` (a vector<Nxi1>).
  SmallVector<Value> buildGroup(OpBuilder &b, ArrayRef<Value> outer,
                                Value group, Value out, Value accumulator) {
    Value firstRow = arith::MulIOp::create(
        b, loc, group, arith::ConstantIndexOp::create(b, loc, groups->rows));
    Value first = arith::MulIOp::create(
        b, loc, group,
        arith::ConstantIndexOp::create(b, loc, groups->elements()));
    auto indexVector = VectorType::get({vectorSize}, b.getIndexType());
    for (int64_t k = 0; k < groups->vectors; ++k) {
      // Lane j holds element k * N + j of the group: row (k * N + j) / L,
      // column (k * N + j) % L.
      SmallVector<int64_t> laneRows, laneColumns;
      for (int64_t j = 0; j < vectorSize; ++j) {
        laneRows.push_back((k * vectorSize + j) / groups->length);
        laneColumns.push_back((k * vectorSize + j) % groups->length);
      }
      auto constant = [&](ArrayRef<int64_t> values) -> Value {
        return arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(indexVector, values));
      };
      SmallVector<LaneValue> coordinates;
      for (Value coordinate : outer)
        coordinates.push_back({LaneValue::Kind::Uniform, coordinate});
      coordinates.push_back(
          {LaneValue::Kind::Stepped, firstRow, constant(laneRows)});
      coordinates.push_back(
          {LaneValue::Kind::Stepped, zero, constant(laneColumns)});
      Value offset = arith::ConstantIndexOp::create(b, loc, k * vectorSize);
      SmallVector<Value> indexCoordinates(outer);
      indexCoordinates.push_back(arith::AddIOp::create(b, loc, first, offset));
      SmallVector<Value> results =
          buildVectorIteration(b, flatIndices, indexCoordinates, coordinates,
                               out, {offset}, accumulator);
      out = results[0];
      if (accumulator)
        accumulator = results[1];
    }
    SmallVector<Value> results = {out};
    if (accumulator)
      results.push_back(accumulator);
    return results;
  }

  /// Rows [firstRow, lastRow) at `outer` as scalars (rows shorter than a
  /// vector), written into `out` at [outPrefix..., row - rowShift, 0 .. L).
  std::pair<Value, Value> buildScalarRows(OpBuilder &b, ArrayRef<Value> outer,
                                          Value firstRow, Value lastRow,
                                          Value out, ArrayRef<Value> outPrefix,
                                          Value rowShift, Value accumulator) {
    return buildLoop(b, firstRow, lastRow, one, out, accumulator,
                     [&](OpBuilder &lb, Value row, Value out, Value bad) {
                       SmallVector<Value> rowOuter(outer);
                       rowOuter.push_back(row);
                       SmallVector<Value> rowPrefix(outPrefix);
                       rowPrefix.push_back(
                           arith::SubIOp::create(lb, loc, row, rowShift));
                       return buildRow(lb, rowOuter, zero, sizes[rank - 1], out,
                                       rowPrefix, bad);
                     });
  }

  /// One element at `coordinates` (of the iteration space): its index
  /// value read from `indexTensor` (`indices` or a reshape of it) at
  /// `indexCoordinates`, the gather's body, the result inserted into `out`
  /// at `outCoordinates`, then the check's body on the same index value.
  SmallVector<Value> buildScalarIteration(OpBuilder &b, Value indexTensor,
                                          ArrayRef<Value> indexCoordinates,
                                          ArrayRef<Value> coordinates,
                                          Value out,
                                          ArrayRef<Value> outCoordinates,
                                          Value accumulator) {
    Value index =
        tensor::ExtractOp::create(b, loc, indexTensor, indexCoordinates);
    Value element = cloneBody(b, gather.getBody(), {index}, coordinates);
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

  /// vectorSize elements, at `coordinates` (of the iteration space, one per
  /// dimension): one read of their index values (a vector.transfer_read of
  /// `indexTensor` at `indexCoordinates`; `indices` or a reshape of it
  /// whose innermost dimension holds the lanes contiguously), the gather's
  /// body on vectors, one vector.transfer_write into `out` at
  /// `outCoordinates`, the check's body on the same vector of index values.
  SmallVector<Value> buildVectorIteration(OpBuilder &b, Value indexTensor,
                                          ArrayRef<Value> indexCoordinates,
                                          ArrayRef<LaneValue> coordinates,
                                          Value out,
                                          ArrayRef<Value> outCoordinates,
                                          Value accumulator) {
    Type indexType = getElementTypeOrSelf(indices.getType());
    Value padding = arith::ConstantOp::create(b, loc, b.getZeroAttr(indexType));
    Value index = vector::TransferReadOp::create(
        b, loc, VectorType::get({vectorSize}, indexType), indexTensor,
        indexCoordinates, padding, ArrayRef<bool>{true});
    LaneValue indexLanes = {LaneValue::Kind::Varying, index};
    Value element =
        vectorizeBody(b, gather.getBody(), {indexLanes}, coordinates);
    SmallVector<Value> results = {
        vector::TransferWriteOp::create(b, loc, element, out, outCoordinates,
                                        ArrayRef<bool>{true})
            .getResult()};
    if (accumulator)
      results.push_back(vectorizeBody(
          b, check.getBody(),
          {indexLanes, {LaneValue::Kind::Varying, accumulator}}, coordinates));
    return results;
  }

  /// The ops of `body` (isVectorizableBody) on vectorSize lanes, with
  /// linalg.index d = `coordinates[d]`; returns the yielded value as a
  /// vector.
  Value vectorizeBody(OpBuilder &b, Block *body, ArrayRef<LaneValue> arguments,
                      ArrayRef<LaneValue> coordinates) {
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
  template <typename Lookup>
  Value buildGather(OpBuilder &b, tensor::ExtractOp extract, Lookup lookup) {
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

  Location loc;
  linalg::GenericOp gather, check;
  int64_t vectorSize;
  RowPrefetcher *prefetcher; // Null: no prefetches.
  Value indices, flatIndices, data, zero, one;
  RankedTensorType resultType;
  int64_t rank;
  SmallVector<Value> sizes, strides;
  std::optional<RowGroups> groups;
};

struct CodegenPass : public gather::impl::CodegenPassBase<CodegenPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    auto fail = [&] {
      return emitError(UnknownLoc::get(context), "gather-codegen: ");
    };
    if (vectorSize < 0 || vectorSize > kMaxVectorSize)
      return fail() << "vector-size must be in [0, " << kMaxVectorSize
                    << "] (0: scalar loops), not " << vectorSize.getValue();
    if (parallelThreshold < 0)
      return fail() << "parallel-threshold must be >= 0, not "
                    << parallelThreshold.getValue();
    if (parallelChunk < 1)
      return fail() << "parallel-chunk must be >= 1, not "
                    << parallelChunk.getValue();
    if (prefetchDistance < 0)
      return fail() << "prefetch-distance must be >= 0 (bytes; 0: no "
                       "prefetches), not "
                    << prefetchDistance.getValue();
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
    bool canVectorizeBodies = canVectorize(gather) &&
                              isVectorizableBody(gather.getBody()) &&
                              (!check || isVectorizableBody(check.getBody()));
    // Rows shorter than a vector: in groups of whole vectors, or scalar.
    bool groupRows = canVectorizeBodies && canGroupRows(gather, vectorSize);
    bool vectorize = vectorSize > 1 && canVectorizeBodies &&
                     (groupRows || ShapedType::isDynamic(innermost) ||
                      innermost >= vectorSize);
    // Threads: rows (chunks of parallelChunk for rank 1) in parallel, unless
    // already inside a parallel loop or a static shape has a single row or
    // too few elements; decided at run time for dynamic shapes.
    Operation *allocationScope =
        gather->getParentWithTrait<OpTrait::AutomaticAllocationScope>();
    int64_t rowSize = rank == 1 ? parallelChunk : innermost;
    if (groupRows)
      rowSize = RowGroups(innermost, vectorSize).elements();
    bool threads = parallel && allocationScope &&
                   !gather->getParentOfType<scf::ForallOp>() &&
                   !gather->getParentOfType<scf::ParallelOp>() &&
                   (!isStatic || (numElements >= parallelThreshold &&
                                  llvm::divideCeil(numElements, rowSize) > 1));
    // Prefetches in the row loops (not in groups of short rows).
    bool prefetch = !groupRows && shouldPrefetch(gather, prefetchDistance);
    if (!check && !threads && !vectorize && !prefetch)
      return;

    Location loc = gather.getLoc();
    rewriter.setInsertionPoint(check ? check : gather);
    std::optional<RowPrefetcher> prefetcher;
    if (prefetch)
      prefetcher.emplace(rewriter, loc, gather, prefetchDistance);
    FusedGatherBuilder builder(rewriter, loc, gather, check,
                               vectorize ? vectorSize : 0, groupRows,
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
