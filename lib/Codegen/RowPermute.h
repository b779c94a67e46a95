//===- RowPermute.h - In-register gathers from short rows -------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// In-register gathers: when a vector of lanes reads one row of `data` that
// fits in one or two vector registers, the row is loaded into them (a masked
// load when it is shorter: nothing outside the row is read) and the lanes are
// taken from it by the target's permute instruction with the (clamped) index
// values as the permutation (AVX-512 vpermps/vpermd/vpermpd/vpermq on one
// register, vpermi2ps/... on two; AVX2 vpermps/vpermd), instead of a
// vector.gather. MLIR 22 has no op for a shuffle by a vector of lane numbers
// (vector.shuffle takes constants, the x86vector dialect has no permute), and
// LLVM's middle end turns the generic form (extractelement at lane numbers
// read from a vector) back into scalar loads, so the permute is the target's
// intrinsic (llvm.call_intrinsic). Which instruction, from the target's
// features (TargetInfo.h): selectRowPermute; where: CodegenPlan.h; what was
// measured: docs/CodeShape.md, "In-register gathers".
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CODEGEN_ROWPERMUTE_H
#define GATHER_LIB_CODEGEN_ROWPERMUTE_H

#include "gather/Codegen/TargetInfo.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace gather::codegen {

/// A permute instruction of the target that takes `lanes` elements from a
/// row of up to `lanes * registers` elements held in `registers` vector
/// registers, at lane numbers given by a vector of integers of the
/// element's width.
struct RowPermute {
  /// The LLVM intrinsic, called with (row, lane numbers) for one register
  /// and (first register, lane numbers, second register) for two.
  llvm::StringRef intrinsic;
  /// The instruction, for the remarks, e.g. "vpermps zmm".
  llvm::StringRef instruction;
  /// Elements per register, and lanes per instruction.
  int64_t lanes;
  /// 1 or 2.
  int64_t registers;

  /// The longest row it gathers from.
  int64_t getCapacity() const { return lanes * registers; }
};

/// The permute that gathers `vectorSize` lanes of `elementType` (f32, f64
/// or a signless integer of 32 or 64 bits) from rows of `rowLength`
/// elements on `target`: the first of the target's permutes (AVX-512F on
/// one register, on two, AVX2 on one) whose rows hold `rowLength` elements
/// and whose lanes divide `vectorSize`. None, with `*whyNot` set, when
/// there is none.
std::optional<RowPermute>
selectRowPermute(const TargetInfo &target, mlir::Type elementType,
                 int64_t rowLength, int64_t vectorSize, std::string *whyNot);

/// The permute of the table whose intrinsic is `intrinsic`, or null.
const RowPermute *lookupRowPermute(llvm::StringRef intrinsic);

/// The discardable attribute (a string: the RowPermute's intrinsic) that
/// marks the vector.from_elements of an in-register gather for
/// lowerRowPermute.
inline constexpr llvm::StringLiteral kRowPermuteAttrName = "gather.row_permute";

/// The elements of the row of `tensor` that starts at `rowStart` (its
/// coordinates, the last one 0; `rowLength` elements, static) at the lane
/// numbers `laneIndices` (a vector of index values, each in
/// [0, rowLength): clamped), one per lane: the row read into a vector of
/// permute.getCapacity() elements (masked when shorter: nothing past it is
/// read), and a vector.from_elements of its elements at the lane numbers
/// (vector.extract at a dynamic position), marked with kRowPermuteAttrName.
/// That form is plain vector code that any target runs;
/// gather-lower-row-permutes (lowerRowPermute) makes it the permutes, after
/// bufferization (whose buffer deallocation rejects llvm.call_intrinsic,
/// an op of unknown memory effects).
mlir::Value buildRowPermute(mlir::OpBuilder &b, mlir::Location loc,
                            const RowPermute &permute, mlir::Value tensor,
                            mlir::ValueRange rowStart, int64_t rowLength,
                            mlir::Value laneIndices);

/// Replaces `lanes`, a vector.from_elements of buildRowPermute, by the
/// permutes of its kRowPermuteAttrName (vectorSize / lanes calls of the
/// intrinsic on the row's registers). Fails, changing nothing, unless it
/// has buildRowPermute's form.
mlir::LogicalResult lowerRowPermute(mlir::RewriterBase &rewriter,
                                    mlir::vector::FromElementsOp lanes);

} // namespace gather::codegen

#endif // GATHER_LIB_CODEGEN_ROWPERMUTE_H
