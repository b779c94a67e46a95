//===- CodegenPlan.h - What gather-codegen does with a gather ---*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The decisions of `gather-codegen` for one gather-like linalg.generic,
// made once, before any IR is built, by planGather: the fused index check,
// the vector width, groups of short rows, threads, prefetches, in-register
// gathers and the width of the lane offsets (with its run-time size guard),
// each with the reason when it is not taken.
// FusedGatherBuilder.h applies a plan; the pass prints it (`remarks=true`, or
// -debug-only=gather-codegen in builds with LLVM's debug output) so that "why
// did this gather stay scalar?" has an answer. The measurements behind the
// rules: docs/CodeShape.md.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CODEGEN_CODEGENPLAN_H
#define GATHER_LIB_CODEGEN_CODEGENPLAN_H

#include "RowPermute.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "llvm/Support/raw_ostream.h"

#include <numeric>
#include <optional>
#include <string>

namespace gather::codegen {

/// Larger vectors only slow compilation down (vector ops are unrolled to the
/// target's width).
inline constexpr int64_t kMaxVectorSize = 256;

/// The most vectors of one group (K, unrolled in the loop body; at most 15
/// with vectors of 16).
inline constexpr int64_t kMaxVectorsPerGroup = 16;

/// The most elements of one group (K * N, unrolled in the loop body: with a
/// scalarized gather form, one tensor.extract each, and bufferization's
/// analysis grows with their number times the writes; rows of 15 with
/// vectors of 256 made 3,840 per group and a minute of compilation, with
/// vectors of 64 (960) 7 s). 16 vectors of 16, as the default vector size
/// allows.
inline constexpr int64_t kMaxGroupElements = 256;

/// The most elements of a tensor whose vector reads have 32-bit lane
/// offsets (GatherCodegenPlan::offsetBits): its last element's offset is
/// still a positive i32. The default and the largest value of the option
/// narrow-limit.
inline constexpr int64_t kMaxNarrowOffsetElements = INT32_MAX;

/// 32-bit lane offsets for tensors of dynamic sizes: once, before the loops,
/// the kernel checks that each of `tensors` holds at most `limit` elements,
/// and runs the loops with 32-bit offsets if so, with 64-bit ones if not
/// (both are built; an scf.if between them).
struct SizeGuard {
  /// The tensors read by lanes whose sizes are dynamic.
  llvm::SmallVector<mlir::Value> tensors;
  int64_t limit;
};

/// The most candidate block sizes planRowBlocks tries, from the largest
/// that fits the budget down, for a divisor of the blocked dimension's size:
/// sizes with no divisor in that window (a large prime, or a size beyond any
/// buffer: 2^63 - 1) get no blocks, in a bounded time whatever
/// row-block-bytes is.
inline constexpr int64_t kMaxRowBlockCandidates = 1 << 16;

/// Gathers whose `data` and `indices` hold fewer bytes than this (statically)
/// get no prefetches: they stay in the L1 data cache (32 KiB on the x86 CPUs
/// LLVM models, TargetTransformInfo::getCacheSize(L1D)).
inline constexpr int64_t kPrefetchMinBytes = 32 * 1024;

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

/// Gathers along an outer axis whose rows would touch more lines of `data`
/// than this between two visits of the same line (statically) run their
/// rows in blocks (RowBlocks) that touch at most this many bytes, by
/// default (option row-block-bytes): the L2 data cache of the x86 CPUs LLVM
/// models (TargetTransformInfo::getCacheSize(L2D), 256 KiB).
inline constexpr int64_t kRowBlockBytes = 256 * 1024;

/// The tiles of a transposing consumer run in blocks of this many strips of
/// N rows of `indices` (GatherCodegenPlan::tileBlockRows) where they fit.
inline constexpr int64_t kTileBlockTiles = 2;

/// The rows of a gather along an outer axis, in blocks. In row-major order,
/// the rows of one position of the axis of `indices` read lines of `data`
/// from every position of the axis at once, and the same lines again only
/// one position later: when those lines exceed the cache, every read misses
/// it. Instead dimension `dim` (after the axis, before the innermost one)
/// runs in blocks of `size` positions, and each block visits every position
/// of the axis and of the dimensions between before the next block: the
/// lines a block reads (`bytes`: the axis of `data` times the block's rows)
/// stay in the cache. The rows, in loop order, outermost first: dimensions
/// 0 .. axis-1, the block of `dim`, dimensions axis .. dim-1, the position
/// in the block, dimensions dim+1 .. rank-2; each row as before.
struct RowBlocks {
  int64_t axis, dim, size, bytes;
};

/// The options of gather-codegen (Passes.td), checked by the pass.
struct GatherCodegenOptions {
  int64_t vectorSize = 16;
  bool parallel = true;
  int64_t parallelThreshold = 8192;
  int64_t parallelChunk = 16384;
  int64_t prefetchDistance = 4096;
  bool narrowOffsets = false;
  /// The most elements of a tensor read with 32-bit lane offsets (option
  /// narrow-limit, at most kMaxNarrowOffsetElements).
  int64_t narrowLimit = kMaxNarrowOffsetElements;
  int64_t rowBlockBytes = kRowBlockBytes;
  /// In-register gathers where the target has the permutes (RowPermute.h);
  /// `target` is then the target (not null).
  bool inRegisterGathers = false;
  const gather::TargetInfo *target = nullptr;
};

/// Everything gather-codegen decides for one gather-like generic.
struct GatherCodegenPlan {
  /// How the rows run.
  enum class Threads {
    Serial,    // scf.for loops
    Threaded,  // an scf.forall over the rows (or groups, or chunks)
    AtRunTime, // dynamic shape: an scf.if on the element count between both
  };

  /// Non-empty: the generic is left as it is, for this reason, before any
  /// decision (an empty iteration space, a body that reads its output).
  std::string leftAlone;
  /// Whether the plan builds loops: false when a single loop nest of
  /// convert-linalg-to-loops would do (no check, threads, vectors nor
  /// prefetches).
  bool rewrite = false;
  /// Whether the generic is not what GatherLinalgForm.h promises for a
  /// marked gather (its body reads its output, or its marked index check
  /// cannot be fused): the pass warns when it is marked.
  bool breaksContract = false;

  /// The index check fused into the loops, or null.
  mlir::linalg::GenericOp check;
  /// The ops to move above a check that comes before the gather
  /// (IndexCheckMatch::toHoist).
  llvm::SmallVector<mlir::Operation *> toHoist;
  /// Without a check: why the one there is not fused; empty when there is
  /// none.
  std::string whyNotFused;

  /// Whether the loops follow the result of a consumer that transposes the
  /// gather (fused into it; readsIndicesPermuted): the rows are the
  /// consumer's, `indices` is read across its own rows (vector.gather), and
  /// there are no groups, blocks, prefetches or in-register gathers, which
  /// all follow the rows of `indices`.
  bool transposed = false;
  /// With `transposed` and vectors: the loops in tiles of N x N (N the
  /// vector size) over dimension `tileDim` (the one of the innermost
  /// dimension of `indices`) and the innermost one. A tile reads N vectors
  /// of index values along rows of `indices` (contiguous), gathers from
  /// `data` with them, transposes the N gathered vectors in registers
  /// (vector.shuffle) and computes the rest of the body and the stores
  /// along the rows of the result (contiguous). The tiles run along the
  /// rows of `indices`, which the threads share out.
  std::optional<int64_t> tileDim;
  /// With `tileDim`: the positions of the innermost dimension (rows of
  /// `indices`) that one iteration of the outer loop takes, a multiple of N.
  /// N: one pass of tiles, each gathering its N rows as it goes. More
  /// (kTileBlockTiles * N), where the sizes are multiples of it, the
  /// gathered values exceed row-block-bytes and a block's fit in half of
  /// it: two passes over the block, first each row of `indices` along its
  /// length into a scratch tensor (only the part of the body up to the
  /// read of `data`), then the tiles from it. Measured 1.25-1.3x faster than
  /// one pass at [512, 1024] f32 on a Xeon, the same within the cache
  /// (docs/CodeShape.md, "Transposing consumers").
  int64_t tileBlockRows = 0;
  /// With `transposed` and vectors, why there are no tiles (the index
  /// values read across the rows of `indices` with vector.gather).
  std::string whyNoTiles;

  /// Elements per vector along the rows; 0: scalar loops.
  int64_t vectorSize = 0;
  /// Why the loops are scalar (vectorSize 0).
  std::string whyScalar;
  /// Rows shorter than a vector, in groups (implies vectorSize > 0).
  std::optional<RowGroups> groups;
  /// Bits of the lane offsets of vector reads of `data` and the other
  /// tensors read by lanes (vector.gather), for i32 and i64 indices alike
  /// (the index check and the wrap of negative values still see the whole
  /// index value; only the safe coordinate is truncated): with
  /// narrow-offsets=true, 32 when each of them holds at most
  /// GatherCodegenOptions::narrowLimit elements, so that the offset of
  /// every in-bounds element fits (16-lane vgatherdps instead of two 8-lane
  /// vgatherqps); else 64. Off by default: measured no faster, and slower
  /// on axis-0 gathers (docs/CodeShape.md, "32-bit index math").
  unsigned offsetBits = 64;
  /// With offsetBits 32 and tensors of dynamic sizes: the check at run time
  /// that chooses between 32-bit and 64-bit offsets.
  std::optional<SizeGuard> sizeGuard;
  /// With vectors and narrow-offsets=true, why the offsets are 64-bit.
  std::string whyWideOffsets;

  /// The rows in blocks, or none (rows in row-major order).
  std::optional<RowBlocks> blocks;
  /// In-register gathers (in-register-gathers=true): the permute that
  /// gathers each vector's lanes from its row of `data`, loaded into
  /// registers, instead of a vector.gather. Only for vectors along a row
  /// (not in groups) that read one row of `data`, along its innermost axis,
  /// of a static length that the target's permutes hold (RowPermute.h).
  std::optional<RowPermute> permute;
  /// With vectors and in-register-gathers=true, why there is no permute.
  std::string whyNoPermute;

  Threads threads = Threads::Serial;
  /// Why the loops are serial.
  std::string whySerial;
  /// Elements per scf.forall iteration of a rank-1 gather.
  int64_t parallelChunk = 0;
  /// The fewest elements that run threaded (AtRunTime).
  int64_t parallelThreshold = 0;

  /// Bytes ahead that the row loops prefetch; 0: no prefetches.
  int64_t prefetchDistance = 0;
  /// Why there are no prefetches.
  std::string whyNoPrefetch;

  /// One line, e.g. "vectors of 16; threads; prefetches 4096 B ahead; index
  /// check fused; in-register gathers (vpermps zmm, rows of 16)" or "left to
  /// convert-linalg-to-loops: scalar (vector-size 0); ...".
  void print(llvm::raw_ostream &os) const;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const GatherCodegenPlan &plan) {
  plan.print(os);
  return os;
}

/// The plan for `gather` (isGatherLike) under `options`.
GatherCodegenPlan planGather(mlir::linalg::GenericOp gather,
                             const GatherCodegenOptions &options);

} // namespace gather::codegen

#endif // GATHER_LIB_CODEGEN_CODEGENPLAN_H
