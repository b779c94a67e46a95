// RUN: gather-opt %s --convert-onnx-to-linalg -split-input-file -verify-diagnostics

// With both operands unranked the rank is unknown: nothing to lower to.
func.func @both_unranked(%data: tensor<*xf32>, %indices: tensor<*xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{failed to legalize operation 'onnx.GatherElements' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.GatherElements' op cannot be lowered with both 'data' and 'indices' unranked: the rank is unknown}}
  %0 = onnx.GatherElements %data, %indices : tensor<*xf32>, tensor<*xi64>
  return %0 : tensor<*xf32>
}

// -----

// The runtime's function names are reserved for its declarations.
// expected-error @+1 {{symbol 'gatherReportIndexError' is reserved for gather's runtime and must be a func.func of type '(i64, !llvm.ptr, i64, i64, i64) -> ()'}}
func.func private @gatherReportIndexError(f32)
func.func @clash(%data: tensor<3xf32>, %indices: tensor<?xi64>) -> tensor<?xf32> {
  %0 = onnx.GatherElements %data, %indices : tensor<3xf32>, tensor<?xi64>
  return %0 : tensor<?xf32>
}

// -----

// A matching declaration is reused, not duplicated.
func.func private @gatherReportIndexError(i64, !llvm.ptr, i64, i64, i64)
func.func @reuse(%data: tensor<3xf32>, %indices: tensor<?xi64>) -> tensor<?xf32> {
  %0 = onnx.GatherElements %data, %indices : tensor<3xf32>, tensor<?xi64>
  return %0 : tensor<?xf32>
}
