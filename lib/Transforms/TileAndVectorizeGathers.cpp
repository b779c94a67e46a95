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

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

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

/// The index check convert-onnx-to-linalg emits right after `gather` (same
/// block, same `indices`, before any other gather): a generic of the same
/// rank (> 1) whose i1 output is indexed by all but the innermost dimension,
/// the innermost being a reduction. Null if there is none.
linalg::GenericOp findIndexCheck(linalg::GenericOp gather) {
  int64_t rank = gather.getNumLoops();
  if (rank < 2)
    return nullptr;
  Value indices = gather.getDpsInputs()[0];
  for (Operation *op = gather->getNextNode(); op; op = op->getNextNode()) {
    auto check = dyn_cast<linalg::GenericOp>(op);
    if (!check)
      continue;
    if (isGatherLike(check))
      return nullptr;
    if (!check.hasPureTensorSemantics() || check.getNumDpsInputs() != 1 ||
        check.getDpsInputs()[0] != indices || check.getNumDpsInits() != 1 ||
        check.getNumLoops() != rank ||
        check.getNumParallelLoops() != static_cast<unsigned>(rank - 1) ||
        !getElementTypeOrSelf(check.getDpsInits()[0].getType()).isInteger(1))
      continue;
    SmallVector<AffineMap> maps = check.getIndexingMapsArray();
    if (maps[0].isIdentity() &&
        maps[1] == AffineMap::getMultiDimIdentityMap(rank, check.getContext())
                       .getMajorSubMap(rank - 1) &&
        check.getIteratorTypesArray().back() == utils::IteratorType::reduction)
      return check;
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
    return success();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());

    // 1. One loop over the rows: scf.forall (threads) or scf.for, holding
    //    both the gather and its index check.
    for (linalg::GenericOp gather : collectGathers())
      if (failed(tileRows(rewriter, gather)))
        return signalPassFailure();

    // 2. Vectors: tiles of exactly [1, ..., 1, vectorSize], made static by
    //    canonicalization (after peeling), then vectorized without masks.
    //    (vector-size 1 means scalar loops, like 0.)
    if (vectorSize <= 1)
      return;
    for (linalg::GenericOp gather : collectGathers())
      if (failed(tileForVectors(rewriter, gather)))
        return signalPassFailure();
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();

    for (linalg::GenericOp gather : collectGathers()) {
      SmallVector<int64_t> ranges = gather.getStaticLoopRanges();
      SmallVector<int64_t> tile(ranges.size(), 1);
      tile.back() = vectorSize;
      if (llvm::equal(ranges, tile) && canVectorize(gather) &&
          failed(vectorizeTile(rewriter, gather)))
        return signalPassFailure();
    }
  }

  SmallVector<linalg::GenericOp> collectGathers() {
    SmallVector<linalg::GenericOp> gathers;
    getOperation().walk([&](linalg::GenericOp op) {
      if (isGatherLike(op))
        gathers.push_back(op);
    });
    return gathers;
  }

  /// Tiles `op` with `sizes` into loops of `loopType`; returns the loops,
  /// outermost first.
  FailureOr<SmallVector<LoopLikeOpInterface>>
  tileToLoops(RewriterBase &rewriter, linalg::GenericOp op,
              ArrayRef<int64_t> sizes,
              scf::SCFTilingOptions::LoopType loopType) {
    rewriter.setInsertionPoint(op);
    scf::SCFTilingOptions options;
    options.setLoopType(loopType);
    options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled) || tiled->loops.empty())
      return op.emitError("linalg-tile-and-vectorize-gathers: tiling failed");
    rewriter.replaceOp(op, tiled->replacements);
    return tiled->loops;
  }

  /// Tiles `op` with `sizes` into loops of `loopType`; returns the
  /// outermost loop.
  FailureOr<Operation *> tile(RewriterBase &rewriter, linalg::GenericOp op,
                              ArrayRef<int64_t> sizes,
                              scf::SCFTilingOptions::LoopType loopType) {
    auto loops = tileToLoops(rewriter, op, sizes, loopType);
    if (failed(loops))
      return failure();
    return loops->front().getOperation();
  }

  LogicalResult tileRows(RewriterBase &rewriter, linalg::GenericOp gather) {
    int64_t rank = gather.getNumLoops();
    SmallVector<int64_t> ranges = gather.getStaticLoopRanges();
    bool isStatic = !llvm::any_of(ranges, ShapedType::isDynamic);
    // (Counted without wrap-around; a count beyond int64_t is large.)
    int64_t numElements = gather::getCheckedNumElements(ranges).value_or(
        std::numeric_limits<int64_t>::max());
    if (gather::hasZeroSize(ranges))
      return success();
    // Rows: of the innermost dimension; chunks of parallelChunk for rank 1.
    int64_t rowSize = rank == 1 ? parallelChunk : ranges.back();
    if (isStatic && llvm::divideCeil(numElements, rowSize) <= 1)
      return success(); // A single row: nothing to split.
    bool threads = parallel && (!isStatic || numElements >= parallelThreshold);
    linalg::GenericOp check = findIndexCheck(gather);
    if (!threads && !check)
      return success();
    auto loopType = threads ? scf::SCFTilingOptions::LoopType::ForallOp
                            : scf::SCFTilingOptions::LoopType::ForOp;
    // Rows: tiles of 1 on all but the innermost dimension (chunks for rank 1).
    SmallVector<int64_t> sizes(rank, 1);
    sizes.back() = rank == 1 ? parallelChunk : 0;
    FailureOr<Operation *> gatherLoop = tile(rewriter, gather, sizes, loopType);
    if (failed(gatherLoop) || !check)
      return gatherLoop;
    FailureOr<Operation *> checkLoop = tile(rewriter, check, sizes, loopType);
    if (failed(checkLoop))
      return failure();
    // One loop: each iteration checks the row of `indices` it has just read.
    // The loops are made adjacent first (the gather's loop moves down to the
    // check's: nothing in between uses its results), so that the operands of
    // both dominate the fused loop wherever it is built.
    if ((*gatherLoop)->isBeforeInBlock(*checkLoop))
      rewriter.moveOpBefore(*gatherLoop, *checkLoop);
    else
      rewriter.moveOpBefore(*checkLoop, *gatherLoop);
    if (threads) {
      fuseIndependentSiblingForallLoops(cast<scf::ForallOp>(*gatherLoop),
                                        cast<scf::ForallOp>(*checkLoop),
                                        rewriter);
      return success();
    }
    // scf.for: one loop per dimension; fuse them level by level.
    scf::ForOp fused = fuseIndependentSiblingForLoops(
        cast<scf::ForOp>(*gatherLoop), cast<scf::ForOp>(*checkLoop), rewriter);
    while (fused) {
      auto inner = llvm::to_vector(fused.getBody()->getOps<scf::ForOp>());
      if (inner.size() != 2)
        break;
      rewriter.moveOpBefore(inner[0], inner[1]);
      fused = fuseIndependentSiblingForLoops(inner[0], inner[1], rewriter);
    }
    return success();
  }

  /// Tiles `gather` to [1, ..., 1, vectorSize] with scf.for; when the
  /// innermost size is dynamic or not a multiple of vectorSize, peels the
  /// last, partial iteration of the innermost loop (it stays scalar).
  LogicalResult tileForVectors(RewriterBase &rewriter,
                               linalg::GenericOp gather) {
    int64_t rank = gather.getNumLoops();
    SmallVector<int64_t> ranges = gather.getStaticLoopRanges();
    int64_t innermost = ranges.back();
    if (!ShapedType::isDynamic(innermost) && innermost < vectorSize)
      return success(); // Too short for one vector: scalar.
    if (!canVectorize(gather))
      return success();
    SmallVector<int64_t> sizes(rank, 1);
    sizes.back() = vectorSize;
    if (llvm::equal(ranges, sizes))
      return success(); // Already one vector.
    auto loops = tileToLoops(rewriter, gather, sizes,
                             scf::SCFTilingOptions::LoopType::ForOp);
    if (failed(loops))
      return failure();
    if (!ShapedType::isDynamic(innermost) && innermost % vectorSize == 0)
      return success();
    auto innermostLoop = cast<scf::ForOp>(loops->back().getOperation());
    scf::ForOp partialIteration;
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, innermostLoop,
                                            partialIteration);
    return success();
  }

  /// Vectorizes a gather whose iteration space is [1, ..., 1, vectorSize]:
  /// no masks.
  LogicalResult vectorizeTile(RewriterBase &rewriter,
                              linalg::GenericOp gather) {
    Operation *tiled = gather;
    // Drop the unit dimensions first: a 1-D generic vectorizes into 1-D
    // vectors. (Vectorizing the [1, ..., 1, v] tile and then casting away the
    // leading unit dimensions trips upstream folding bugs in 22.1: invalid
    // vector.broadcast, mismatched arith operand types.)
    if (gather.getNumLoops() > 1) {
      linalg::ControlDropUnitDims control;
      control.rankReductionStrategy = linalg::ControlDropUnitDims::
          RankReductionStrategy::ExtractInsertSlice;
      rewriter.setInsertionPoint(gather);
      FailureOr<linalg::DropUnitDimsResult> dropped =
          linalg::dropUnitDims(rewriter, gather, control);
      if (failed(dropped))
        return gather->emitError("linalg-tile-and-vectorize-gathers: cannot "
                                 "drop the unit dimensions of the tile");
      rewriter.replaceOp(gather, dropped->replacements);
      tiled = dropped->resultOp;
    }
    rewriter.setInsertionPoint(tiled);
    // The explicit non-scalable flag matters: with none, the vectorizer
    // creates some vector<16xindex> types with an empty scalable-dims list
    // and others with {false}: two distinct types that print alike, and the
    // arith ops mixing them fail to verify (22.1).
    FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
        rewriter, tiled, {vectorSize}, /*inputScalableVecDims=*/{false},
        /*vectorizeNDExtract=*/true);
    if (failed(vectorized))
      return tiled->emitError("linalg-tile-and-vectorize-gathers: "
                              "vectorization failed");
    rewriter.replaceOp(tiled, vectorized->replacements);
    return success();
  }
};

} // namespace
