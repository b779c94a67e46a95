//===- Passes.h - Conversion passes of gather -------------------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Declares every pass in include/gather/Conversion/Passes.td (one
// create<Name>() per def, with its options struct): the onnx dialect's
// lowerings (lib/Conversion/ONNXToLinalg, ONNXToLLVM) and the shard ops'
// (lib/Conversion/ShardToMPIRuntime); the patterns of convert-onnx-to-linalg,
// and registerGatherConversionPasses() for tools.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_PASSES_H
#define GATHER_CONVERSION_PASSES_H

#include "gather/Conversion/ShardToMPIRuntime/ShardToMPIRuntime.h"
#include "gather/Support/PassOptions.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
class TypeConverter;
} // namespace mlir

namespace gather {

#define GEN_PASS_DECL
#include "gather/Conversion/Passes.h.inc"

/// Adds the patterns that rewrite onnx.GatherElements into linalg.generic
/// (+ tensor/arith) to `patterns`. Used by `convert-onnx-to-linalg`; exposed
/// so that other pipelines can combine them with their own patterns. With
/// `runtimeChecks`, the patterns also emit the run-time shape and index
/// checks (see the pass description); they then declare the runtime's
/// report functions in the enclosing builtin.module, so apply them to a
/// module, not to functions in parallel.
void populateONNXToLinalgConversionPatterns(mlir::RewritePatternSet &patterns,
                                            bool runtimeChecks = true);

#define GEN_PASS_REGISTRATION
#include "gather/Conversion/Passes.h.inc"

} // namespace gather

#endif // GATHER_CONVERSION_PASSES_H
