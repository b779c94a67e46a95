// RUN: gather-opt %s --mlir-print-op-generic | FileCheck %s
// RUN: gather-opt %s | gather-opt --mlir-print-op-generic | FileCheck %s

// Result-type inference of onnx.GatherElements: without `-> type`, the
// custom form gets the result type tensor<(shape of indices) x (element type
// of data)>. The generic form spells the result type out, so it shows what
// was inferred.

// CHECK-LABEL: "func.func"() <{function_type = {{.*}}, sym_name = "static"}>
// CHECK:         "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 0 : si64}> : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
// CHECK-NEXT:    "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 1 : si64}> : (tensor<3x3xf32>, tensor<3x7xi64>) -> tensor<3x7xf32>
// CHECK-NEXT:    "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = -1 : si64}> : (tensor<3x3xf32>, tensor<1x1xi64>) -> tensor<1x1xf32>
func.func @static(%data: tensor<3x3xf32>, %i0: tensor<2x3xi64>, %i1: tensor<3x7xi64>, %i2: tensor<1x1xi64>) {
  %0 = onnx.GatherElements %data, %i0 : tensor<3x3xf32>, tensor<2x3xi64>
  %1 = onnx.GatherElements %data, %i1 axis = 1 : tensor<3x3xf32>, tensor<3x7xi64>
  %2 = onnx.GatherElements %data, %i2 axis = -1 : tensor<3x3xf32>, tensor<1x1xi64>
  return
}

// i32 indices: the result element type is still that of `data`.
// CHECK-LABEL: sym_name = "i32_indices"
// CHECK:         "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 0 : si64}> : (tensor<4x5xf16>, tensor<2x5xi32>) -> tensor<2x5xf16>
// CHECK-NEXT:    "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 0 : si64}> : (tensor<4xi64>, tensor<6xi32>) -> tensor<6xi64>
func.func @i32_indices(%d0: tensor<4x5xf16>, %i0: tensor<2x5xi32>, %d1: tensor<4xi64>, %i1: tensor<6xi32>) {
  %0 = onnx.GatherElements %d0, %i0 : tensor<4x5xf16>, tensor<2x5xi32>
  %1 = onnx.GatherElements %d1, %i1 : tensor<4xi64>, tensor<6xi32>
  return
}

// Dynamic dimensions of `indices` stay dynamic; dynamic dimensions of `data`
// do not reach the result.
// CHECK-LABEL: sym_name = "dynamic"
// CHECK:         "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 1 : si64}> : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
// CHECK-NEXT:    "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 0 : si64}> : (tensor<?x?xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
// CHECK-NEXT:    "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 0 : si64}> : (tensor<4x3xf32>, tensor<?x3xi32>) -> tensor<?x3xf32>
func.func @dynamic(%d0: tensor<?x?xf32>, %i0: tensor<?x?xi64>, %i1: tensor<2x3xi64>,
                   %d1: tensor<4x3xf32>, %i2: tensor<?x3xi32>) {
  %0 = onnx.GatherElements %d0, %i0 axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  %1 = onnx.GatherElements %d0, %i1 : tensor<?x?xf32>, tensor<2x3xi64>
  %2 = onnx.GatherElements %d1, %i2 : tensor<4x3xf32>, tensor<?x3xi32>
  return
}

// Unranked `indices` give an unranked result; unranked `data` with ranked
// `indices` gives a ranked one.
// CHECK-LABEL: sym_name = "unranked"
// CHECK:         "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 0 : si64}> : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
// CHECK-NEXT:    "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 0 : si64}> : (tensor<3x3xbf16>, tensor<*xi32>) -> tensor<*xbf16>
// CHECK-NEXT:    "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 1 : si64}> : (tensor<*xf32>, tensor<2x?xi64>) -> tensor<2x?xf32>
func.func @unranked(%d0: tensor<*xf32>, %i0: tensor<*xi64>, %d1: tensor<3x3xbf16>,
                    %i1: tensor<*xi32>, %i2: tensor<2x?xi64>) {
  %0 = onnx.GatherElements %d0, %i0 : tensor<*xf32>, tensor<*xi64>
  %1 = onnx.GatherElements %d1, %i1 : tensor<3x3xbf16>, tensor<*xi32>
  %2 = onnx.GatherElements %d0, %i2 axis = 1 : tensor<*xf32>, tensor<2x?xi64>
  return
}

// Non-builtin and non-float element types are carried over from `data`.
// CHECK-LABEL: sym_name = "element_types"
// CHECK:         "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 0 : si64}> : (tensor<3x!onnx.string>, tensor<5xi32>) -> tensor<5x!onnx.string>
// CHECK-NEXT:    "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 0 : si64}> : (tensor<3xcomplex<f64>>, tensor<5xi64>) -> tensor<5xcomplex<f64>>
// CHECK-NEXT:    "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 0 : si64}> : (tensor<3xi1>, tensor<5xi32>) -> tensor<5xi1>
// CHECK-NEXT:    "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 0 : si64}> : (tensor<3xui16>, tensor<5xi64>) -> tensor<5xui16>
func.func @element_types(%s: tensor<3x!onnx.string>, %c: tensor<3xcomplex<f64>>,
                         %b: tensor<3xi1>, %u: tensor<3xui16>,
                         %i32: tensor<5xi32>, %i64: tensor<5xi64>) {
  %0 = onnx.GatherElements %s, %i32 : tensor<3x!onnx.string>, tensor<5xi32>
  %1 = onnx.GatherElements %c, %i64 : tensor<3xcomplex<f64>>, tensor<5xi64>
  %2 = onnx.GatherElements %b, %i32 : tensor<3xi1>, tensor<5xi32>
  %3 = onnx.GatherElements %u, %i64 : tensor<3xui16>, tensor<5xi64>
  return
}

// A declared result type less static than the inferred one is accepted and
// kept as declared.
// CHECK-LABEL: sym_name = "less_static_result"
// CHECK:         "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 0 : si64}> : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<?x3xf32>
// CHECK-NEXT:    "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 0 : si64}> : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x?xf32>
// CHECK-NEXT:    "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 1 : si64}> : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<?x?xf32>
// CHECK-NEXT:    "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 1 : si64}> : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<*xf32>
// CHECK-NEXT:    "onnx.GatherElements"(%{{.*}}, %{{.*}}) <{axis = 0 : si64}> : (tensor<3x3xf32>, tensor<?x3xi64>) -> tensor<*xf32>
func.func @less_static_result(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>, %dindices: tensor<?x3xi64>) {
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<?x3xf32>
  %1 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<2x?xf32>
  %2 = onnx.GatherElements %data, %indices axis = 1 : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<?x?xf32>
  %3 = onnx.GatherElements %data, %indices axis = 1 : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<*xf32>
  %4 = onnx.GatherElements %data, %dindices : tensor<3x3xf32>, tensor<?x3xi64> -> tensor<*xf32>
  return
}
