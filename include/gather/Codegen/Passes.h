//===- Passes.h - Code generation passes of gather --------------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Declares every pass in include/gather/Codegen/Passes.td (one
// create<Name>() per def, with its options struct) and
// registerGatherCodegenPasses() for tools.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CODEGEN_PASSES_H
#define GATHER_CODEGEN_PASSES_H

#include "gather/Codegen/TargetInfo.h"

#include "gather/Support/EnumOptions.h"
#include "gather/Support/PassOptions.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace gather {

/// What gather-check-lowered{level} lets through.
enum class CheckLevel {
  /// After convert-onnx-to-linalg: no op of the onnx namespace that gather
  /// does not lower.
  ONNX,
  /// At the end of onnx-to-llvm: only the llvm (and omp) dialects.
  LLVM,
};

/// The values of gather-check-lowered{level}.
inline constexpr EnumOptionValue<CheckLevel> kCheckLevelValues[] = {
    {CheckLevel::ONNX, "onnx", "no onnx op that gather does not lower"},
    {CheckLevel::LLVM, "llvm", "only the llvm and omp dialects"},
};

#define GEN_PASS_DECL
#include "gather/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/Codegen/Passes.h.inc"

} // namespace gather

#endif // GATHER_CODEGEN_PASSES_H
