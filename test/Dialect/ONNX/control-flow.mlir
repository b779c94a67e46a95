// RUN: gather-opt %s | gather-opt | FileCheck %s
// RUN: gather-opt %s -mlir-print-op-generic | gather-opt | FileCheck %s

// onnx.If, onnx.Loop and onnx.Yield round-trip, in onnx-mlir's spelling
// (generic form, regions in the order of ONNX's attributes); a branch may
// yield a more precise type than the op's result, and a subgraph uses the
// values of the function.

// CHECK-LABEL: func.func @if_and_loop
// CHECK:         "onnx.If"(%arg0) ({
// CHECK:           onnx.GatherElements %arg1, %arg2 axis = 1
// CHECK:           onnx.Yield %{{.*}} : tensor<2x3xf32>
// CHECK:         }, {
// CHECK:           onnx.Yield %arg1 : tensor<2x3xf32>
// CHECK:         }) : (tensor<i1>) -> tensor<?x3xf32>
// CHECK:         "onnx.Loop"(%arg3, %{{.*}}, %arg1) ({
// CHECK:         ^bb0(%{{.*}}: tensor<i64>, %[[C:.*]]: tensor<i1>, %[[V:.*]]: tensor<?x3xf32>):
// CHECK:           onnx.Yield %[[C]], %{{.*}}, %{{.*}} : tensor<i1>, tensor<2x3xf32>, tensor<3xf32>
// CHECK:         }) : (tensor<i64>, none, tensor<2x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>)
func.func @if_and_loop(%c: tensor<i1>, %x: tensor<2x3xf32>, %i: tensor<2x3xi64>, %m: tensor<i64>) -> (tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>) {
  %y = "onnx.If"(%c) ({
    %a = onnx.GatherElements %x, %i axis = 1 : tensor<2x3xf32>, tensor<2x3xi64>
    onnx.Yield %a : tensor<2x3xf32>
  }, {
    onnx.Yield %x : tensor<2x3xf32>
  }) : (tensor<i1>) -> tensor<?x3xf32>
  %none = "onnx.NoValue"() {value} : () -> none
  %v:2 = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%it: tensor<i64>, %cc: tensor<i1>, %v: tensor<?x3xf32>):
    %g = onnx.GatherElements %v, %i axis = 1 : tensor<?x3xf32>, tensor<2x3xi64>
    %row = onnx.Constant dense<1.0> : tensor<3xf32>
    onnx.Yield %cc, %g, %row : tensor<i1>, tensor<2x3xf32>, tensor<3xf32>
  }) : (tensor<i64>, none, tensor<2x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>)
  return %y, %v#0, %v#1 : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>
}
