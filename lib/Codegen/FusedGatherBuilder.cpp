//===- FusedGatherBuilder.cpp - The loops of a gather ---------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements buildFusedGather (FusedGatherBuilder.h): FusedGatherBuilder
// builds the loop nests (serial rows, threaded rows, grouped short rows;
// scalar and vector iterations), and buildFusedGather applies a plan with
// it (the flag of threaded checks, the run-time choice of threads for
// dynamic shapes, the replacement of both generics).
//
//===----------------------------------------------------------------------===//

#include "FusedGatherBuilder.h"

#include "GatherRecognizers.h"
#include "LaneVectorizer.h"
#include "RowPrefetcher.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

using namespace mlir;
using namespace gather::codegen;

namespace {

/// What the loops of a gather carry: one tensor per result of the gather
/// (the results being written, or slices of them) and, with a check, the
/// "out of range" so far (null without check).
struct Carried {
  SmallVector<Value> outs;
  Value accumulator;

  /// `outs` then, if any, `accumulator`: what a loop or an scf.if yields.
  SmallVector<Value> toValues() const {
    SmallVector<Value> values(outs);
    if (accumulator)
      values.push_back(accumulator);
    return values;
  }

  /// The inverse of toValues for `numOuts` results.
  static Carried fromValues(ValueRange values, size_t numOuts) {
    return {llvm::to_vector(values.take_front(numOuts)),
            values.size() > numOuts ? values[numOuts] : Value()};
  }
};

/// Builds the loops of one gather and, if any, of its index check, fused:
/// every element of `indices` is read once, by the iteration that gathers
/// with it, and that iteration also ORs "out of range" into a loop-carried
/// i1 (a vector<Nxi1> in vectorized loops, reduced once per row). The
/// element computations are the bodies of the two generics: cloned for
/// scalar iterations, computed on vectors (the read of `data` as one
/// vector.gather) for vector iterations. A gather with several results
/// (consumers fused into it that yield several values) writes each of them
/// in the same iteration.
class FusedGatherBuilder {
public:
  /// The most nested serial loops over the outer dimensions (buildSerial).
  static constexpr int64_t kNestedOuterLoops = 2;

  /// `vectorSize` 0: scalar loops. `offsetBits`: of the lane offsets of
  /// the reads of `data` (GatherCodegenPlan). `groupRows`: rows shorter than
  /// `vectorSize` (static length) in groups (see RowGroups; the plan
  /// checked that they can be). `permute`: in-register gathers from the
  /// rows of `data` (GatherCodegenPlan::permute).
  /// `prefetcher` (null: none) adds its prefetches to the row loops.
  /// `blocks`: the rows in that order (static shapes; the plan checked).
  FusedGatherBuilder(OpBuilder &b, Location loc, linalg::GenericOp gather,
                     linalg::GenericOp check, int64_t vectorSize,
                     unsigned offsetBits, bool groupRows,
                     const std::optional<RowPermute> &permute,
                     RowPrefetcher *prefetcher, std::optional<RowBlocks> blocks)
      : loc(loc), gather(gather), check(check), vectorSize(vectorSize),
        prefetcher(prefetcher), blocks(blocks) {
    indices = getIndices(gather);
    indicesMap = gather.getMatchingIndexingMap(&getIndicesOperand(gather));
    data = getGatheredTensor(gather);
    auto resultType = cast<RankedTensorType>(gather.getResult(0).getType());
    rank = resultType.getRank();
    zero = arith::ConstantIndexOp::create(b, loc, 0);
    one = arith::ConstantIndexOp::create(b, loc, 1);
    // (Loop d runs over the dimension of `indices` that its map sends d to.)
    sizes.resize(rank);
    for (int64_t r = 0; r < rank; ++r)
      sizes[indicesMap.getDimPosition(r)] = getValueOrCreateConstantIndexOp(
          b, loc, tensor::getMixedSize(b, loc, indices, r));
    if (vectorSize == 0)
      return;
    SmallVector<Value> tensors = {data};
    for (OpOperand *input : getElementwiseInputs(gather))
      tensors.push_back(input->get());
    if (!indicesMap.isIdentity())
      tensors.push_back(indices);
    vectorizer.emplace(b, loc, vectorSize, tensors, zero, one, offsetBits);
    if (permute)
      vectorizer->setRowPermute(data, *permute);
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

  /// The width of the lane offsets of the vector iterations built from now
  /// on (GatherCodegenPlan::sizeGuard); no-op for scalar loops.
  void setOffsetBits(unsigned bits) {
    if (vectorizer)
      vectorizer->setOffsetBits(bits);
  }

  /// Serial loops over the rows (scf.for), writing into `inits` (one per
  /// result); `accumulator` (null without check) is the initial "out of
  /// range". Returns the results and the final "out of range".
  ///
  /// At most kNestedOuterLoops loops over the outer dimensions (those
  /// before the row, or before the rows in groups) are nested; the leading
  /// ones before them are one loop over the product of their sizes, whose
  /// induction variable is delinearized into their coordinates. Each loop
  /// carries the whole results, and one-shot bufferization computes the
  /// buffer type of a loop's value from those of its init and of its
  /// yielded value, the inner loop's, again and again: its time grows
  /// exponentially with the nesting depth (~1.6x per loop, minutes at rank
  /// 30), and stays this way linear in the rank.
  Carried buildSerial(OpBuilder &b, ValueRange inits, Value accumulator) {
    Carried carried{llvm::to_vector(inits), accumulator};
    if (blocks)
      return buildLoop(b, zero, getRowCount(b), one, carried,
                       [&](OpBuilder &lb, Value row, const Carried &carried) {
                         SmallVector<Value> outer = getBlockedRow(lb, row);
                         return buildRow(lb, outer, zero, sizes[rank - 1],
                                         carried, outer);
                       });
    int64_t outerDims = groups ? rank - 2 : rank - 1;
    int64_t leading = outerDims - kNestedOuterLoops;
    if (leading < 2) {
      SmallVector<Value> outer;
      return buildSerialLevel(b, 0, outer, carried);
    }
    Value count = sizes[0];
    for (Value size : ArrayRef<Value>(sizes).slice(1, leading - 1))
      count = arith::MulIOp::create(b, loc, count, size);
    return buildLoop(b, zero, count, one, carried,
                     [&](OpBuilder &lb, Value iv, const Carried &carried) {
                       // Row-major: the last leading dimension varies fastest.
                       // (No size is 0 here: buildFusedGather skips empty
                       // iteration spaces.)
                       SmallVector<Value> outer(leading);
                       Value rest = iv;
                       for (int64_t d = leading - 1; d > 0; --d) {
                         outer[d] =
                             arith::RemUIOp::create(lb, loc, rest, sizes[d]);
                         rest = arith::DivUIOp::create(lb, loc, rest, sizes[d]);
                       }
                       outer[0] = rest;
                       return buildSerialLevel(lb, leading, outer, carried);
                     });
  }

  /// Threads: one scf.forall over the rows (chunks of `chunk` elements for
  /// rank 1), writing into `inits`. A row that finds a value out of range
  /// sets `flag` (a memref<i8>, zeroed here) with an atomic or; returns the
  /// results and "any out of range" (null without check).
  Carried buildThreaded(OpBuilder &b, ValueRange inits, Value flag,
                        int64_t chunk) {
    if (check)
      memref::StoreOp::create(b, loc,
                              arith::ConstantIntOp::create(b, loc, 0, 8), flag,
                              ValueRange{});
    scf::ForallOp forall;
    if (blocks) {
      // (The rows in the order of the blocks.)
      forall = scf::ForallOp::create(
          b, loc, ArrayRef<OpFoldResult>{getAsOpFoldResult(getRowCount(b))},
          inits, std::nullopt);
    } else if (groups) {
      // (The outer dimensions, the groups of rows.)
      SmallVector<OpFoldResult> upperBounds;
      for (int64_t d = 0; d + 2 < rank; ++d)
        upperBounds.push_back(getAsOpFoldResult(sizes[d]));
      upperBounds.push_back(getAsOpFoldResult(arith::CeilDivUIOp::create(
          b, loc, sizes[rank - 2],
          arith::ConstantIndexOp::create(b, loc, groups->rows))));
      forall = scf::ForallOp::create(b, loc, upperBounds, inits, std::nullopt);
    } else if (rank == 1) {
      forall = scf::ForallOp::create(
          b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{getAsOpFoldResult(sizes[0])},
          ArrayRef<OpFoldResult>{b.getIndexAttr(chunk)}, inits, std::nullopt);
    } else {
      SmallVector<OpFoldResult> upperBounds;
      for (int64_t d = 0; d + 1 < rank; ++d)
        upperBounds.push_back(getAsOpFoldResult(sizes[d]));
      forall = scf::ForallOp::create(b, loc, upperBounds, inits, std::nullopt);
    }
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forall.getTerminator());
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
    } else if (blocks) {
      outer = getBlockedRow(b, forall.getInductionVars()[0]);
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
    Carried rows;
    for (Value shared : forall.getRegionIterArgs())
      rows.outs.push_back(
          extractSlice(b, shared, offsets, sliceSizes, groups ? 2 : 1));
    if (check)
      rows.accumulator = arith::ConstantIntOp::create(b, loc, 0, 1);
    Carried newRows = groups ? buildGroupSlice(b, outer, group, rows, groupRows)
                             : buildRow(b, outer, start, length, rows, {});
    return finishForall(b, forall, newRows, getAsOpFoldResult(offsets),
                        sliceSizes, flag);
  }

  /// The tiles of a transposing consumer (GatherCodegenPlan::tileDim,
  /// `dim`): one loop over the dimensions but `dim`, the innermost in steps
  /// of `blockRows` (GatherCodegenPlan::tileBlockRows; an scf.forall with
  /// `threaded`, flagging `flag` as buildThreaded does; else one scf.for
  /// carrying `accumulator`), each iteration the tiles of its slice of the
  /// results ([size of `dim`, blockRows]), writing into `inits`. Returns
  /// the results and "any out of range" (null without check).
  Carried buildTiles(OpBuilder &b, ValueRange inits, int64_t dim,
                     int64_t blockRows, bool threaded, Value flag,
                     Value accumulator) {
    // The loop's dimensions and extents (`across` in blocks); the inner
    // loop runs over the tiles of `inner`. (The other way round, the tiles
    // of a slice would read `data` across all its rows each: measured
    // 1.5x slower; docs/CodeShape.md, "Transposing consumers".)
    const int64_t inner = dim, across = rank - 1;
    SmallVector<int64_t> loopDims;
    SmallVector<Value> extents;
    Value block = arith::ConstantIndexOp::create(b, loc, blockRows);
    for (int64_t d = 0; d < rank; ++d) {
      if (d == inner)
        continue;
      loopDims.push_back(d);
      // (The tiled sizes are static: GatherCodegenPlan::tileDim.)
      extents.push_back(
          d == across ? arith::ConstantIndexOp::create(
                            b, loc, *getConstantIntValue(sizes[d]) / blockRows)
                      : sizes[d]);
    }
    SmallVector<OpFoldResult> sliceSizes(rank, b.getIndexAttr(1));
    sliceSizes[inner] = getAsOpFoldResult(sizes[inner]);
    sliceSizes[across] = b.getIndexAttr(blockRows);
    SmallVector<int64_t> sliceShape = {*getConstantIntValue(sizes[inner]),
                                       blockRows};
    SmallVector<OpFoldResult> unitStrides(rank, b.getIndexAttr(1));
    // The iteration at `ivs` (one per loop dimension) of the loop: the
    // corner of its slices of the outs of `outs`, and the slices after its
    // tiles with, with a check, "out of range" in one of them (an i1).
    auto tileRow = [&](OpBuilder &lb, ArrayRef<Value> ivs, ValueRange outs) {
      SmallVector<Value> corner(rank, zero);
      for (auto [d, iv] : llvm::zip(loopDims, ivs))
        corner[d] =
            d == across ? arith::MulIOp::create(lb, loc, iv, block) : iv;
      Carried slices{{}, check ? getNoLanesOutOfRange(lb) : Value()};
      for (Value out : outs) {
        auto type =
            RankedTensorType::get(sliceShape, getElementTypeOrSelf(out));
        slices.outs.push_back(tensor::ExtractSliceOp::create(
            lb, loc, type, out, getAsOpFoldResult(corner), sliceSizes,
            unitStrides));
      }
      Carried tiled = blockRows == vectorSize
                          ? buildTileStrip(lb, dim, corner, slices)
                          : buildTileBlock(lb, dim, blockRows, corner, slices);
      if (check)
        tiled.accumulator = vector::ReductionOp::create(
            lb, loc, vector::CombiningKind::OR, tiled.accumulator);
      return std::make_pair(corner, tiled);
    };
    if (!threaded) {
      Value count = extents.front();
      for (Value extent : ArrayRef<Value>(extents).drop_front())
        count = arith::MulIOp::create(b, loc, count, extent);
      return buildLoop(
          b, zero, count, one, Carried{llvm::to_vector(inits), accumulator},
          [&](OpBuilder &lb, Value iv, const Carried &carried) {
            // Row-major: the innermost varies fastest.
            SmallVector<Value> ivs(extents.size());
            Value rest = iv;
            for (size_t i = extents.size() - 1; i > 0; --i) {
              ivs[i] = arith::RemUIOp::create(lb, loc, rest, extents[i]);
              rest = arith::DivUIOp::create(lb, loc, rest, extents[i]);
            }
            ivs[0] = rest;
            auto [corner, tiled] = tileRow(lb, ivs, carried.outs);
            Carried next{{},
                         check ? arith::OrIOp::create(lb, loc,
                                                      carried.accumulator,
                                                      tiled.accumulator)
                                     .getResult()
                               : Value()};
            for (auto [slice, out] : llvm::zip(tiled.outs, carried.outs))
              next.outs.push_back(tensor::InsertSliceOp::create(
                  lb, loc, slice, out, getAsOpFoldResult(corner), sliceSizes,
                  unitStrides));
            return next;
          });
    }
    if (check)
      memref::StoreOp::create(b, loc,
                              arith::ConstantIntOp::create(b, loc, 0, 8), flag,
                              ValueRange{});
    auto forall = scf::ForallOp::create(b, loc, getAsOpFoldResult(extents),
                                        inits, std::nullopt);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forall.getTerminator());
    auto [corner, tiled] =
        tileRow(b, forall.getInductionVars(), forall.getRegionIterArgs());
    return finishForall(b, forall, tiled, getAsOpFoldResult(corner), sliceSizes,
                        flag);
  }

private:
  /// The end of the body of `forall` (the insertion point of `b`, before
  /// its terminator) whose iteration computed `slices` (of the shared outs,
  /// at `offsets` of `sizes`) and, with a check, "out of range" in them (an
  /// i1): `flag` set with an atomic or if so, the slices inserted in
  /// parallel. Returns the results of `forall` and, with a check, "any out
  /// of range" (`flag` loaded after it). The insertion point of `b` ends
  /// after `forall`.
  Carried finishForall(OpBuilder &b, scf::ForallOp forall,
                       const Carried &slices, ArrayRef<OpFoldResult> offsets,
                       ArrayRef<OpFoldResult> sizes, Value flag) {
    if (check) {
      scf::IfOp::create(
          b, loc, slices.accumulator, [&](OpBuilder &nb, Location nl) {
            memref::AtomicRMWOp::create(
                nb, nl, arith::AtomicRMWKind::ori,
                arith::ConstantIntOp::create(nb, nl, 1, 8), flag, ValueRange{});
            scf::YieldOp::create(nb, nl);
          });
    }
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    SmallVector<OpFoldResult> unitStrides(sizes.size(), b.getIndexAttr(1));
    for (auto [slice, shared] :
         llvm::zip(slices.outs, forall.getRegionIterArgs()))
      tensor::ParallelInsertSliceOp::create(b, loc, slice, shared, offsets,
                                            sizes, unitStrides);
    b.setInsertionPointAfter(forall);
    Carried results{SmallVector<Value>(forall.getResults()), Value()};
    if (check) {
      Value flagValue = memref::LoadOp::create(b, loc, flag, ValueRange{});
      results.accumulator =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, flagValue,
                                arith::ConstantIntOp::create(b, loc, 0, 8));
    }
    return results;
  }

  /// The tiles of one strip of N rows of `indices` (the slices of
  /// `carried` at `corner`, [size of `dim`, N]) along `dim`, each gathering
  /// as it goes.
  Carried buildTileStrip(OpBuilder &b, int64_t dim, ArrayRef<Value> corner,
                         const Carried &carried) {
    Value tile = arith::ConstantIndexOp::create(b, loc, vectorSize);
    return buildLoop(
        b, zero,
        arith::ConstantIndexOp::create(
            b, loc, *getConstantIntValue(sizes[dim]) / vectorSize),
        one, carried, [&](OpBuilder &tb, Value t, const Carried &slices) {
          SmallVector<Value> tileCorner(corner);
          tileCorner[dim] = arith::MulIOp::create(tb, loc, t, tile);
          SmallVector<Value> reads;
          Carried next = slices;
          for (int64_t k = 0; k < vectorSize; ++k)
            reads.push_back(buildTileRead(
                tb, dim, tileCorner, arith::ConstantIndexOp::create(tb, loc, k),
                next.accumulator));
          // (In the slice: the tile's rows along `dim`, from column 0.)
          return buildTileRest(tb, dim, tileCorner, {tileCorner[dim], zero},
                               transposeInRegisters(tb, reads), next);
        });
  }

  /// The tiles of one block of `blockRows` rows of `indices` (the slices
  /// of `carried` at `corner`, [size of `dim`, blockRows]) in two passes:
  /// each row of the block along its length into a scratch tensor (the
  /// part of the body up to the read of `data`; contiguous reads of
  /// `indices` that the hardware prefetchers follow), then the tiles along
  /// `dim` (the rows of the result), each reading its N vectors from the
  /// scratch tensor.
  Carried buildTileBlock(OpBuilder &b, int64_t dim, int64_t blockRows,
                         ArrayRef<Value> corner, const Carried &carried) {
    Operation *read = findGatherDataRead(gather)->read;
    Type element = read->getResult(0).getType();
    int64_t length = *getConstantIntValue(sizes[dim]);
    Value tile = arith::ConstantIndexOp::create(b, loc, vectorSize);
    Value scratch = tensor::EmptyOp::create(
                        b, loc, ArrayRef<int64_t>{blockRows, length}, element)
                        .getResult();
    Carried gathered = buildLoop(
        b, zero, arith::ConstantIndexOp::create(b, loc, blockRows), one,
        Carried{{scratch}, carried.accumulator},
        [&](OpBuilder &rb, Value row, const Carried &rowCarried) {
          return buildLoop(
              rb, zero, arith::ConstantIndexOp::create(rb, loc, length), tile,
              rowCarried,
              [&](OpBuilder &cb, Value column, const Carried &columnCarried) {
                SmallVector<Value> at(corner);
                at[dim] = column;
                Carried next = columnCarried;
                Value value = buildTileRead(cb, dim, at, row, next.accumulator);
                next.outs.front() =
                    vector::TransferWriteOp::create(
                        cb, loc, value, next.outs.front(),
                        ValueRange{row, column}, ArrayRef<bool>{true})
                        .getResult();
                return next;
              });
        });
    scratch = gathered.outs.front();
    Value tiles = arith::ConstantIndexOp::create(b, loc, length / vectorSize);
    Value strips =
        arith::ConstantIndexOp::create(b, loc, blockRows / vectorSize);
    Value padding = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
    auto vectorType = VectorType::get({vectorSize}, element);
    return buildLoop(
        b, zero, tiles, one, Carried{carried.outs, gathered.accumulator},
        [&](OpBuilder &tb, Value t, const Carried &tileCarried) {
          Value column = arith::MulIOp::create(tb, loc, t, tile);
          return buildLoop(
              tb, zero, strips, one, tileCarried,
              [&](OpBuilder &sb, Value u, const Carried &slices) {
                Value first = arith::MulIOp::create(sb, loc, u, tile);
                SmallVector<Value> reads;
                for (int64_t k = 0; k < vectorSize; ++k) {
                  Value row = arith::AddIOp::create(
                      sb, loc, first,
                      arith::ConstantIndexOp::create(sb, loc, k));
                  reads.push_back(vector::TransferReadOp::create(
                      sb, loc, vectorType, scratch, ValueRange{row, column},
                      padding, ArrayRef<bool>{true}));
                }
                SmallVector<Value> tileCorner(corner);
                tileCorner[dim] = column;
                tileCorner[rank - 1] =
                    arith::AddIOp::create(sb, loc, corner[rank - 1], first);
                return buildTileRest(sb, dim, tileCorner, {column, first},
                                     transposeInRegisters(sb, reads), slices);
              });
        });
  }

  /// Whether an input of the body is read by the ops of the read of data
  /// (`before`) or by the rest.
  bool isUsedBy(OpOperand *input, bool before) {
    SetVector<Operation *> readOps = getOpsOfDataRead(gather);
    BlockArgument argument =
        gather.getBody()->getArgument(input->getOperandNumber());
    return llvm::any_of(argument.getUsers(), [&](Operation *user) {
      return readOps.contains(user) == before;
    });
  }

  /// The inputs of the body at `coordinates`, each read only where the
  /// part (`before` the read of data, or the rest) uses it: zeros for the
  /// others.
  SmallVector<LaneValue> getTileInputs(OpBuilder &b, LaneValue index,
                                       ArrayRef<LaneValue> coordinates,
                                       bool before) {
    return getInputValues<LaneValue>(
        index, coordinates,
        [&](OpOperand *input, ArrayRef<LaneValue> at) -> LaneValue {
          if (isUsedBy(input, before))
            return {LaneValue::Kind::Varying,
                    vectorizer->readLanes(b, input->get(), at)};
          return {
              LaneValue::Kind::Uniform,
              arith::ConstantOp::create(
                  b, loc, b.getZeroAttr(getElementTypeOrSelf(input->get())))};
        });
  }

  /// The coordinates of N elements of a tile at `corner`: lanes along
  /// `laneDim` from the corner, `offset` (an index) from it in the other
  /// tiled dimension (of `dim` and the innermost).
  SmallVector<LaneValue> getTileCoordinates(OpBuilder &b, int64_t dim,
                                            ArrayRef<Value> corner,
                                            int64_t laneDim, Value offset) {
    int64_t otherDim = laneDim == dim ? rank - 1 : dim;
    SmallVector<LaneValue> coordinates;
    for (int64_t d = 0; d < rank; ++d)
      coordinates.push_back(
          d == laneDim ? vectorizer->getLanePositions(b, corner[d])
          : d == otherDim
              ? LaneValue{LaneValue::Kind::Uniform,
                          arith::AddIOp::create(b, loc, corner[d], offset)}
              : LaneValue{LaneValue::Kind::Uniform, corner[d]});
    return coordinates;
  }

  /// The part of the body up to the read of `data` on N elements of a
  /// tile at `corner`: lanes along `dim` (a contiguous read of index
  /// values along a row of `indices`), row `row` (an index) of the tile.
  /// ORs the lanes' "out of range" into `accumulator` (when not null).
  Value buildTileRead(OpBuilder &b, int64_t dim, ArrayRef<Value> corner,
                      Value row, Value &accumulator) {
    Operation *read = findGatherDataRead(gather)->read;
    SmallVector<LaneValue> coordinates =
        getTileCoordinates(b, dim, corner, dim, row);
    LaneValue index = {
        LaneValue::Kind::Varying,
        vectorizer->readLanes(b, indices,
                              applyIndicesMap<LaneValue>(coordinates))};
    Value value =
        vectorizer
            ->vectorizeBody(b, gather.getBody(),
                            getTileInputs(b, index, coordinates, true),
                            coordinates, {read, nullptr, Value()})
            .front();
    if (accumulator)
      accumulator =
          vectorizer
              ->vectorizeBody(b, check.getBody(),
                              {index, {LaneValue::Kind::Varying, accumulator}},
                              coordinates)
              .front();
    return value;
  }

  /// The rest of the body of a tile at `corner` (of the iteration space)
  /// on its read values `transposed` (vector j: position j of `dim` in the
  /// tile, lanes along the innermost dimension), stored along the rows of
  /// the slices of `carried` (the tile at `inSlice`). Returns the new
  /// slices.
  Carried buildTileRest(OpBuilder &b, int64_t dim, ArrayRef<Value> corner,
                        ArrayRef<Value> inSlice, ArrayRef<Value> transposed,
                        Carried carried) {
    Operation *read = findGatherDataRead(gather)->read;
    Type indexType = getElementTypeOrSelf(indices.getType());
    LaneValue noIndex = {
        LaneValue::Kind::Uniform,
        arith::ConstantOp::create(b, loc, b.getZeroAttr(indexType))};
    for (int64_t j = 0; j < vectorSize; ++j) {
      SmallVector<LaneValue> coordinates = getTileCoordinates(
          b, dim, corner, rank - 1, arith::ConstantIndexOp::create(b, loc, j));
      SmallVector<Value> elements = vectorizer->vectorizeBody(
          b, gather.getBody(), getTileInputs(b, noIndex, coordinates, false),
          coordinates, {nullptr, read, transposed[j]});
      Value row = arith::AddIOp::create(
          b, loc, inSlice[0], arith::ConstantIndexOp::create(b, loc, j));
      for (auto [element, out] : llvm::zip(elements, carried.outs))
        out = vector::TransferWriteOp::create(b, loc, element, out,
                                              ValueRange{row, inSlice[1]},
                                              ArrayRef<bool>{true})
                  .getResult();
    }
    return carried;
  }

  /// The N vectors of N lanes `rows` transposed (N a power of two): lane i
  /// of result j is lane j of rows[i]. log2(N) rounds of N vector.shuffle
  /// ops, each interleaving rows i and i + N/2 (a perfect shuffle), as
  /// target-independent shuffles that the backends lower to their unpack
  /// and permute instructions.
  SmallVector<Value> transposeInRegisters(OpBuilder &b,
                                          ArrayRef<Value> rows) const {
    int64_t n = rows.size(), half = n / 2;
    SmallVector<int64_t> low, high;
    for (int64_t j = 0; j < half; ++j) {
      low.append({j, n + j});
      high.append({half + j, n + half + j});
    }
    SmallVector<Value> current(rows);
    for (int64_t round = 1; round < n; round *= 2) {
      SmallVector<Value> next;
      for (int64_t i = 0; i < half; ++i) {
        next.push_back(vector::ShuffleOp::create(b, loc, current[i],
                                                 current[i + half], low));
        next.push_back(vector::ShuffleOp::create(b, loc, current[i],
                                                 current[i + half], high));
      }
      current = std::move(next);
    }
    return current;
  }

  /// The number of rows (the product of the sizes but the innermost).
  Value getRowCount(OpBuilder &b) const {
    Value count = one;
    for (Value size : ArrayRef<Value>(sizes).drop_back())
      count = arith::MulIOp::create(b, loc, count, size);
    return count;
  }

  /// The coordinates before the innermost one of the row that comes
  /// `row`-th in the order of `blocks` (RowBlocks: dimensions 0 .. axis-1,
  /// the block of `dim`, dimensions axis .. dim-1, the position in the
  /// block, dimensions dim+1 .. rank-2; the last varies fastest).
  SmallVector<Value> getBlockedRow(OpBuilder &b, Value row) const {
    auto size = [&](int64_t d) { return *getConstantIntValue(sizes[d]); };
    // (dimension, extent, whether it is the block of `dim`), innermost
    // first.
    SmallVector<std::tuple<int64_t, int64_t, bool>> levels;
    for (int64_t d = rank - 2; d > blocks->dim; --d)
      levels.push_back({d, size(d), false});
    levels.push_back({blocks->dim, blocks->size, false});
    for (int64_t d = blocks->dim - 1; d >= blocks->axis; --d)
      levels.push_back({d, size(d), false});
    levels.push_back({blocks->dim, size(blocks->dim) / blocks->size, true});
    for (int64_t d = blocks->axis - 1; d >= 0; --d)
      levels.push_back({d, size(d), false});
    SmallVector<Value> outer(rank - 1, zero);
    Value rest = row;
    for (auto [i, level] : llvm::enumerate(levels)) {
      auto [d, extent, isBlock] = level;
      Value coordinate = rest;
      if (i + 1 < levels.size()) {
        Value extentValue = arith::ConstantIndexOp::create(b, loc, extent);
        coordinate = arith::RemUIOp::create(b, loc, rest, extentValue);
        rest = arith::DivUIOp::create(b, loc, rest, extentValue);
      }
      if (isBlock)
        coordinate = arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(
                b, loc, coordinate,
                arith::ConstantIndexOp::create(b, loc, blocks->size)),
            outer[d]);
      outer[d] = coordinate;
    }
    return outer;
  }

  /// An scf.for from `lower` to `upper` by `step` carrying `carried`;
  /// `body(builder, iv, carried)` returns its next values. Returns its
  /// final values.
  template <typename Body>
  Carried buildLoop(OpBuilder &b, Value lower, Value upper, Value step,
                    const Carried &carried, Body body) {
    size_t numOuts = carried.outs.size();
    auto loop = scf::ForOp::create(
        b, loc, lower, upper, step, carried.toValues(),
        [&](OpBuilder &lb, Location, Value iv, ValueRange args) {
          Carried next = body(lb, iv, Carried::fromValues(args, numOuts));
          scf::YieldOp::create(lb, loc, next.toValues());
        });
    return Carried::fromValues(loop.getResults(), numOuts);
  }

  Carried buildSerialLevel(OpBuilder &b, int64_t d, SmallVector<Value> &outer,
                           const Carried &carried) {
    if (groups && d + 2 >= rank)
      return buildGroupedRows(b, outer, carried);
    if (d + 1 >= rank)
      return buildRow(b, outer, zero, sizes[rank - 1], carried, outer);
    return buildLoop(b, zero, sizes[d], one, carried,
                     [&](OpBuilder &lb, Value iv, const Carried &carried) {
                       outer.push_back(iv);
                       Carried results =
                           buildSerialLevel(lb, d + 1, outer, carried);
                       outer.pop_back();
                       return results;
                     });
  }

  /// Elements [start, start + length) of the row at `outer` (the
  /// coordinates before the innermost one) into the outs of `carried` at
  /// [outPrefix..., 0 .. length): vectors of vectorSize, then scalars for
  /// the rest.
  Carried buildRow(OpBuilder &b, ArrayRef<Value> outer, Value start,
                   Value length, Carried carried, ArrayRef<Value> outPrefix) {
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
      Carried lanes{carried.outs,
                    carried.accumulator ? getNoLanesOutOfRange(b) : Value()};
      Carried vectors = buildLoop(
          b, zero, vectorEnd,
          arith::ConstantIndexOp::create(b, loc, vectorSize), lanes,
          [&](OpBuilder &lb, Value position, const Carried &lanes) {
            Value column = arith::AddIOp::create(lb, loc, start, position);
            if (prefetcher)
              prefetcher->emitForElements(lb, outer, column, vectorSize);
            SmallVector<Value> indexCoordinates(outer);
            indexCoordinates.push_back(column);
            SmallVector<LaneValue> coordinates;
            for (Value coordinate : outer)
              coordinates.push_back({LaneValue::Kind::Uniform, coordinate});
            coordinates.push_back(vectorizer->getLanePositions(lb, column));
            SmallVector<Value> outCoordinates(outPrefix);
            outCoordinates.push_back(position);
            return buildVectorIteration(lb, indices, indexCoordinates,
                                        coordinates, lanes, outCoordinates);
          });
      carried.outs = vectors.outs;
      if (carried.accumulator)
        carried.accumulator =
            orLanes(b, carried.accumulator, vectors.accumulator);
      if (staticLength && *staticLength % vectorSize == 0)
        return carried;
      lower = vectorEnd;
    }
    return buildLoop(
        b, lower, length, one, carried,
        [&](OpBuilder &lb, Value position, const Carried &carried) {
          SmallVector<Value> coordinates(outer);
          coordinates.push_back(
              arith::AddIOp::create(lb, loc, start, position));
          if (prefetcher && vectorSize == 0)
            prefetcher->emitForScalar(lb, outer, coordinates.back());
          SmallVector<Value> outCoordinates(outPrefix);
          outCoordinates.push_back(position);
          return buildScalarIteration(lb, indices, coordinates, coordinates,
                                      carried, outCoordinates);
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
        b, loc, RankedTensorType::get(shape, getElementTypeOrSelf(tensor)),
        tensor, getAsOpFoldResult(offsets), sizes, unitStrides);
  }

  /// The rows at `outer` (the coordinates before the two innermost) of the
  /// outs of `carried`: whole groups of R rows as vectors, then the rows
  /// left (fewer than R) as scalars.
  Carried buildGroupedRows(OpBuilder &b, ArrayRef<Value> outer,
                           const Carried &carried) {
    Value rowsPerGroup = arith::ConstantIndexOp::create(b, loc, groups->rows);
    Value wholeGroups =
        arith::DivUIOp::create(b, loc, sizes[rank - 2], rowsPerGroup);
    Carried grouped = buildLoop(
        b, zero, wholeGroups, one, carried,
        [&](OpBuilder &lb, Value group, const Carried &carried) {
          SmallVector<Value> offsets(outer);
          offsets.push_back(
              arith::MulIOp::create(lb, loc, group, rowsPerGroup));
          offsets.push_back(zero);
          SmallVector<OpFoldResult> sliceSizes(rank - 2, lb.getIndexAttr(1));
          sliceSizes.push_back(lb.getIndexAttr(groups->rows));
          sliceSizes.push_back(lb.getIndexAttr(groups->length));
          Carried slices{{}, carried.accumulator};
          for (Value out : carried.outs)
            slices.outs.push_back(
                extractSlice(lb, out, offsets, sliceSizes, 2));
          Carried newSlices =
              buildGroupSlice(lb, outer, group, slices, rowsPerGroup);
          SmallVector<OpFoldResult> unitStrides(rank, lb.getIndexAttr(1));
          Carried next{{}, newSlices.accumulator};
          for (auto [newSlice, out] : llvm::zip(newSlices.outs, carried.outs))
            next.outs.push_back(tensor::InsertSliceOp::create(
                lb, loc, newSlice, out, getAsOpFoldResult(offsets), sliceSizes,
                unitStrides));
          return next;
        });
    Value firstLeft = arith::MulIOp::create(b, loc, wholeGroups, rowsPerGroup);
    return buildScalarRows(b, outer, firstLeft, sizes[rank - 2], grouped, outer,
                           zero);
  }

  /// Group `group` of the rows at `outer`: `rows` rows (R, or fewer for the
  /// last group) in the outs of `slices` (tensors of [rows, L]); K vectors
  /// when the group is whole, scalars otherwise. Returns the new slices
  /// and, with a check, the accumulator ORed with "out of range".
  Carried buildGroupSlice(OpBuilder &b, ArrayRef<Value> outer, Value group,
                          const Carried &slices, Value rows) {
    SmallVector<ReassociationIndices> merge = {{0, 1}};
    auto vectors = [&](OpBuilder &nb) {
      Carried flat{{}, slices.accumulator ? getNoLanesOutOfRange(nb) : Value()};
      for (Value slice : slices.outs)
        flat.outs.push_back(
            tensor::CollapseShapeOp::create(nb, loc, slice, merge));
      Carried results = buildGroup(nb, outer, group, flat);
      for (auto [result, slice] : llvm::zip(results.outs, slices.outs))
        result = tensor::ExpandShapeOp::create(nb, loc, slice.getType(), result,
                                               merge);
      if (slices.accumulator)
        results.accumulator =
            orLanes(nb, slices.accumulator, results.accumulator);
      return results;
    };
    if (isConstantIntValue(getAsOpFoldResult(rows), groups->rows))
      return vectors(b);
    Value whole = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, rows,
        arith::ConstantIndexOp::create(b, loc, groups->rows));
    auto ifOp = scf::IfOp::create(
        b, loc, whole,
        [&](OpBuilder &nb, Location) {
          scf::YieldOp::create(nb, loc, vectors(nb).toValues());
        },
        [&](OpBuilder &nb, Location) {
          Value firstRow = arith::MulIOp::create(
              nb, loc, group,
              arith::ConstantIndexOp::create(nb, loc, groups->rows));
          Carried scalars =
              buildScalarRows(nb, outer, firstRow,
                              arith::AddIOp::create(nb, loc, firstRow, rows),
                              slices, {}, firstRow);
          scf::YieldOp::create(nb, loc, scalars.toValues());
        });
    return Carried::fromValues(ifOp.getResults(), slices.outs.size());
  }

  /// The K vectors of whole group `group` of the rows at `outer`, read from
  /// the flattened `indices` and written into the outs of `carried` (the
  /// group's G elements each). Returns them and, with a check, the lanes'
  /// "out of range" ORed into its accumulator (a vector<Nxi1>).
  Carried buildGroup(OpBuilder &b, ArrayRef<Value> outer, Value group,
                     Carried carried) {
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
      carried = buildVectorIteration(b, flatIndices, indexCoordinates,
                                     coordinates, carried, {offset});
    }
    return carried;
  }

  /// Rows [firstRow, lastRow) at `outer` as scalars (rows shorter than a
  /// vector), written into the outs of `carried` at [outPrefix...,
  /// row - rowShift, 0 .. L).
  Carried buildScalarRows(OpBuilder &b, ArrayRef<Value> outer, Value firstRow,
                          Value lastRow, const Carried &carried,
                          ArrayRef<Value> outPrefix, Value rowShift) {
    return buildLoop(b, firstRow, lastRow, one, carried,
                     [&](OpBuilder &lb, Value row, const Carried &carried) {
                       SmallVector<Value> rowOuter(outer);
                       rowOuter.push_back(row);
                       SmallVector<Value> rowPrefix(outPrefix);
                       rowPrefix.push_back(
                           arith::SubIOp::create(lb, loc, row, rowShift));
                       return buildRow(lb, rowOuter, zero, sizes[rank - 1],
                                       carried, rowPrefix);
                     });
  }

  /// One element at `coordinates` (of the iteration space): its index
  /// value read from `indexTensor` (`indices` or a reshape of it) at
  /// `indexCoordinates`, the gather's body, each of its results inserted
  /// into its out at `outCoordinates`, then the check's body on the same
  /// index value.
  Carried buildScalarIteration(OpBuilder &b, Value indexTensor,
                               ArrayRef<Value> indexCoordinates,
                               ArrayRef<Value> coordinates,
                               const Carried &carried,
                               ArrayRef<Value> outCoordinates) {
    SmallVector<Value> permuted;
    if (!indicesMap.isIdentity()) {
      // (The loops follow a transposing consumer.)
      permuted = applyIndicesMap(coordinates);
      indexCoordinates = permuted;
    }
    Value index =
        tensor::ExtractOp::create(b, loc, indexTensor, indexCoordinates);
    SmallVector<Value> inputs = getInputValues<Value>(
        index, coordinates, [&](OpOperand *input, ArrayRef<Value> at) -> Value {
          return tensor::ExtractOp::create(b, loc, input->get(), at);
        });
    SmallVector<Value> elements =
        cloneBody(b, gather.getBody(), inputs, coordinates);
    Carried results;
    for (auto [element, out] : llvm::zip(elements, carried.outs))
      results.outs.push_back(
          tensor::InsertOp::create(b, loc, element, out, outCoordinates));
    if (carried.accumulator)
      results.accumulator = cloneBody(b, check.getBody(),
                                      {index, carried.accumulator}, coordinates)
                                .front();
    return results;
  }

  /// The values of the gather's inputs at the element at `coordinates` (of
  /// the iteration space), in operand order: `index` for `indices`,
  /// `read(input, coordinates of its tensor)` for the elementwise inputs
  /// (their indexing maps are projected permutations).
  template <typename T, typename Read>
  SmallVector<T> getInputValues(T index, ArrayRef<T> coordinates, Read read) {
    SmallVector<T> values;
    OpOperand *indicesOperand = &getIndicesOperand(gather);
    for (OpOperand *input : gather.getDpsInputOperands())
      values.push_back(
          input == indicesOperand
              ? index
              : read(input,
                     applyProjectedPermutation(
                         gather.getMatchingIndexingMap(input), coordinates)));
    return values;
  }

  /// The results of projected permutation `map` at `coordinates`: the
  /// coordinates of a tensor read through it. (mlir::applyPermutationMap
  /// needs a T that an integer converts to.)
  template <typename T>
  static SmallVector<T> applyProjectedPermutation(AffineMap map,
                                                  ArrayRef<T> coordinates) {
    return llvm::map_to_vector(
        llvm::seq<unsigned>(0, map.getNumResults()),
        [&](unsigned r) { return coordinates[map.getDimPosition(r)]; });
  }

  /// The coordinates in `indices` of the element at `coordinates` (of the
  /// iteration space), through the indices' map (a permutation).
  template <typename T>
  SmallVector<T> applyIndicesMap(ArrayRef<T> coordinates) const {
    return applyProjectedPermutation(indicesMap, coordinates);
  }

  /// The ops of `body` with its arguments replaced by `arguments` and
  /// linalg.index d by `coordinates[d]`; returns the yielded values.
  SmallVector<Value> cloneBody(OpBuilder &b, Block *body, ValueRange arguments,
                               ArrayRef<Value> coordinates) {
    IRMapping mapping;
    mapping.map(body->getArguments().take_front(arguments.size()), arguments);
    for (Operation &op : body->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(op))
        mapping.map(index.getResult(), coordinates[index.getDim()]);
      else
        b.clone(op, mapping);
    }
    return llvm::map_to_vector(
        body->getTerminator()->getOperands(),
        [&](Value yielded) { return mapping.lookupOrDefault(yielded); });
  }

  /// vectorSize elements, at `coordinates` (of the iteration space, one per
  /// dimension): one read of their index values (a vector.transfer_read of
  /// `indexTensor` at `indexCoordinates`; `indices` or a reshape of it
  /// whose innermost dimension holds the lanes contiguously), the gather's
  /// body on vectors, one vector.transfer_write per result into its out at
  /// `outCoordinates`, the check's body on the same vector of index values.
  Carried buildVectorIteration(OpBuilder &b, Value indexTensor,
                               ArrayRef<Value> indexCoordinates,
                               ArrayRef<LaneValue> coordinates,
                               const Carried &carried,
                               ArrayRef<Value> outCoordinates) {
    Value index;
    if (!indicesMap.isIdentity()) {
      // (The loops follow a transposing consumer: the lanes lie across rows
      // of `indices`.)
      index = vectorizer->readLanes(b, indices, applyIndicesMap(coordinates));
    } else {
      Type indexType = getElementTypeOrSelf(indices.getType());
      Value padding =
          arith::ConstantOp::create(b, loc, b.getZeroAttr(indexType));
      index = vector::TransferReadOp::create(
          b, loc, VectorType::get({vectorSize}, indexType), indexTensor,
          indexCoordinates, padding, ArrayRef<bool>{true});
    }
    LaneValue indexLanes = {LaneValue::Kind::Varying, index};
    SmallVector<LaneValue> inputs = getInputValues<LaneValue>(
        indexLanes, coordinates,
        [&](OpOperand *input, ArrayRef<LaneValue> at) -> LaneValue {
          return {LaneValue::Kind::Varying,
                  vectorizer->readLanes(b, input->get(), at)};
        });
    SmallVector<Value> elements =
        vectorizer->vectorizeBody(b, gather.getBody(), inputs, coordinates);
    Carried results;
    for (auto [element, out] : llvm::zip(elements, carried.outs))
      results.outs.push_back(
          vector::TransferWriteOp::create(b, loc, element, out, outCoordinates,
                                          ArrayRef<bool>{true})
              .getResult());
    if (carried.accumulator)
      results.accumulator =
          vectorizer
              ->vectorizeBody(
                  b, check.getBody(),
                  {indexLanes, {LaneValue::Kind::Varying, carried.accumulator}},
                  coordinates)
              .front();
    return results;
  }

  Location loc;
  linalg::GenericOp gather, check;
  int64_t vectorSize;
  RowPrefetcher *prefetcher; // Null: no prefetches.
  std::optional<RowBlocks> blocks;
  Value indices, flatIndices, data, zero, one;
  /// The map of `indices`: the identity, or the permutation of a transposing
  /// consumer (GatherCodegenPlan::transposed).
  AffineMap indicesMap;
  int64_t rank;
  SmallVector<Value> sizes;
  std::optional<LaneVectorizer> vectorizer; // Without vectors: none.
  std::optional<RowGroups> groups;
};

} // namespace

void gather::codegen::buildFusedGather(RewriterBase &rewriter,
                                       linalg::GenericOp gather,
                                       const GatherCodegenPlan &plan) {
  using Threads = GatherCodegenPlan::Threads;
  linalg::GenericOp check = plan.check;
  Location loc = gather.getLoc();
  // (A check before the gather: what the gather uses moves above it.)
  for (Operation *op : plan.toHoist)
    rewriter.moveOpBefore(op, check);
  rewriter.setInsertionPoint(check ? check : gather);
  std::optional<RowPrefetcher> prefetcher;
  if (plan.prefetchDistance > 0)
    prefetcher.emplace(rewriter, loc, gather, plan.prefetchDistance);
  FusedGatherBuilder builder(rewriter, loc, gather, check, plan.vectorSize,
                             plan.offsetBits, plan.groups.has_value(),
                             plan.permute, prefetcher ? &*prefetcher : nullptr,
                             plan.blocks);
  SmallVector<Value> inits = gather.getDpsInits();
  Value accumulator;
  if (check)
    accumulator = tensor::ExtractOp::create(
        rewriter, loc, check.getDpsInits()[0], ValueRange{});
  Value flag;
  if (plan.threads != Threads::Serial && check) {
    Operation *allocationScope =
        gather->getParentWithTrait<OpTrait::AutomaticAllocationScope>();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&allocationScope->getRegion(0).front());
    flag = memref::AllocaOp::create(rewriter, loc,
                                    MemRefType::get({}, rewriter.getI8Type()));
  }
  // The values of both: the gather's results, then (with a check) "any out
  // of range".
  auto threaded = [&](OpBuilder &b) {
    Carried results =
        plan.tileDim
            ? builder.buildTiles(b, inits, *plan.tileDim, plan.tileBlockRows,
                                 true, flag, Value())
            : builder.buildThreaded(b, inits, flag, plan.parallelChunk);
    if (check)
      results.accumulator =
          arith::OrIOp::create(b, loc, accumulator, results.accumulator);
    return results.toValues();
  };
  auto serial = [&](OpBuilder &b) {
    if (plan.tileDim)
      return builder
          .buildTiles(b, inits, *plan.tileDim, plan.tileBlockRows, false,
                      Value(), accumulator)
          .toValues();
    return builder.buildSerial(b, inits, accumulator).toValues();
  };
  auto loops = [&](OpBuilder &b) -> SmallVector<Value> {
    SmallVector<Value> values;
    switch (plan.threads) {
    case Threads::Serial:
      values = serial(b);
      break;
    case Threads::Threaded:
      values = threaded(b);
      break;
    case Threads::AtRunTime: {
      // Threads only for enough elements (a dynamic count).
      Value count = builder.getSizes().front();
      for (Value size : builder.getSizes().drop_front())
        count = arith::MulIOp::create(b, loc, count, size);
      Value enough = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::uge, count,
          arith::ConstantIndexOp::create(b, loc, plan.parallelThreshold));
      auto ifOp = scf::IfOp::create(
          b, loc, enough,
          [&](OpBuilder &then, Location) {
            scf::YieldOp::create(then, loc, threaded(then));
          },
          [&](OpBuilder &otherwise, Location) {
            scf::YieldOp::create(otherwise, loc, serial(otherwise));
          });
      values = SmallVector<Value>(ifOp.getResults());
      break;
    }
    }
    return values;
  };
  // A size guard: 32-bit offsets when every tensor of dynamic size holds at
  // most the limit, checked once here; else the same loops with 64-bit
  // offsets.
  auto guarded = [&](OpBuilder &b) -> SmallVector<Value> {
    if (!plan.sizeGuard)
      return loops(b);
    Value limit = arith::ConstantIndexOp::create(b, loc, plan.sizeGuard->limit);
    Value fits;
    auto require = [&](Value condition) {
      fits = fits ? arith::AndIOp::create(b, loc, fits, condition).getResult()
                  : condition;
    };
    auto atMostLimit = [&](Value value) -> Value {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, value,
                                   limit);
    };
    for (Value tensor : plan.sizeGuard->tensors) {
      // Each dynamic size and each partial product at most the limit (a
      // product can wrap around only after a size or a product over the
      // limit, which fails the guard already).
      Value count;
      auto type = cast<RankedTensorType>(tensor.getType());
      for (int64_t d = 0; d < type.getRank(); ++d) {
        Value size = getValueOrCreateConstantIndexOp(
            b, loc, tensor::getMixedSize(b, loc, tensor, d));
        if (type.isDynamicDim(d)) // (The static ones: by the plan.)
          require(atMostLimit(size));
        count = count ? arith::MulIOp::create(b, loc, count, size).getResult()
                      : size;
        if (d > 0)
          require(atMostLimit(count));
      }
    }
    auto ifOp = scf::IfOp::create(
        b, loc, fits,
        [&](OpBuilder &then, Location) {
          builder.setOffsetBits(32);
          scf::YieldOp::create(then, loc, loops(then));
        },
        [&](OpBuilder &otherwise, Location) {
          builder.setOffsetBits(64);
          scf::YieldOp::create(otherwise, loc, loops(otherwise));
        });
    return SmallVector<Value>(ifOp.getResults());
  };
  // A dynamic size 0: nothing to do (the loops over the other dimensions
  // would still run, e.g. 2^62 empty rows).
  Value empty;
  for (auto [size, staticSize] :
       llvm::zip(builder.getSizes(), gather.getStaticLoopRanges())) {
    if (!ShapedType::isDynamic(staticSize))
      continue;
    Value isZero =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, size,
                              arith::ConstantIndexOp::create(rewriter, loc, 0));
    empty = empty
                ? arith::OrIOp::create(rewriter, loc, empty, isZero).getResult()
                : isZero;
  }
  SmallVector<Value> values;
  if (!empty) {
    values = guarded(rewriter);
  } else {
    SmallVector<Value> unchanged(inits);
    if (check)
      unchanged.push_back(accumulator);
    auto ifOp = scf::IfOp::create(
        rewriter, loc, empty,
        [&](OpBuilder &b, Location) {
          scf::YieldOp::create(b, loc, unchanged);
        },
        [&](OpBuilder &b, Location) {
          scf::YieldOp::create(b, loc, guarded(b));
        });
    values = SmallVector<Value>(ifOp.getResults());
  }
  if (check) {
    rewriter.replaceOp(check, tensor::FromElementsOp::create(
                                  rewriter, loc, check.getResultTypes(),
                                  ValueRange{values.back()}));
  }
  rewriter.replaceOp(
      gather, ArrayRef<Value>(values).take_front(gather.getNumResults()));
}
