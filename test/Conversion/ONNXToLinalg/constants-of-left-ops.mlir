// RUN: gather-opt %s --convert-onnx-to-linalg="runtime-checks=false" --split-input-file | FileCheck %s

// convert-onnx-to-linalg as a hand-off: the ops it leaves (onnx-mlir's
// onnx.TopK, ...) keep their constants as onnx.Constant, which the compiler
// of the rest expects (not arith.constant); the constants of the ops it
// lowers become arith.constant as before.

// A constant used only by an op left stays as it is.
// CHECK-LABEL: func.func @only_left
// CHECK-NOT:     arith.constant
// CHECK:         %[[K:.*]] = onnx.Constant dense<2> : tensor<1xi64>
// CHECK-NEXT:    %[[TOPK:.*]]:2 = "onnx.TopK"(%{{.*}}, %[[K]])
// CHECK-NEXT:    return %[[TOPK]]#1
func.func @only_left(%x: tensor<4xf32>) -> tensor<2xi64> {
  %k = onnx.Constant dense<2> : tensor<1xi64>
  %values, %positions = "onnx.TopK"(%x, %k) {axis = 0 : si64} : (tensor<4xf32>, tensor<1xi64>) -> (tensor<2xf32>, tensor<2xi64>)
  return %positions : tensor<2xi64>
}

// -----

// A constant used by a gather and by an op left is split: the gather gets
// an arith.constant, the op left an onnx.Constant of the same value.
// CHECK-LABEL: func.func @shared
// CHECK-SAME:    (%[[X:.*]]: tensor<4xf32>)
// CHECK-DAG:     %[[ARITH:.*]] = arith.constant dense<[1, 0]> : tensor<2xi64>
// CHECK-DAG:     %[[ONNX:.*]] = onnx.Constant dense<[1, 0]> : tensor<2xi64>
// CHECK:         linalg.generic {{.*}} ins(%[[ARITH]] : tensor<2xi64>)
// CHECK:         "onnx.TopK"(%[[X]], %[[ONNX]])
// CHECK-NOT:     onnx.Constant
func.func @shared(%x: tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %i = onnx.Constant dense<[1, 0]> : tensor<2xi64>
  %g = onnx.GatherElements %x, %i axis = 0 : tensor<4xf32>, tensor<2xi64>
  %values, %positions = "onnx.TopK"(%x, %i) {axis = 0 : si64} : (tensor<4xf32>, tensor<2xi64>) -> (tensor<2xf32>, tensor<2xi64>)
  return %g, %values : tensor<2xf32>, tensor<2xf32>
}

// -----

// A string constant of an op left, and a constant of an op left in the
// region of another op left, stay too.
// CHECK-LABEL: func.func @strings_and_regions
// CHECK-NOT:     arith.constant
// CHECK-NOT:     onnx.ConstantString
// CHECK:         onnx.Constant dense<["a", "b"]> : tensor<2x!onnx.string>
// CHECK:         "onnx.Identity"
// CHECK:         onnx.Constant dense<1.000000e+00> : tensor<f32>
// CHECK:         "onnx.Scan"
// CHECK:           "onnx.Add"
func.func @strings_and_regions(%c: tensor<i1>, %x: tensor<f32>) -> (tensor<2x!onnx.string>, tensor<f32>) {
  %s = onnx.Constant dense<["a", "b"]> : tensor<2x!onnx.string>
  %t = "onnx.Identity"(%s) : (tensor<2x!onnx.string>) -> tensor<2x!onnx.string>
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %r = "onnx.Scan"(%c) ({
    %sum = "onnx.Add"(%x, %one) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "onnx.Yield"(%sum) : (tensor<f32>) -> ()
  }) : (tensor<i1>) -> tensor<f32>
  return %t, %r : tensor<2x!onnx.string>, tensor<f32>
}

// -----

// Ops the pass lowers by name (onnx-mlir's onnx.Return) and ops of other
// dialects are not ops left: their constants become arith.constant, and so
// does an unused constant.
// CHECK-LABEL: func.func @lowered_users
// CHECK-NOT:     onnx.Constant
// CHECK-DAG:     %[[A:.*]] = arith.constant dense<3> : tensor<2xi64>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<4> : tensor<2xi64>
// CHECK:         %[[SUM:.*]] = arith.addi %[[A]], %[[B]]
// CHECK:         return %[[SUM]], %[[A]]
func.func @lowered_users() -> (tensor<2xi64>, tensor<2xi64>) {
  %a = onnx.Constant dense<3> : tensor<2xi64>
  %b = onnx.Constant dense<4> : tensor<2xi64>
  %unused = onnx.Constant dense<5> : tensor<2xi64>
  %sum = arith.addi %a, %b : tensor<2xi64>
  "onnx.Return"(%sum, %a) : (tensor<2xi64>, tensor<2xi64>) -> ()
}
