//===- Passes.h - Transforms of the onnx dialect ----------------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Declares every pass in include/gather/Dialect/ONNX/Transforms/Passes.td
// (one create<Name>() per def, with its options struct) and
// registerONNXTransformsPasses() for tools.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_TRANSFORMS_PASSES_H
#define GATHER_DIALECT_ONNX_TRANSFORMS_PASSES_H

#include "gather/Support/PassOptions.h"
#include "mlir/Pass/Pass.h"

namespace gather::ONNX {

/// The unit attribute that marks the kernels of onnx-outline-gathers (on
/// their func.func), which a host can match them by.
inline constexpr llvm::StringLiteral kGatherKernelAttrName =
    "onnx.gather_kernel";

/// What onnx-outline-gathers leaves in the module (its option `emit`).
enum class OutlinedPart {
  /// The functions, calling their kernels, and the kernels.
  All,
  /// The kernels alone.
  Kernels,
  /// The functions, calling their kernels, which are declared only.
  Graph,
};

#define GEN_PASS_DECL
#include "gather/Dialect/ONNX/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/Dialect/ONNX/Transforms/Passes.h.inc"

} // namespace gather::ONNX

#endif // GATHER_DIALECT_ONNX_TRANSFORMS_PASSES_H
