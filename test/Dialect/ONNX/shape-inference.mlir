// RUN: gather-opt %s --onnx-shape-inference --split-input-file --verify-diagnostics | FileCheck %s
// RUN: gather-opt %s --onnx-shape-inference=refine-public-functions --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=PUBLIC

// An unranked result becomes the inferred type; a chain of ops settles in
// one pass; a non-onnx user keeps its type through a tensor.cast.
// CHECK-LABEL: func.func @chain
// CHECK-SAME:    -> tensor<*xf32>
// CHECK:         %[[A:.*]] = onnx.GatherElements %{{.*}}, %{{.*}} axis = 1 : tensor<3x4xf32>, tensor<2x3xi64>{{$}}
// CHECK:         %[[B:.*]] = onnx.GatherElements %[[A]], %{{.*}} axis = 1 : tensor<2x3xf32>, tensor<2x2xi32>{{$}}
// CHECK:         %[[C:.*]] = tensor.cast %[[B]] : tensor<2x2xf32> to tensor<?x?xf32>
// CHECK:         %[[D:.*]] = tensor.cast %[[C]] : tensor<?x?xf32> to tensor<*xf32>
// CHECK:         return %[[D]] : tensor<*xf32>
func.func @chain(%d: tensor<3x4xf32>, %i: tensor<2x3xi64>, %j: tensor<2x2xi32>) -> tensor<*xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<3x4xf32>, tensor<2x3xi64> -> tensor<*xf32>
  %1 = onnx.GatherElements %0, %j axis = 1 : tensor<*xf32>, tensor<2x2xi32> -> tensor<?x?xf32>
  %2 = tensor.cast %1 : tensor<?x?xf32> to tensor<*xf32>
  return %2 : tensor<*xf32>
}

// -----

// Declared and inferred dims combine: the static dims of both are kept.
// CHECK-LABEL: func.func @partially_dynamic
// CHECK-SAME:    -> tensor<4x?xf64>
// CHECK:         onnx.GatherElements %{{.*}}, %{{.*}} : tensor<?x?xf64>, tensor<?x3xi64> -> tensor<4x3xf64>
func.func @partially_dynamic(%d: tensor<?x?xf64>, %i: tensor<?x3xi64>) -> tensor<4x?xf64> {
  %0 = onnx.GatherElements %d, %i : tensor<?x?xf64>, tensor<?x3xi64> -> tensor<4x?xf64>
  return %0 : tensor<4x?xf64>
}

// -----

// Unranked indices: nothing to infer the shape from; the type stays.
// CHECK-LABEL: func.func @unranked_indices
// CHECK:         onnx.GatherElements %{{.*}}, %{{.*}} : tensor<3x4xi32>, tensor<*xi64>{{$}}
// CHECK:         return %{{.*}} : tensor<*xi32>
func.func @unranked_indices(%d: tensor<3x4xi32>, %i: tensor<*xi64>) -> tensor<*xi32> {
  %0 = onnx.GatherElements %d, %i : tensor<3x4xi32>, tensor<*xi64>
  return %0 : tensor<*xi32>
}

// -----

// Unranked data: the shape still comes from indices.
// CHECK-LABEL: func.func @unranked_data
// CHECK-SAME:    -> tensor<*xf32>
// CHECK:         onnx.GatherElements %{{.*}}, %{{.*}} axis = -1 : tensor<*xf32>, tensor<2x?xi32>{{$}}
func.func @unranked_data(%d: tensor<*xf32>, %i: tensor<2x?xi32>) -> tensor<*xf32> {
  %0 = onnx.GatherElements %d, %i axis = -1 : tensor<*xf32>, tensor<2x?xi32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Refined results of private functions propagate into callers, across
// calls: the caller's gather is refined in the next round; other users of
// the call result keep the old type through one tensor.cast. The public
// caller keeps its signature: its return casts back.
// CHECK-LABEL: func.func private @callee
// CHECK-SAME:    -> tensor<?x3xf32>
// CHECK-LABEL: func.func @caller
// CHECK-SAME:    -> tensor<*xf32>
// CHECK:         %[[R:.*]] = call @callee(%{{.*}}, %{{.*}}) : (tensor<3x4xf32>, tensor<?x3xi64>) -> tensor<?x3xf32>
// CHECK:         %[[CAST:.*]] = tensor.cast %[[R]] : tensor<?x3xf32> to tensor<*xf32>
// CHECK:         %[[G:.*]] = onnx.GatherElements %[[R]], %{{.*}} : tensor<?x3xf32>, tensor<2x3xi64>{{$}}
// CHECK:         arith.addf %[[CAST]], %[[CAST]] : tensor<*xf32>
// CHECK:         %[[GC:.*]] = tensor.cast %[[G]] : tensor<2x3xf32> to tensor<*xf32>
// CHECK:         return %[[GC]] : tensor<*xf32>
// PUBLIC-LABEL: func.func @caller
// PUBLIC-SAME:    -> tensor<2x3xf32>
func.func private @callee(%d: tensor<3x4xf32>, %i: tensor<?x3xi64>) -> tensor<*xf32> {
  %0 = onnx.GatherElements %d, %i : tensor<3x4xf32>, tensor<?x3xi64> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @caller(%d: tensor<3x4xf32>, %i: tensor<?x3xi64>, %j: tensor<2x3xi64>) -> tensor<*xf32> {
  %0 = call @callee(%d, %i) : (tensor<3x4xf32>, tensor<?x3xi64>) -> tensor<*xf32>
  %1 = onnx.GatherElements %0, %j : tensor<*xf32>, tensor<2x3xi64> -> tensor<*xf32>
  %2 = arith.addf %0, %0 : tensor<*xf32>
  return %1 : tensor<*xf32>
}

// -----

// Returns that disagree leave the function type alone; each return casts
// its refined operand back to the function's result type.
// CHECK-LABEL: func.func @two_returns
// CHECK-SAME:    -> tensor<*xf32>
// CHECK:         %[[A:.*]] = onnx.GatherElements {{.*}} : tensor<3x4xf32>, tensor<2x3xi64>{{$}}
// CHECK:         %[[CA:.*]] = tensor.cast %[[A]] : tensor<2x3xf32> to tensor<*xf32>
// CHECK:         return %[[CA]] : tensor<*xf32>
// CHECK:         %[[B:.*]] = onnx.GatherElements {{.*}} : tensor<3x4xf32>, tensor<1x3xi64>{{$}}
// CHECK:         %[[CB:.*]] = tensor.cast %[[B]] : tensor<1x3xf32> to tensor<*xf32>
// CHECK:         return %[[CB]] : tensor<*xf32>
func.func @two_returns(%c: i1, %d: tensor<3x4xf32>, %i: tensor<2x3xi64>, %j: tensor<1x3xi64>) -> tensor<*xf32> {
  cf.cond_br %c, ^a, ^b
^a:
  %0 = onnx.GatherElements %d, %i : tensor<3x4xf32>, tensor<2x3xi64> -> tensor<*xf32>
  return %0 : tensor<*xf32>
^b:
  %1 = onnx.GatherElements %d, %j : tensor<3x4xf32>, tensor<1x3xi64> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// -----

// A function referenced other than by a call keeps its type.
// CHECK-LABEL: func.func @referenced
// CHECK-SAME:    -> tensor<*xf32>
// CHECK:         tensor.cast %{{.*}} : tensor<2x3xf32> to tensor<*xf32>
// CHECK-LABEL: func.func @take_address
// CHECK:         constant @referenced
func.func @referenced(%d: tensor<3x4xf32>, %i: tensor<2x3xi64>) -> tensor<*xf32> {
  %0 = onnx.GatherElements %d, %i : tensor<3x4xf32>, tensor<2x3xi64> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @take_address() {
  %f = func.constant @referenced : (tensor<3x4xf32>, tensor<2x3xi64>) -> tensor<*xf32>
  return
}

// -----

// A conflict between a declared and an inferred static dim is an error.
func.func @conflict(%d: tensor<3x4xf32>, %i: tensor<2x3xi64>) -> tensor<2x4xf32> {
  // expected-error @+2 {{'onnx.GatherElements' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  // expected-error @+1 {{'onnx.GatherElements' op failed to infer returned types}}
  %0 = onnx.GatherElements %d, %i : tensor<3x4xf32>, tensor<2x3xi64> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Functions in nested modules are refined (private) or cast back (public).
// CHECK-LABEL: module @inner
// CHECK:         func.func private @f_private
// CHECK-SAME:      -> tensor<2x3xf32>
// CHECK:         func.func @f_public
// CHECK-SAME:      -> tensor<?x3xf32>
// CHECK:           tensor.cast %{{.*}} : tensor<2x3xf32> to tensor<?x3xf32>
module @inner {
  func.func private @f_private(%d: tensor<3x3xf32>, %i: tensor<2x3xi64>) -> tensor<?x3xf32> {
    %0 = onnx.GatherElements %d, %i : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<?x3xf32>
    return %0 : tensor<?x3xf32>
  }
  func.func @f_public(%d: tensor<3x3xf32>, %i: tensor<2x3xi64>) -> tensor<?x3xf32> {
    %0 = onnx.GatherElements %d, %i : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<?x3xf32>
    return %0 : tensor<?x3xf32>
  }
}
