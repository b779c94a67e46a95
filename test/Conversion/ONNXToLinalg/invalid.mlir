// RUN: gather-opt %s --convert-onnx-to-linalg -split-input-file -verify-diagnostics

// With both operands unranked the rank is unknown: nothing to lower to.
func.func @both_unranked(%data: tensor<*xf32>, %indices: tensor<*xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{failed to legalize operation 'onnx.GatherElements' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.GatherElements' op cannot be lowered with both 'data' and 'indices' unranked: the rank is unknown}}
  %0 = onnx.GatherElements %data, %indices : tensor<*xf32>, tensor<*xi64>
  return %0 : tensor<*xf32>
}
