// IR as onnx-mlir writes it (generic form, onnx.Return, onnx.NoValue,
// onnx.EntryPoint, !onnx.String, unranked results) parses and verifies; ops
// gather does not define keep their generic form.
// RUN: gather-opt %s | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: gather-opt %s | gather-opt | FileCheck %s --check-prefix=ROUNDTRIP
//
// convert-onnx-to-linalg lowers the GatherElements, the onnx.Return, the
// onnx.EntryPoint and the unused onnx.NoValue, and leaves the other ops
// untouched.
// RUN: gather-opt %s --convert-onnx-to-linalg | FileCheck %s --check-prefix=LINALG
//
// The full pipeline names the first op gather cannot lower, at its location.
// RUN: not gather-opt %s --onnx-to-llvm 2>&1 | FileCheck %s --check-prefix=LEFT
// LEFT: onnx-mlir-interop.mlir:[[# @LINE + 41]]:11: error: 'onnx.NoValue' op is not lowered by gather (it lowers onnx.GatherElements, onnx.Constant, onnx.If, onnx.Loop and onnx.Return)

// ROUNDTRIP-LABEL: func.func @test_gather_elements
// ROUNDTRIP:         %[[NONE:.*]] = "onnx.NoValue"() {value} : () -> none
// ROUNDTRIP:         %[[G:.*]] = onnx.GatherElements %arg0, %arg1 axis = 1 : tensor<3x2xf32>, tensor<2x2xi64> -> tensor<*xf32>
// ROUNDTRIP:         onnx.Return %[[G]] : tensor<*xf32>
// LINALG-LABEL:  func.func @test_gather_elements
// LINALG-NOT:      onnx.
// LINALG:          linalg.generic
// LINALG:          %[[CAST:.*]] = tensor.cast %{{.*}} : tensor<2x2xf32> to tensor<*xf32>
// LINALG:          return %[[CAST]] : tensor<*xf32>
func.func @test_gather_elements(%arg0 : tensor<3x2xf32>, %arg1 : tensor<2x2xi64>) -> tensor<*xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  %0 = "onnx.GatherElements"(%arg0, %arg1) {axis = 1 : si64} : (tensor<3x2xf32>, tensor<2x2xi64>) -> tensor<*xf32>
  "onnx.Return"(%0) : (tensor<*xf32>) -> ()
}

// ROUNDTRIP-LABEL: func.func @test_strings
// ROUNDTRIP-SAME:    tensor<2x!onnx.string>
// ROUNDTRIP:         onnx.GatherElements %arg0, %arg1 : tensor<2x!onnx.string>, tensor<2xi64>
// LINALG-LABEL:  func.func @test_strings
// LINALG:          linalg.generic
// LINALG:          return %{{.*}} : tensor<2x!onnx.string>
func.func @test_strings(%arg0: tensor<2x!onnx.String>, %arg1: tensor<2xi64>) -> tensor<2x!onnx.String> {
  %0 = "onnx.GatherElements"(%arg0, %arg1) {axis = 0 : si64} : (tensor<2x!onnx.String>, tensor<2xi64>) -> tensor<2x!onnx.String>
  onnx.Return %0 : tensor<2x!onnx.String>
}

// An op gather does not define, feeding a GatherElements, with an omitted
// optional operand: only the GatherElements is lowered.
// ROUNDTRIP-LABEL: func.func @main_graph
// ROUNDTRIP:         "onnx.TopK"(%arg0, %{{.*}}, %{{.*}}) {axis = 1 : si64}
// LINALG-LABEL:  func.func @main_graph
// LINALG:          %[[NONE:.*]] = "onnx.NoValue"() {value} : () -> none
// LINALG:          %[[TOPK:.*]]:2 = "onnx.TopK"(%arg0, %{{.*}}, %[[NONE]]) {axis = 1 : si64}
// LINALG:          linalg.generic
// LINALG-SAME:       ins(%[[TOPK]]#1 : tensor<2x2xi64>)
// onnx.EntryPoint (the model's entry function) is erased; the function stays.
// LINALG-NOT:      "onnx.EntryPoint"
func.func @main_graph(%arg0: tensor<2x4xf32> {onnx.name = "x"}) -> (tensor<2x2xf32> {onnx.name = "y"}) {
  %k = onnx.Constant dense<2> : tensor<1xi64>
  %none = "onnx.NoValue"() {value} : () -> none
  %values, %positions = "onnx.TopK"(%arg0, %k, %none) {axis = 1 : si64} : (tensor<2x4xf32>, tensor<1xi64>, none) -> (tensor<2x2xf32>, tensor<2x2xi64>)
  %0 = "onnx.GatherElements"(%arg0, %positions) {axis = 1 : si64} : (tensor<2x4xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  onnx.Return %0 : tensor<2x2xf32>
}
"onnx.EntryPoint"() {func = @main_graph} : () -> ()
