//===- GatherRecognizers.h - What gather-codegen matches --------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The recognizers of `gather-codegen`: the gather-like linalg.generic and
// its index check (the form gather/Conversion/ONNXToLinalg/
// GatherLinalgForm.h describes, marked or not), and the legality checks of
// its vector code (contiguous buffers, element types, vectorizable bodies).
// They only look at IR; the decisions are in CodegenPlan.h.
//
// The predicates that take `whyNot` set it, when they return false, to a
// short phrase for the remarks ("data is not surely contiguous").
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CODEGEN_GATHERRECOGNIZERS_H
#define GATHER_LIB_CODEGEN_GATHERRECOGNIZERS_H

#include "gather/Codegen/GatherDataRead.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/SetVector.h"

namespace gather::codegen {

/// Whether `op` has the form convert-onnx-to-linalg gives a gather, marked
/// or not, possibly with elementwise producers and consumers fused into it
/// (linalg-fuse-elementwise-ops): ranked tensors, all-parallel, outputs
/// with identity maps (several when fused consumers yield several values),
/// and one tensor.extract (the read of `data`) in its body whose
/// coordinates depend on exactly one input, `indices`, which has a
/// permutation map: the identity, or a permutation when the gather was
/// fused into a consumer that transposes it (the loops then follow the
/// consumer's result, readsIndicesPermuted). The other inputs (the
/// elementwise inputs) are read at each element through their indexing
/// maps, projected permutations (identity, transposed, broadcast).
bool isGatherLike(mlir::linalg::GenericOp op,
                  llvm::StringRef *whyNot = nullptr);

/// Whether `op` is gather-like (isGatherLike) but for the indexing maps of
/// its outputs: permutations, not all the identity (results written in
/// other orders than the loops', as a fusion that keeps the producer's
/// result beside its transposing consumer's makes). splitByResultOrder
/// gives one gather-like generic per order.
bool hasResultsInOtherOrders(mlir::linalg::GenericOp op);

/// Whether the body of `op` holds no tensor.extract: a marked gather whose
/// read of `data` folded away (canonicalization turns the read of a splat
/// constant into its value). That is no broken contract, only no gather
/// left: an elementwise op, with nothing to fuse.
bool hasNoDataRead(mlir::linalg::GenericOp op);

/// The input of gather-like `gather` that holds the index values.
mlir::OpOperand &getIndicesOperand(mlir::linalg::GenericOp gather);

/// The tensor of getIndicesOperand.
mlir::Value getIndices(mlir::linalg::GenericOp gather);

/// Whether gather-like `gather` reads `indices` through a permutation that
/// is not the identity: its loops follow a consumer that transposes the
/// gather's result (fused into it), so the index values of one row of the
/// loops lie across rows of `indices` and are read with vector.gather.
bool readsIndicesPermuted(mlir::linalg::GenericOp gather);

/// The ops of the body of gather-like `gather` that its read of `data`
/// depends on, and the read.
llvm::SetVector<mlir::Operation *>
getOpsOfDataRead(mlir::linalg::GenericOp gather);

/// Whether the body of gather-like `gather` computes in two parts: the read
/// of `data` and what it depends on (from the index value), then the rest
/// from its value: no value of the first part but the read, nor the index
/// value, is used in the second (the tiles of a transposing consumer,
/// GatherCodegenPlan::tiles, compute the parts in two lane orders).
bool canSplitAtDataRead(mlir::linalg::GenericOp gather,
                        llvm::StringRef *whyNot = nullptr);

/// The inputs of gather-like `gather` but `indices`, in operand order.
llvm::SmallVector<mlir::OpOperand *>
getElementwiseInputs(mlir::linalg::GenericOp gather);

/// An index check of a gather (findIndexCheck), and the ops that must move
/// above it for the fused loops to replace both at the check.
struct IndexCheckMatch {
  mlir::linalg::GenericOp check;
  llvm::SmallVector<mlir::Operation *> toHoist;
};

/// The index check convert-onnx-to-linalg emits with `gather`: a
/// linalg.generic in the same block that reduces the same `indices`
/// (identity map, all iterators reductions) into a tensor<i1> with an
/// `arith.ori` of its accumulator. It is matched by the `indices` it
/// reduces, not by the markers, so that it survives passes that rebuild
/// the gather: first after the gather, before any other gather, with
/// nothing between the two using the gather's result; else before it,
/// after any other gather, when the ops between that define what the
/// gather uses have no memory effects, or only read memory that no op they
/// move above may write (a bufferization.to_tensor of an argument); they are
/// `toHoist`, in block order.
/// Null check if there is none. The first marked check of the same
/// `indices` after a marked gather (or any before one) is the one: if it is
/// not of this form, the check is null.
///
/// `whyNotFused`, when not null, is set to why a check that is there cannot
/// be fused (a marked check not of this form, the gather's result used
/// before the check, an op with memory effects in the way); it stays empty
/// when there is no check.
IndexCheckMatch findIndexCheck(mlir::linalg::GenericOp gather,
                               llvm::StringRef *whyNotFused = nullptr);

/// The tensor a gather-like generic reads with tensor.extract (`data`).
mlir::Value getGatheredTensor(mlir::linalg::GenericOp gather);

/// Whether gather-like `gather` reads one row of `data` per row of its
/// iteration space, along the innermost axis of `data`: every coordinate
/// of its tensor.extract but the last is linalg.index of a dimension
/// before the innermost or a value defined outside the body (the same
/// along a row), and the last is not linalg.index (it is the index value).
bool readsRowsOfData(mlir::linalg::GenericOp gather);

/// Whether the buffer of tensor `value` is surely contiguous and row-major
/// once bufferized. vector.gather linearizes its offsets with the tensor's
/// shape, so it must not read a strided buffer (a slice, a memref with a
/// strided layout). Ranked function arguments are contiguous under the
/// pipeline's identity-layout-map function boundaries; an unranked tensor
/// (and what a tensor.cast learns from it) is not, nor anything unsure.
bool isSurelyContiguous(mlir::Value value);

/// Whether buffers of `type` are surely one contiguous row-major block: the
/// identity layout, or (static sizes) the row-major strides at any offset.
bool hasContiguousLayout(mlir::MemRefType type);

/// Whether vector.gather can implement `gather`: a contiguous row-major
/// `data` and elementwise inputs (read with vector.gather where their map
/// does not give contiguous lanes), a contiguous `indices` when it is read
/// through a permuted map, and whole-byte integer or float elements
/// (not complex numbers or strings, which are no vector elements, nor i1: a
/// vector.gather of i1 from i1 buffers, stored one byte per element, reads
/// wrong values).
bool canVectorize(mlir::linalg::GenericOp gather,
                  llvm::StringRef *whyNot = nullptr);

/// Whether the ops of `body` (a gather's or its check's) can be computed on
/// vectors: linalg.index, scalar constants, the read of `data`
/// (tensor.extract of a tensor defined outside the body) and elementwise ops
/// on scalars.
bool isVectorizableBody(mlir::Block *body);

} // namespace gather::codegen

#endif // GATHER_LIB_CODEGEN_GATHERRECOGNIZERS_H
