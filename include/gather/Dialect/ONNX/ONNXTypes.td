//===- ONNXTypes.td - Types of the onnx dialect ------------*- tablegen -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_ONNXTYPES_TD
#define GATHER_DIALECT_ONNX_ONNXTYPES_TD

include "gather/Dialect/ONNX/ONNXDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def ONNX_StringType : TypeDef<ONNX_Dialect, "String",
                              [MemRefElementTypeInterface]> {
  let mnemonic = "string";
  let summary = "ONNX string element type";
  let description = [{
    The element type of an ONNX `tensor(string)`: a sequence of bytes
    (UTF-8 by convention) of any length, including zero.

    Example: `tensor<2x3x!onnx.string>`.

    Lowering: an element is a (pointer, length) pair, the C struct
    `GatherString { const char *data; int64_t size; }` of
    gather/Runtime/GatherRuntime.h, `!llvm.struct<(ptr, i64)>` in the LLVM
    dialect. Strings are immutable and a tensor of strings does not own the
    bytes: constants point into read-only LLVM globals, so copying, gathering
    and freeing tensors of strings never allocates or frees string bytes.
  }];
}

#endif // GATHER_DIALECT_ONNX_ONNXTYPES_TD
