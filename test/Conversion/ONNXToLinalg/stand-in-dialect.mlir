// gather's lowering applies to any op named onnx.GatherElements, here from a
// stand-in `onnx` dialect (test/lib/Dialect/StandInONNX, as onnx-mlir's)
// that gather-test-opt registers instead of gather's own.
// RUN: gather-test-opt %s --split-input-file --convert-onnx-to-linalg --verify-diagnostics | FileCheck %s
//
// The rest of the pipeline follows (vectorization included); the stand-in's
// onnx.Constant is not gather's and is left, so the pipeline names it.
// RUN: not gather-test-opt %s --split-input-file --onnx-to-llvm 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: stand-in-dialect.mlir:[[# @LINE + 15]]:8: error: 'onnx.Constant' op is not lowered by gather
//
// A file that says `using namespace gather;` next to libonnx's headers
// compiles and names both (no `gather::onnx` shadows `::onnx`).
// RUN: gather-test-opt --print-onnx-and-gather-names | FileCheck %s --check-prefix=NAMES
// NAMES: FLOAT INT64 onnx.GatherElements

// CHECK-LABEL: func.func @stand_in
// CHECK:         %[[IDX:.*]] = "onnx.Constant"()
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[IDX]] : tensor<2x2xi64>)
// CHECK-NOT:     "onnx.GatherElements"
// CHECK:         func.call @gatherReportIndexError
// CHECK:         return %{{.*}} : tensor<*xf32>
func.func @stand_in(%d: tensor<3x2xf32>) -> tensor<*xf32> {
  %i = "onnx.Constant"() {value = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %0 = "onnx.GatherElements"(%d, %i) {axis = 1 : si64} : (tensor<3x2xf32>, tensor<2x2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// The stand-in has no verifier of gather's: the lowering checks the
// operands itself, with the verifier's words.
func.func @bad_axis(%d: tensor<3x2xf32>, %i: tensor<2x2xi64>) -> tensor<2x2xf32> {
  // expected-error @+2 {{'onnx.GatherElements' op attribute 'axis' = 2 is out of range [-2, 1] for operand 'data' of rank 2}}
  // expected-error @+1 {{failed to legalize operation 'onnx.GatherElements'}}
  %0 = "onnx.GatherElements"(%d, %i) {axis = 2 : si64} : (tensor<3x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @bad_shape(%d: tensor<3x2xf32>, %i: tensor<4x3xi64>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'onnx.GatherElements' op operand 'indices' has size 3 in dimension 1, larger than size 2 of operand 'data' there}}
  // expected-error @+1 {{failed to legalize operation 'onnx.GatherElements'}}
  %0 = "onnx.GatherElements"(%d, %i) {axis = 0 : si64} : (tensor<3x2xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
