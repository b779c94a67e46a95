//===- StandInONNXOps.td - A stand-in `onnx` dialect -------*- tablegen -*-===//
//
// Part of the gather project (tests only).
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Another project's `onnx` dialect, as onnx-mlir's is: same namespace and op
// names as gather's, different C++ classes and no verifier of ours. Tests
// check that gather's lowering applies to its ops by name.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_TEST_STANDINONNXOPS_TD
#define GATHER_TEST_STANDINONNXOPS_TD

include "mlir/IR/OpBase.td"

def StandInONNX_Dialect : Dialect {
  let name = "onnx";
  let cppNamespace = "::standin";
  let summary = "A stand-in for another project's onnx dialect (tests)";
}

class StandInONNX_Op<string mnemonic, list<Trait> traits = []>
    : Op<StandInONNX_Dialect, mnemonic, traits>;

// onnx-mlir's operands and attribute; any result type (as onnx-mlir's
// tensor<*xf32> before shape inference).
def StandInONNX_GatherElementsOp : StandInONNX_Op<"GatherElements"> {
  let arguments = (ins AnyTensor:$data, AnyTensor:$indices,
                       DefaultValuedAttr<SI64Attr, "0">:$axis);
  let results = (outs AnyTensor:$output);
}

// An op named like one of gather's (onnx.Constant) that gather must leave
// alone.
def StandInONNX_ConstantOp : StandInONNX_Op<"Constant"> {
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyTensor:$output);
}

#endif // GATHER_TEST_STANDINONNXOPS_TD
