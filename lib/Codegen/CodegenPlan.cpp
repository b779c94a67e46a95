//===- CodegenPlan.cpp - What gather-codegen does with a gather -----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements planGather (CodegenPlan.h): the rules for the index check,
// vectors, groups of short rows, threads, prefetches and in-register
// gathers, and the printed form of a plan.
//
//===----------------------------------------------------------------------===//

#include "CodegenPlan.h"

#include "GatherRecognizers.h"
#include "RowPrefetcher.h"

#include "gather/Support/CheckedSize.h"
#include "gather/Support/ElementBytes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace gather::codegen;

/// Sets `*whyNot` to `reason`; returns false.
static bool reject(std::string *whyNot, const Twine &reason) {
  *whyNot = reason.str();
  return false;
}

/// Whether the rows of `gather` (vectorizable with `vectorSize`) can run in
/// groups: rank >= 2, a static innermost size L < `vectorSize`, at most
/// kMaxVectorsPerGroup vectors and kMaxGroupElements elements per group, at
/// least one whole group of rows
/// (or a dynamic count), and `indices` and the results (their inits) surely
/// contiguous (their two innermost dimensions are merged).
static bool canGroupRows(linalg::GenericOp gather, int64_t vectorSize,
                         std::string *whyNot) {
  SmallVector<int64_t> ranges = gather.getStaticLoopRanges();
  int64_t rank = ranges.size();
  if (rank < 2)
    return reject(whyNot, "rank 1");
  if (readsIndicesPermuted(gather))
    return reject(whyNot, "the loops follow a transposing consumer");
  if (vectorSize <= 1 || ShapedType::isDynamic(ranges.back()) ||
      ranges.back() >= vectorSize)
    return reject(whyNot, "not rows shorter than a vector");
  RowGroups groups(ranges.back(), vectorSize);
  if (groups.vectors > kMaxVectorsPerGroup)
    return reject(whyNot, Twine(groups.vectors) + " vectors per group, over " +
                              Twine(kMaxVectorsPerGroup));
  if (groups.elements() > kMaxGroupElements)
    return reject(whyNot, Twine(groups.elements()) +
                              " elements per group, over " +
                              Twine(kMaxGroupElements));
  if (!ShapedType::isDynamic(ranges[rank - 2]) &&
      ranges[rank - 2] < groups.rows)
    return reject(whyNot, Twine(ranges[rank - 2]) + " rows, fewer than a " +
                              "group of " + Twine(groups.rows));
  // (The two merged sizes: a static product beyond int64_t has no type.)
  if (!ShapedType::isDynamic(ranges[rank - 2]) &&
      !llvm::checkedMul(ranges[rank - 2], ranges.back()))
    return reject(whyNot, Twine(ranges[rank - 2]) + " rows of " +
                              Twine(ranges.back()) +
                              ": more elements than int64_t counts");
  if (!isSurelyContiguous(getIndices(gather)))
    return reject(whyNot, "indices is not surely contiguous");
  if (!llvm::all_of(gather.getDpsInits(), isSurelyContiguous))
    return reject(whyNot, gather.getNumDpsInits() == 1
                              ? "the result is not surely contiguous"
                              : "a result is not surely contiguous");
  return true;
}

/// Whether the loops of `gather` prefetch (RowPrefetcher): `distance` > 0,
/// rank >= 2, the gathered axis is the innermost dimension (the last
/// coordinate of the read of `data` is not linalg.index of the innermost
/// loop), `data` and `indices` are surely contiguous with whole-byte
/// elements, a row of `data` is at least one cache line (or dynamic), and
/// `data` plus `indices` are not statically smaller than kPrefetchMinBytes.
/// (What was measured for each rule: docs/CodeShape.md, "Prefetches".)
static bool shouldPrefetch(linalg::GenericOp gather, int64_t distance,
                           std::string *whyNot) {
  StringRef whyNotVector;
  if (distance <= 0)
    return reject(whyNot, "prefetch-distance=0");
  if (gather.getNumLoops() < 2)
    return reject(whyNot, "rank 1");
  if (readsIndicesPermuted(gather))
    return reject(whyNot, "the loops follow a transposing consumer");
  if (!canVectorize(gather, &whyNotVector))
    return reject(whyNot, whyNotVector);
  if (!isSurelyContiguous(getIndices(gather)))
    return reject(whyNot, "indices is not surely contiguous");
  int64_t rank = gather.getNumLoops();
  tensor::ExtractOp extract =
      *gather.getBody()->getOps<tensor::ExtractOp>().begin();
  auto last = extract.getIndices().back().getDefiningOp<linalg::IndexOp>();
  if (last && static_cast<int64_t>(last.getDim()) == rank - 1)
    return reject(whyNot, "not along the innermost axis");
  auto dataType = cast<RankedTensorType>(extract.getTensor().getType());
  auto indicesType = cast<RankedTensorType>(getIndices(gather).getType());
  int64_t dataBytes = *gather::getElementBytes(dataType.getElementType());
  int64_t rowSize = dataType.getShape().back();
  if (!ShapedType::isDynamic(rowSize) &&
      rowSize < llvm::divideCeilSigned(kCacheLineBytes, dataBytes))
    return reject(whyNot,
                  "rows of data under " + Twine(kCacheLineBytes) + " B");
  if (!dataType.hasStaticShape() || !indicesType.hasStaticShape())
    return true;
  // Sizes beyond int64_t (types that no buffer can have) count as large.
  std::optional<int64_t> dataTotal =
      gather::getCheckedNumElements(dataType.getShape(), dataBytes);
  std::optional<int64_t> indicesTotal = gather::getCheckedNumElements(
      indicesType.getShape(),
      *gather::getElementBytes(indicesType.getElementType()));
  if (!dataTotal || !indicesTotal || *dataTotal >= kPrefetchMinBytes ||
      *indicesTotal >= kPrefetchMinBytes - *dataTotal)
    return true;
  return reject(whyNot, "data and indices under " +
                            Twine(kPrefetchMinBytes / 1024) + " KiB");
}

/// The rows of `gather` in blocks (RowBlocks), or none: `data` is read at
/// linalg.index d for every dimension d but the axis, the axis is neither
/// of the two innermost dimensions, the shapes are static, and the lines
/// read from one position of the axis to the next exceed `budget` bytes.
/// The block is the largest divisor of the size of dimension axis + 1 whose
/// lines fit `budget`, at least one position whose lines fit half of it
/// (docs/CodeShape.md, "Gathers along an outer axis"), found among the
/// kMaxRowBlockCandidates largest sizes that fit (none: no blocks).
static std::optional<RowBlocks> planRowBlocks(linalg::GenericOp gather,
                                              int64_t budget) {
  if (budget <= 0 || readsIndicesPermuted(gather))
    return std::nullopt;
  int64_t rank = gather.getNumLoops();
  std::optional<GatherDataRead> read = findGatherDataRead(gather);
  std::optional<int64_t> axis =
      read ? getGatherAxis(gather, *read) : std::nullopt;
  if (!axis || *axis + 2 >= rank)
    return std::nullopt;
  auto dataType = cast<RankedTensorType>(read->data.getType());
  auto indicesType = cast<RankedTensorType>(getIndices(gather).getType());
  if (!dataType.hasStaticShape() || !indicesType.hasStaticShape() ||
      gather::hasZeroSize(indicesType.getShape()))
    return std::nullopt;
  int64_t dim = *axis + 1;
  // The bytes of `data` that one position of `dim` reads across the axis.
  std::optional<int64_t> elementBytes =
      gather::getElementBytes(dataType.getElementType());
  SmallVector<int64_t> extents = {dataType.getDimSize(*axis)};
  llvm::append_range(extents, indicesType.getShape().drop_front(dim + 1));
  std::optional<int64_t> perPosition =
      elementBytes ? gather::getCheckedNumElements(extents, *elementBytes)
                   : std::nullopt;
  int64_t size = indicesType.getDimSize(dim);
  // (size <= budget / perPosition: the product can exceed int64_t.)
  if (!perPosition || *perPosition == 0 || *perPosition > budget / 2 ||
      size <= budget / *perPosition)
    return std::nullopt;
  int64_t block = budget / *perPosition;
  int64_t lowest = std::max<int64_t>(1, block - kMaxRowBlockCandidates + 1);
  while (block >= lowest && size % block != 0)
    --block;
  if (block < lowest)
    return std::nullopt;
  return RowBlocks{*axis, dim, block, block * *perPosition};
}

/// Whether the vector reads of `gather` can have 32-bit lane offsets: each
/// tensor read by lanes (`data` and the elementwise inputs) holds at most
/// `limit` elements, statically or, for dynamic sizes, checked at run time
/// (`*guard`, left empty when every size is static).
static bool canNarrowOffsets(linalg::GenericOp gather, int64_t limit,
                             std::optional<SizeGuard> *guard,
                             std::string *whyNot) {
  SmallVector<Value> tensors = {getGatheredTensor(gather)};
  for (OpOperand *input : getElementwiseInputs(gather))
    tensors.push_back(input->get());
  if (readsIndicesPermuted(gather))
    tensors.push_back(getIndices(gather));
  SmallVector<Value> dynamic;
  for (Value tensor : tensors) {
    StringRef name = tensors.front() == tensor ? "data" : "an input";
    auto type = dyn_cast<RankedTensorType>(tensor.getType());
    if (!type)
      return reject(whyNot, name + " is unranked");
    // (The static sizes alone: their product is at most the number of
    // elements of a tensor that is not empty.)
    SmallVector<int64_t> staticSizes(
        llvm::make_filter_range(type.getShape(), [](int64_t size) {
          return size != ShapedType::kDynamic;
        }));
    std::optional<int64_t> numElements =
        gather::getCheckedNumElements(staticSizes);
    if (!numElements || *numElements > limit)
      return reject(whyNot, name + " has over " +
                                (limit == kMaxNarrowOffsetElements
                                     ? std::string("2^31 - 1")
                                     : std::to_string(limit)) +
                                " elements");
    if (!type.hasStaticShape() && !llvm::is_contained(dynamic, tensor))
      dynamic.push_back(tensor);
  }
  if (!dynamic.empty())
    *guard = SizeGuard{std::move(dynamic), limit};
  return true;
}

/// The dimension of the tiles of transposing consumer `gather` with vectors
/// of `vectorSize` (GatherCodegenPlan::tileDim), or none: a power of two,
/// static sizes of the tiled dimensions that are multiples of it, and a
/// body that splits at the read of data (canSplitAtDataRead).
static std::optional<int64_t> planTransposeTiles(linalg::GenericOp gather,
                                                 int64_t vectorSize,
                                                 std::string *whyNot) {
  int64_t rank = gather.getNumLoops();
  AffineMap map = gather.getMatchingIndexingMap(&getIndicesOperand(gather));
  int64_t dim = map.getDimPosition(rank - 1);
  SmallVector<int64_t> ranges = gather.getStaticLoopRanges();
  StringRef whyNotSplit;
  if (dim == rank - 1)
    reject(whyNot, "the rows of indices are along the rows");
  else if (!llvm::isPowerOf2_64(vectorSize))
    reject(whyNot, "vector-size=" + Twine(vectorSize) + ", not a power of two");
  else if (ShapedType::isDynamic(ranges[dim]) ||
           ShapedType::isDynamic(ranges.back()) ||
           ranges[dim] % vectorSize != 0 || ranges.back() % vectorSize != 0)
    reject(whyNot,
           "sizes that are not static multiples of " + Twine(vectorSize));
  else if (!canSplitAtDataRead(gather, &whyNotSplit))
    reject(whyNot, whyNotSplit);
  else
    return dim;
  return std::nullopt;
}

/// The rows of `indices` per block of the tiles of `gather` along `dim`
/// (GatherCodegenPlan::tileBlockRows) with vectors of `vectorSize`: the
/// tiled sizes are static multiples of it (planTransposeTiles). Blocks
/// where the gathered values exceed `rowBlockBytes` (the cache that the
/// result's columns would stay in) and a block's fit in half of it.
static int64_t planTileBlockRows(linalg::GenericOp gather, int64_t dim,
                                 int64_t vectorSize, int64_t rowBlockBytes) {
  SmallVector<int64_t> ranges = gather.getStaticLoopRanges();
  int64_t rows = kTileBlockTiles * vectorSize;
  std::optional<int64_t> elementBytes = gather::getElementBytes(
      getElementTypeOrSelf(findGatherDataRead(gather)->read->getResult(0)));
  if (!elementBytes || ranges.back() % rows != 0)
    return vectorSize;
  std::optional<int64_t> scratchBytes =
      gather::getCheckedNumElements({rows, ranges[dim]}, *elementBytes);
  std::optional<int64_t> gatheredBytes =
      gather::getCheckedNumElements(ranges, *elementBytes);
  // (A count beyond int64_t is large.)
  if (!scratchBytes || *scratchBytes > rowBlockBytes / 2 ||
      (gatheredBytes && *gatheredBytes <= rowBlockBytes))
    return vectorSize;
  return rows;
}

/// The permute of in-register gathers for `gather` with `plan` (vectors)
/// on `target`: rows not in groups, read along the innermost axis of
/// `data` (readsRowsOfData), of a static length that one of the target's
/// permutes holds (selectRowPermute).
static std::optional<RowPermute>
planRowPermute(linalg::GenericOp gather, const GatherCodegenPlan &plan,
               const gather::TargetInfo &target, std::string *whyNot) {
  if (plan.groups) {
    *whyNot = "rows in groups: the lanes of a vector read several rows";
    return std::nullopt;
  }
  if (plan.transposed) {
    *whyNot = "the loops follow a transposing consumer";
    return std::nullopt;
  }
  if (!readsRowsOfData(gather)) {
    *whyNot = "not along the innermost axis";
    return std::nullopt;
  }
  auto dataType = cast<RankedTensorType>(getGatheredTensor(gather).getType());
  int64_t rowLength = dataType.getShape().back();
  if (ShapedType::isDynamic(rowLength)) {
    *whyNot = "rows of data of a dynamic length";
    return std::nullopt;
  }
  return selectRowPermute(target, dataType.getElementType(), rowLength,
                          plan.vectorSize, whyNot);
}

GatherCodegenPlan
gather::codegen::planGather(linalg::GenericOp gather,
                            const GatherCodegenOptions &options) {
  GatherCodegenPlan plan;
  plan.transposed = readsIndicesPermuted(gather);
  int64_t rank = gather.getNumLoops();
  SmallVector<int64_t> ranges = gather.getStaticLoopRanges();
  if (gather::hasZeroSize(ranges)) {
    plan.leftAlone = "an empty iteration space";
    return plan;
  }
  if (llvm::any_of(gather.getRegionOutputArgs(),
                   [](BlockArgument output) { return !output.use_empty(); })) {
    plan.leftAlone = "its body reads its output";
    plan.breaksContract = true;
    return plan;
  }
  bool isStatic = !llvm::any_of(ranges, ShapedType::isDynamic);
  // (Counted without wrap-around; a count beyond int64_t is large.)
  int64_t numElements = gather::getCheckedNumElements(ranges).value_or(
      std::numeric_limits<int64_t>::max());
  int64_t innermost = ranges.back();
  int64_t vectorSize = options.vectorSize;

  // The index check.
  StringRef whyNotFused;
  IndexCheckMatch match = findIndexCheck(gather, &whyNotFused);
  plan.check = match.check;
  plan.toHoist = std::move(match.toHoist);
  plan.whyNotFused = whyNotFused.str();
  plan.breaksContract = !whyNotFused.empty();

  // Vectors, and rows shorter than a vector in groups of whole vectors.
  StringRef whyNotVector;
  bool canVectorizeBodies = false;
  if (!canVectorize(gather, &whyNotVector))
    plan.whyScalar = whyNotVector.str();
  else if (!isVectorizableBody(gather.getBody()))
    plan.whyScalar = "an op of the body that is not elementwise on scalars";
  else if (plan.check && !isVectorizableBody(plan.check.getBody()))
    plan.whyScalar = "an op of the check's body that is not elementwise on "
                     "scalars";
  else
    canVectorizeBodies = true;
  std::string whyNoGroups;
  if (canVectorizeBodies && canGroupRows(gather, vectorSize, &whyNoGroups))
    plan.groups = RowGroups(innermost, vectorSize);
  bool vectorize = vectorSize > 1 && canVectorizeBodies &&
                   (plan.groups || ShapedType::isDynamic(innermost) ||
                    innermost >= vectorSize);
  if (vectorize)
    plan.vectorSize = vectorSize;
  else if (vectorSize <= 1)
    plan.whyScalar = "vector-size=" + std::to_string(vectorSize);
  else if (canVectorizeBodies)
    plan.whyScalar = "rows of " + std::to_string(innermost) +
                     ", shorter than a vector, not in groups: " + whyNoGroups;
  if (options.narrowOffsets && vectorize &&
      canNarrowOffsets(gather, options.narrowLimit, &plan.sizeGuard,
                       &plan.whyWideOffsets))
    plan.offsetBits = 32;
  if (options.inRegisterGathers && vectorize)
    plan.permute =
        planRowPermute(gather, plan, *options.target, &plan.whyNoPermute);
  if (plan.transposed && vectorize)
    plan.tileDim = planTransposeTiles(gather, vectorSize, &plan.whyNoTiles);
  if (plan.tileDim)
    plan.tileBlockRows = planTileBlockRows(gather, *plan.tileDim, vectorSize,
                                           options.rowBlockBytes);

  // Rows in blocks for an outer axis (not with groups of short rows).
  if (!plan.groups)
    plan.blocks = planRowBlocks(gather, options.rowBlockBytes);

  // Threads: rows (chunks of parallelChunk for rank 1) in parallel, unless
  // already inside a parallel loop or a static shape has a single row or
  // too few elements; decided at run time for dynamic shapes.
  plan.parallelChunk = options.parallelChunk;
  plan.parallelThreshold = options.parallelThreshold;
  // What the threads share out: chunks (rank 1), rows or groups of rows,
  // counted without the capped element count.
  int64_t rows = gather::getCheckedNumElements(ArrayRef(ranges).drop_back())
                     .value_or(std::numeric_limits<int64_t>::max());
  int64_t units = rank == 1
                      ? llvm::divideCeil(numElements, options.parallelChunk)
                  : plan.groups ? llvm::divideCeil(rows, plan.groups->rows)
                                : rows;
  if (!options.parallel)
    plan.whySerial = "parallel=false";
  else if (!gather->getParentWithTrait<OpTrait::AutomaticAllocationScope>())
    plan.whySerial = "no automatic allocation scope around it";
  else if (gather->getParentOfType<scf::ForallOp>() ||
           gather->getParentOfType<scf::ParallelOp>())
    plan.whySerial = "already inside a parallel loop";
  else if (!isStatic)
    plan.threads = GatherCodegenPlan::Threads::AtRunTime;
  else if (numElements < options.parallelThreshold)
    plan.whySerial = std::to_string(numElements) +
                     " elements, under parallel-threshold=" +
                     std::to_string(options.parallelThreshold);
  else if (units <= 1)
    plan.whySerial = rank == 1     ? "a single chunk"
                     : plan.groups ? "a single group of rows"
                                   : "a single row";
  else
    plan.threads = GatherCodegenPlan::Threads::Threaded;

  // Prefetches in the row loops (not in groups of short rows).
  std::string whyNoPrefetch;
  if (plan.groups)
    plan.whyNoPrefetch = "rows in groups";
  else if (shouldPrefetch(gather, options.prefetchDistance, &whyNoPrefetch))
    plan.prefetchDistance = options.prefetchDistance;
  else
    plan.whyNoPrefetch = whyNoPrefetch;

  plan.rewrite =
      plan.check || plan.threads != GatherCodegenPlan::Threads::Serial ||
      plan.vectorSize > 0 || plan.prefetchDistance > 0 || plan.blocks;
  return plan;
}

void GatherCodegenPlan::print(raw_ostream &os) const {
  if (!leftAlone.empty()) {
    os << "left as is (" << leftAlone << ")";
    return;
  }
  if (!rewrite)
    os << "left to convert-linalg-to-loops: ";
  if (vectorSize > 0)
    os << "vectors of " << vectorSize;
  else
    os << "scalar (" << whyScalar << ")";
  if (tileDim)
    os << ", in the order of a transposing consumer (tiles of " << vectorSize
       << "x" << vectorSize << " along dimension " << *tileDim
       << ", transposed in registers"
       << (tileBlockRows > vectorSize
               ? ", in blocks of " + std::to_string(tileBlockRows) +
                     " rows of indices gathered first"
               : std::string())
       << ")";
  else if (transposed && vectorSize > 0)
    os << ", in the order of a transposing consumer (indices read across "
          "its rows: "
       << whyNoTiles << ")";
  else if (transposed)
    os << ", in the order of a transposing consumer";
  if (groups)
    os << ", rows of " << groups->length << " in groups of " << groups->rows
       << " (" << groups->vectors
       << (groups->vectors == 1 ? " vector)" : " vectors)");
  if (blocks)
    os << ", rows in blocks of " << blocks->size << " along dimension "
       << blocks->dim << " ("
       << (blocks->bytes < 1024 ? blocks->bytes : blocks->bytes / 1024)
       << (blocks->bytes < 1024 ? " B" : " KiB") << " of data each)";
  os << "; ";
  switch (threads) {
  case Threads::Serial:
    os << "serial (" << whySerial << ")";
    break;
  case Threads::Threaded:
    os << "threads";
    break;
  case Threads::AtRunTime:
    os << "threads from " << parallelThreshold
       << " elements (decided at run time)";
    break;
  }
  if (prefetchDistance > 0)
    os << "; prefetches " << prefetchDistance << " B ahead";
  else
    os << "; no prefetches (" << whyNoPrefetch << ")";
  if (check)
    os << "; index check fused";
  else if (!whyNotFused.empty())
    os << "; index check not fused (" << whyNotFused << ")";
  else
    os << "; no index check";
  if (vectorSize > 0 && offsetBits == 32 && sizeGuard)
    os << "; 32-bit offsets if the dynamic sizes allow (at most "
       << sizeGuard->limit << " elements, checked at run time; else 64-bit)";
  else if (vectorSize > 0 && offsetBits == 32)
    os << "; 32-bit offsets";
  else if (vectorSize > 0 && !whyWideOffsets.empty())
    os << "; 64-bit offsets (" << whyWideOffsets << ")";
  if (permute)
    os << "; in-register gathers (" << permute->instruction << ", "
       << permute->registers
       << (permute->registers == 1 ? " register" : " registers") << ")";
  else if (vectorSize > 0 && !whyNoPermute.empty())
    os << "; no in-register gathers (" << whyNoPermute << ")";
}
