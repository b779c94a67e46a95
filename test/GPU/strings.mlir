// RUN: gather-opt %s --onnx-to-llvm='gpu=cuda' -verify-diagnostics -split-input-file

// A gather of strings stays an error with gpu=cuda, at the op: its
// elements are pointers into host memory.
func.func @strings(%data: tensor<2x2x!onnx.string>, %indices: tensor<2x2xi64>) -> tensor<2x2x!onnx.string> {
  // expected-error @below {{'onnx.GatherElements' of '!onnx.string' elements cannot run on the GPU (gpu=cuda): strings are pointers into host memory}}
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<2x2x!onnx.string>, tensor<2x2xi64>
  return %out : tensor<2x2x!onnx.string>
}
