//===- GatherDataRead.h - The one recognizer of a gather's read -*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What makes a linalg.generic a gather (the form of
// gather/Conversion/ONNXToLinalg/GatherLinalgForm.h), on tensors and on
// buffers alike: one read of `data` in its body (a tensor.extract, or a
// memref.load after bufferization) whose coordinates depend on exactly one
// input, `indices`, and are linalg.index d at every position d but the
// axis. gather-codegen (on tensors, lib/Codegen/GatherRecognizers.h) and
// gather-gpu-kernels (on buffers) both recognize gathers through it.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CODEGEN_GATHERDATAREAD_H
#define GATHER_CODEGEN_GATHERDATAREAD_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace gather::codegen {

/// The read of `data` in the body of a gather.
struct GatherDataRead {
  /// The tensor.extract or memref.load.
  mlir::Operation *read = nullptr;
  /// The tensor or buffer it reads (defined outside the body).
  mlir::Value data;
  /// Its coordinates.
  mlir::ValueRange coordinates;
  /// The input its coordinates depend on (the index values); the single
  /// input when they depend on none.
  mlir::OpOperand *indices = nullptr;
};

/// The read of `data` in `op`: exactly one tensor.extract (pure tensor
/// semantics) or memref.load (pure buffer semantics; or a tensor.extract,
/// which a memref.load of a bufferization.to_buffer folds into) in its
/// body, of a
/// value defined outside it, whose coordinates depend on the block
/// arguments of exactly one input. Otherwise nullopt, and `whyNot` (if not
/// null) says why in a short phrase for remarks.
std::optional<GatherDataRead>
findGatherDataRead(mlir::linalg::GenericOp op,
                   llvm::StringRef *whyNot = nullptr);

/// The axis of the gather that `read` belongs to (in `op`): the one
/// coordinate that is not `linalg.index d` at position d (a coordinate 0
/// over a dimension of `indices` of size 1 counts as its linalg.index,
/// which canonicalization folds so); nullopt if there is none or more than
/// one.
std::optional<int64_t> getGatherAxis(mlir::linalg::GenericOp op,
                                     const GatherDataRead &read);

} // namespace gather::codegen

#endif // GATHER_CODEGEN_GATHERDATAREAD_H
