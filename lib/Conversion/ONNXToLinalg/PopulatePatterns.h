//===- PopulatePatterns.h - Patterns of convert-onnx-to-linalg --*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to convert-onnx-to-linalg: the pattern families, one file each,
// that the pass (ONNXToLinalg.cpp) and populateONNXToLinalgConversionPatterns
// combine.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CONVERSION_ONNXTOLINALG_POPULATEPATTERNS_H
#define GATHER_LIB_CONVERSION_ONNXTOLINALG_POPULATEPATTERNS_H

#include "gather/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "gather/Dialect/ONNX/ONNXDialect.h"

#include "mlir/IR/PatternMatch.h"

namespace gather::onnx_to_linalg {

/// Ops of onnx-mlir lowered by name, whichever dialect (if any) defines them
/// (ONNXMLIRInterop.cpp).
inline constexpr llvm::StringLiteral kReturnOpName = "onnx.Return";
using ONNX::kNoValueOpName;
inline constexpr llvm::StringLiteral kEntryPointOpName = "onnx.EntryPoint";

/// Every op named onnx.GatherElements becomes linalg (GatherElements.cpp).
void populateGatherElementsPatterns(
    mlir::RewritePatternSet &patterns,
    const GatherElementsLoweringOptions &options);

/// onnx.Constant and string-valued arith.constant become arith.constant or
/// a string table (Constants.cpp).
void populateConstantPatterns(mlir::RewritePatternSet &patterns);

/// Constants for the ops convert-onnx-to-linalg leaves (`isLeft`: onnx-mlir's
/// onnx.TopK, ...), which the compiler of the rest expects as onnx.Constant,
/// not arith.constant (Constants.cpp): an onnx.Constant used by such ops
/// and by others is split in two, the ops left getting their own copy;
/// `isKeptConstant` then says which onnx.Constants the pass keeps (used,
/// and only by ops left).
void splitConstantsOfLeftOps(
    mlir::Operation *root, llvm::function_ref<bool(mlir::Operation *)> isLeft);
bool isKeptConstant(mlir::Operation *constant,
                    llvm::function_ref<bool(mlir::Operation *)> isLeft);

/// onnx.If -> scf.if, onnx.Loop -> scf.while and their onnx.Yield ->
/// scf.yield (ControlFlow.cpp).
void populateControlFlowPatterns(mlir::RewritePatternSet &patterns);
/// Whether `op` is an onnx.Yield whose region populateControlFlowPatterns
/// moved into an scf op (and which it must then lower).
bool isLoweredRegionTerminator(mlir::Operation *op);

/// onnx-mlir's onnx.Return, onnx.EntryPoint and unused onnx.NoValue
/// (ONNXMLIRInterop.cpp).
void populateONNXMLIRInteropPatterns(mlir::RewritePatternSet &patterns);

/// Whether `type` is a tensor of !onnx.string (whose constants
/// populateConstantPatterns lowers).
bool isStringTensor(mlir::Type type);

} // namespace gather::onnx_to_linalg

#endif // GATHER_LIB_CONVERSION_ONNXTOLINALG_POPULATEPATTERNS_H
