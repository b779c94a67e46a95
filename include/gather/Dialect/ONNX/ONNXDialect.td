//===- ONNXDialect.td - The onnx dialect -------------------*- tablegen -*-===//
//
// Part of the gather project: ONNX GatherElements as an MLIR compiler
// component.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_ONNXDIALECT_TD
#define GATHER_DIALECT_ONNX_ONNXDIALECT_TD

include "mlir/IR/OpBase.td"

def ONNX_Dialect : Dialect {
  let name = "onnx";
  let cppNamespace = "::gather::ONNX";
  let summary = "A subset of the ONNX operator set (domain ai.onnx)";
  let description = [{
    The `onnx` dialect models ONNX operators on MLIR tensors. Op names use the
    ONNX operator names verbatim (`onnx.GatherElements`), and attributes use
    the ONNX attribute names and types (`axis` is a signed 64-bit integer,
    printed `si64`), so IR produced by existing ONNX front ends such as
    onnx-mlir parses unchanged.

    Operations the dialect does not define (onnx-mlir's `onnx.Return`,
    `onnx.NoValue`, `onnx.TopK`, ...) are accepted in generic form and left
    untouched; the `onnx-to-llvm` pipeline reports the first one left as an
    error.

    ONNX `tensor(string)` elements are modelled by the dialect type
    `!onnx.string` (also spelled `!onnx.String`, as onnx-mlir does). All other ONNX element types map onto builtin types:
    `bool` is `i1`, `intN` is signless `iN`, `uintN` is `uiN`, `float16` is
    `f16`, `bfloat16` is `bf16`, `complex64` is `complex<f32>` and
    `complex128` is `complex<f64>`.

    Lower the dialect with `convert-onnx-to-linalg`, or all the way to the
    LLVM dialect with the `onnx-to-llvm` pipeline.
  }];
  // The default parser, plus the `!onnx.String` spelling.
  let useDefaultTypePrinterParser = 0;
  let extraClassDeclaration = [{
    ::mlir::Type parseType(::mlir::DialectAsmParser &parser) const override;
    void printType(::mlir::Type type,
                   ::mlir::DialectAsmPrinter &printer) const override;
  }];
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class ONNX_Op<string mnemonic, list<Trait> traits = []>
    : Op<ONNX_Dialect, mnemonic, traits>;

#endif // GATHER_DIALECT_ONNX_ONNXDIALECT_TD
