//===- GatherRecognizers.h - What gather-codegen matches --------*- C++ -*-===//
//
// Part of the gather project.
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

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Value.h"

namespace gather::codegen {

/// Whether `op` has the form convert-onnx-to-linalg gives a gather: ranked
/// tensors, all-parallel, one input and one output with identity maps, and
/// one tensor.extract (the read of `data`) in its body. Marked or not.
bool isGatherLike(mlir::linalg::GenericOp op,
                  llvm::StringRef *whyNot = nullptr);

/// The index check convert-onnx-to-linalg emits with `gather`: a
/// linalg.generic after it in the same block, before any other gather, that
/// reduces the same `indices` (identity map, all iterators reductions) into
/// a tensor<i1> with an `arith.ori` of its accumulator. Nothing between the
/// two uses the gather's result (the fused loop replaces both at the
/// check). Null if there is none. For a marked gather, the first marked
/// check of the same `indices` is the one: if it is not of this form, the
/// result is null.
///
/// `whyNotFused`, when not null, is set to why a check that is there cannot
/// be fused (a marked check not of this form, or the gather's result used
/// before the check); it stays empty when there is no check.
mlir::linalg::GenericOp findIndexCheck(mlir::linalg::GenericOp gather,
                                       llvm::StringRef *whyNotFused = nullptr);

/// The tensor a gather-like generic reads with tensor.extract (`data`).
mlir::Value getGatheredTensor(mlir::linalg::GenericOp gather);

/// Whether the buffer of tensor `value` is surely contiguous and row-major
/// once bufferized. vector.gather linearizes its offsets with the tensor's
/// shape, so it must not read a strided buffer (a slice, a memref with a
/// strided layout). Function arguments are contiguous under the pipeline's
/// identity-layout-map function boundaries; anything unsure is not.
bool isSurelyContiguous(mlir::Value value);

/// Whether vector.gather can implement `gather`: a contiguous row-major
/// `data`, and whole-byte integer or float elements (not complex numbers or
/// strings, which are no vector elements, nor i1: a vector.gather of i1
/// from i1 buffers, stored one byte per element, reads wrong values).
bool canVectorize(mlir::linalg::GenericOp gather,
                  llvm::StringRef *whyNot = nullptr);

/// Whether the ops of `body` (a gather's or its check's) can be computed on
/// vectors: linalg.index, scalar constants, the read of `data`
/// (tensor.extract of a tensor defined outside the body) and elementwise ops
/// on scalars.
bool isVectorizableBody(mlir::Block *body);

} // namespace gather::codegen

#endif // GATHER_LIB_CODEGEN_GATHERRECOGNIZERS_H
