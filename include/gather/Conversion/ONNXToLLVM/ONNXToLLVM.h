//===- ONNXToLLVM.h - onnx dialect types and leftovers to LLVM --*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What of the onnx dialect reaches the LLVM dialect after
// convert-onnx-to-linalg: the `!onnx.string` element type (converted to
// `!llvm.struct<(ptr, i64)>`, gather/Runtime/GatherRuntime.h's GatherString),
// `onnx.ConstantString` (a private constant global of the bytes plus that
// struct) and `onnx.StringSlice` (that struct moved and shortened within its
// bytes, clamped to them). Hooked into `convert-to-llvm` through the onnx
// dialect's ConvertToLLVMPatternInterface, like upstream's
// registerConvertFuncToLLVMInterface.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_ONNXTOLLVM_ONNXTOLLVM_H
#define GATHER_CONVERSION_ONNXTOLLVM_ONNXTOLLVM_H

namespace mlir {
class DialectRegistry;
class LLVMTypeConverter;
class RewritePatternSet;
class SymbolTableCollection;
} // namespace mlir

namespace gather {

/// Adds the `!onnx.string` type conversion to `converter` and the
/// onnx.ConstantString and onnx.StringSlice lowerings to `patterns`. The
/// globals of onnx.ConstantString are found and named with `symbolTables`
/// when given (as upstream's populateFuncToLLVMConversionPatterns does);
/// the caller keeps it for the whole conversion. Without it, each
/// onnx.ConstantString builds a symbol table of its module: time quadratic
/// in the number of constants (convert-onnx-strings-to-llvm, which the
/// onnx-to-llvm pipeline runs before convert-to-llvm, passes one).
void populateONNXToLLVMConversionPatterns(
    mlir::LLVMTypeConverter &converter, mlir::RewritePatternSet &patterns,
    mlir::SymbolTableCollection *symbolTables = nullptr);

/// Registers the onnx dialect's ConvertToLLVMPatternInterface.
void registerConvertONNXToLLVMInterface(mlir::DialectRegistry &registry);

} // namespace gather

#endif // GATHER_CONVERSION_ONNXTOLLVM_ONNXTOLLVM_H
