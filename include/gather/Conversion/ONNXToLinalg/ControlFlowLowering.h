//===- ControlFlowLowering.h - Which ONNX control flow lowers ---*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one predicate for "convert-onnx-to-linalg lowers this onnx.If or
// onnx.Loop to scf", shared by the lowering (which reports the reason at
// the op) and by gather-compile's model partition (which leaves such an op,
// with its subgraphs, to the host).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_ONNXTOLINALG_CONTROLFLOWLOWERING_H
#define GATHER_CONVERSION_ONNXTOLINALG_CONTROLFLOWLOWERING_H

#include "gather/Dialect/ONNX/ONNXOps.h"

#include <optional>
#include <string>

namespace gather {

/// Why convert-onnx-to-linalg cannot lower `op` (an onnx.If or onnx.Loop)
/// itself, or nothing: a condition or trip count not of a static shape, a
/// body that yields its condition so, scan outputs without `M` or of a
/// dynamic shape, a static count of rows that the loop does not surely
/// run. (The ops of its regions lower, or do not, as any others.) Nothing
/// for other ops.
std::optional<std::string> getWhyNotLowerable(mlir::Operation *op);

/// The count of iterations of `loop` where it is known before it runs:
/// max(M, 0) for a constant `M` without `cond` (ONNX ignores the body's
/// condition then).
std::optional<int64_t> getStaticIterationCount(ONNX::LoopOp loop);

} // namespace gather

#endif // GATHER_CONVERSION_ONNXTOLINALG_CONTROLFLOWLOWERING_H
