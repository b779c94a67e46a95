//===- ONNXTypes.td - Types of the onnx dialect ------------*- tablegen -*-===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_ONNXTYPES_TD
#define GATHER_DIALECT_ONNX_ONNXTYPES_TD

include "gather/Dialect/ONNX/ONNXDialect.td"
include "mlir/IR/AttrTypeBase.td"

def ONNX_StringType : TypeDef<ONNX_Dialect, "String"> {
  let mnemonic = "string";
  let summary = "ONNX string element type";
  let description = [{
    The element type of an ONNX `tensor(string)`: a sequence of bytes
    (UTF-8 by convention) of any length, including zero.

    Example: `tensor<2x3x!onnx.string>`.
  }];
}

#endif // GATHER_DIALECT_ONNX_ONNXTYPES_TD
