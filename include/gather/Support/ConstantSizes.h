//===- ConstantSizes.h - The limit on constants held in memory --*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one limit on the constants that the translation to LLVM IR expands.
// A splat (`dense<1> : tensor<3037000500x3037000500xi64>`, a few bytes of
// text) or sparse elements attribute is stored compactly in MLIR, but LLVM
// IR holds every element of an `llvm.mlir.global` or `llvm.mlir.constant`
// (LLVM's ConstantDataArray): translating one grows without bound, then the
// program holds it in memory. Every place that translates to LLVM IR or
// hands the module to the JIT checks first (gather-check-constant-sizes at
// the end of onnx-to-llvm, gather-translate, gather-runner), so such a
// constant is a located compile-time error, not an out-of-memory kill.
// Dense values that are not splat are already held in full by the attribute
// and are not limited.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_SUPPORT_CONSTANTSIZES_H
#define GATHER_SUPPORT_CONSTANTSIZES_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace gather {

/// The most bytes that one splat or sparse constant may expand to: 1 GiB.
inline constexpr int64_t kMaxExpandedConstantBytes = int64_t(1) << 30;

/// Reports each splat or sparse elements attribute of an op in `root`
/// (nested ops included) whose values would take more than
/// kMaxExpandedConstantBytes once expanded: an error at the op, "splat
/// constant of type T is too large: N bytes once expanded, more than the
/// limit of 1073741824 bytes (1 GiB)" (N exact, however large).
/// Fails if there was one.
mlir::LogicalResult checkExpandedConstantSizes(mlir::Operation *root);

} // namespace gather

#endif // GATHER_SUPPORT_CONSTANTSIZES_H
