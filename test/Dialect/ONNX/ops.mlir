// RUN: gather-opt %s | gather-opt | FileCheck %s
// RUN: gather-opt %s --mlir-print-op-generic | gather-opt | FileCheck %s
// RUN: gather-opt %s --verify-roundtrip

// Round trip of onnx.GatherElements in the custom and the generic form.

// The spec's test_gather_elements_0: the attribute `axis` and the inferred
// result type are printed in the custom form.
// CHECK-LABEL: func.func @spec_example_1
// CHECK-SAME:    (%[[D:.*]]: tensor<2x2xf32>, %[[I:.*]]: tensor<2x2xi64>)
// CHECK-NEXT:    %[[R:.*]] = onnx.GatherElements %[[D]], %[[I]] axis = 1 : tensor<2x2xf32>, tensor<2x2xi64>{{$}}
// CHECK-NEXT:    return %[[R]] : tensor<2x2xf32>
func.func @spec_example_1(%data: tensor<2x2xf32>, %indices: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<2x2xf32>, tensor<2x2xi64>
  return %0 : tensor<2x2xf32>
}

// The spec's test_gather_elements_1: `indices` has fewer rows than `data`.
// CHECK-LABEL: func.func @spec_example_2
// CHECK-SAME:    (%[[D:.*]]: tensor<3x3xf32>, %[[I:.*]]: tensor<2x3xi32>)
// CHECK-NEXT:    %[[R:.*]] = onnx.GatherElements %[[D]], %[[I]] : tensor<3x3xf32>, tensor<2x3xi32>{{$}}
// CHECK-NEXT:    return %[[R]] : tensor<2x3xf32>
func.func @spec_example_2(%data: tensor<3x3xf32>, %indices: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %0 = onnx.GatherElements %data, %indices axis = 0 : tensor<3x3xf32>, tensor<2x3xi32>
  return %0 : tensor<2x3xf32>
}

// The default axis (0) is not printed, whether it was omitted or spelled out.
// CHECK-LABEL: func.func @default_axis
// CHECK-SAME:    (%[[D:.*]]: tensor<3x3xf32>, %[[I:.*]]: tensor<2x3xi64>)
// CHECK-NEXT:    %[[R0:.*]] = onnx.GatherElements %[[D]], %[[I]] : tensor<3x3xf32>, tensor<2x3xi64>{{$}}
// CHECK-NEXT:    %[[R1:.*]] = onnx.GatherElements %[[D]], %[[I]] : tensor<3x3xf32>, tensor<2x3xi64>{{$}}
// CHECK-NEXT:    return %[[R0]], %[[R1]] : tensor<2x3xf32>, tensor<2x3xf32>
func.func @default_axis(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<2x3xi64>
  %1 = onnx.GatherElements %data, %indices axis = 0 : tensor<3x3xf32>, tensor<2x3xi64>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// Every axis in [-r, r-1] for r = 3; a negative axis is kept as written.
// CHECK-LABEL: func.func @axes
// CHECK-SAME:    (%[[D:.*]]: tensor<2x3x4xf32>, %[[I:.*]]: tensor<2x3x4xi64>)
// CHECK-NEXT:    onnx.GatherElements %[[D]], %[[I]] : tensor<2x3x4xf32>, tensor<2x3x4xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %[[D]], %[[I]] axis = 1 : tensor<2x3x4xf32>, tensor<2x3x4xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %[[D]], %[[I]] axis = 2 : tensor<2x3x4xf32>, tensor<2x3x4xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %[[D]], %[[I]] axis = -1 : tensor<2x3x4xf32>, tensor<2x3x4xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %[[D]], %[[I]] axis = -2 : tensor<2x3x4xf32>, tensor<2x3x4xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %[[D]], %[[I]] axis = -3 : tensor<2x3x4xf32>, tensor<2x3x4xi64>{{$}}
// CHECK-NEXT:    return
func.func @axes(%data: tensor<2x3x4xf32>, %indices: tensor<2x3x4xi64>) {
  %0 = onnx.GatherElements %data, %indices axis = 0 : tensor<2x3x4xf32>, tensor<2x3x4xi64>
  %1 = onnx.GatherElements %data, %indices axis = 1 : tensor<2x3x4xf32>, tensor<2x3x4xi64>
  %2 = onnx.GatherElements %data, %indices axis = 2 : tensor<2x3x4xf32>, tensor<2x3x4xi64>
  %3 = onnx.GatherElements %data, %indices axis = -1 : tensor<2x3x4xf32>, tensor<2x3x4xi64>
  %4 = onnx.GatherElements %data, %indices axis = -2 : tensor<2x3x4xf32>, tensor<2x3x4xi64>
  %5 = onnx.GatherElements %data, %indices axis = -3 : tensor<2x3x4xf32>, tensor<2x3x4xi64>
  return
}

// Rank 1 is the smallest valid rank.
// CHECK-LABEL: func.func @rank_1
// CHECK-SAME:    (%[[D:.*]]: tensor<5xf32>, %[[I:.*]]: tensor<3xi32>)
// CHECK-NEXT:    %[[R:.*]] = onnx.GatherElements %[[D]], %[[I]] axis = -1 : tensor<5xf32>, tensor<3xi32>{{$}}
// CHECK-NEXT:    return %[[R]] : tensor<3xf32>
func.func @rank_1(%data: tensor<5xf32>, %indices: tensor<3xi32>) -> tensor<3xf32> {
  %0 = onnx.GatherElements %data, %indices axis = -1 : tensor<5xf32>, tensor<3xi32>
  return %0 : tensor<3xf32>
}

// Both index types (Tind).
// CHECK-LABEL: func.func @index_types
// CHECK-SAME:    (%[[D:.*]]: tensor<3x3xf32>, %[[I32:.*]]: tensor<2x3xi32>, %[[I64:.*]]: tensor<2x3xi64>)
// CHECK-NEXT:    onnx.GatherElements %[[D]], %[[I32]] axis = 1 : tensor<3x3xf32>, tensor<2x3xi32>{{$}}
// CHECK-NEXT:    onnx.GatherElements %[[D]], %[[I64]] axis = 1 : tensor<3x3xf32>, tensor<2x3xi64>{{$}}
// CHECK-NEXT:    return
func.func @index_types(%data: tensor<3x3xf32>, %i32: tensor<2x3xi32>, %i64: tensor<2x3xi64>) {
  %0 = onnx.GatherElements %data, %i32 axis = 1 : tensor<3x3xf32>, tensor<2x3xi32>
  %1 = onnx.GatherElements %data, %i64 axis = 1 : tensor<3x3xf32>, tensor<2x3xi64>
  return
}

// Every element type of the ONNX type constraint T.
// CHECK-LABEL: func.func @data_element_types
// CHECK-SAME:    %[[I:[^:]*]]: tensor<2xi64>
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xbf16>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xi1>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xcomplex<f32>>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xcomplex<f64>>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xf64>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xf32>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xf16>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xi8>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xi16>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xi32>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xi64>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xui8>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xui16>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xui32>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3xui64>, tensor<2xi64>{{$}}
// CHECK-NEXT:    onnx.GatherElements %{{.*}}, %[[I]] : tensor<3x!onnx.string>, tensor<2xi64>{{$}}
// CHECK-NEXT:    return
func.func @data_element_types(
    %bf16: tensor<3xbf16>, %i1: tensor<3xi1>, %c64: tensor<3xcomplex<f32>>,
    %c128: tensor<3xcomplex<f64>>, %f64: tensor<3xf64>, %f32: tensor<3xf32>,
    %f16: tensor<3xf16>, %i8: tensor<3xi8>, %i16: tensor<3xi16>,
    %i32: tensor<3xi32>, %i64: tensor<3xi64>, %ui8: tensor<3xui8>,
    %ui16: tensor<3xui16>, %ui32: tensor<3xui32>, %ui64: tensor<3xui64>,
    %str: tensor<3x!onnx.string>, %indices: tensor<2xi64>) {
  %0 = onnx.GatherElements %bf16, %indices : tensor<3xbf16>, tensor<2xi64>
  %1 = onnx.GatherElements %i1, %indices : tensor<3xi1>, tensor<2xi64>
  %2 = onnx.GatherElements %c64, %indices : tensor<3xcomplex<f32>>, tensor<2xi64>
  %3 = onnx.GatherElements %c128, %indices : tensor<3xcomplex<f64>>, tensor<2xi64>
  %4 = onnx.GatherElements %f64, %indices : tensor<3xf64>, tensor<2xi64>
  %5 = onnx.GatherElements %f32, %indices : tensor<3xf32>, tensor<2xi64>
  %6 = onnx.GatherElements %f16, %indices : tensor<3xf16>, tensor<2xi64>
  %7 = onnx.GatherElements %i8, %indices : tensor<3xi8>, tensor<2xi64>
  %8 = onnx.GatherElements %i16, %indices : tensor<3xi16>, tensor<2xi64>
  %9 = onnx.GatherElements %i32, %indices : tensor<3xi32>, tensor<2xi64>
  %10 = onnx.GatherElements %i64, %indices : tensor<3xi64>, tensor<2xi64>
  %11 = onnx.GatherElements %ui8, %indices : tensor<3xui8>, tensor<2xi64>
  %12 = onnx.GatherElements %ui16, %indices : tensor<3xui16>, tensor<2xi64>
  %13 = onnx.GatherElements %ui32, %indices : tensor<3xui32>, tensor<2xi64>
  %14 = onnx.GatherElements %ui64, %indices : tensor<3xui64>, tensor<2xi64>
  %15 = onnx.GatherElements %str, %indices : tensor<3x!onnx.string>, tensor<2xi64>
  return
}

// The result of a gather on each element type has that element type.
// CHECK-LABEL: func.func @data_element_types_results
// CHECK:         return %{{.*}} : tensor<2xbf16>, tensor<2xi1>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f64>>, tensor<2x!onnx.string>
func.func @data_element_types_results(
    %bf16: tensor<3xbf16>, %i1: tensor<3xi1>, %c64: tensor<3xcomplex<f32>>,
    %c128: tensor<3xcomplex<f64>>, %str: tensor<3x!onnx.string>,
    %indices: tensor<2xi32>)
    -> (tensor<2xbf16>, tensor<2xi1>, tensor<2xcomplex<f32>>,
        tensor<2xcomplex<f64>>, tensor<2x!onnx.string>) {
  %0 = onnx.GatherElements %bf16, %indices : tensor<3xbf16>, tensor<2xi32>
  %1 = onnx.GatherElements %i1, %indices : tensor<3xi1>, tensor<2xi32>
  %2 = onnx.GatherElements %c64, %indices : tensor<3xcomplex<f32>>, tensor<2xi32>
  %3 = onnx.GatherElements %c128, %indices : tensor<3xcomplex<f64>>, tensor<2xi32>
  %4 = onnx.GatherElements %str, %indices : tensor<3x!onnx.string>, tensor<2xi32>
  return %0, %1, %2, %3, %4 : tensor<2xbf16>, tensor<2xi1>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f64>>, tensor<2x!onnx.string>
}

// Dynamic dimensions: the inferred result has the (dynamic) shape of
// `indices`.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME:    (%[[D:.*]]: tensor<?x?xf32>, %[[I:.*]]: tensor<?x?xi64>)
// CHECK-NEXT:    %[[R:.*]] = onnx.GatherElements %[[D]], %[[I]] axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>{{$}}
// CHECK-NEXT:    return %[[R]] : tensor<?x?xf32>
func.func @dynamic(%data: tensor<?x?xf32>, %indices: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  return %0 : tensor<?x?xf32>
}

// Static `data`, dynamic `indices`, and the other way round: a dynamic
// dimension on either side skips the indices.shape[d] <= data.shape[d] check.
// CHECK-LABEL: func.func @mixed_dynamic
// CHECK-SAME:    (%[[D:.*]]: tensor<3x3xf32>, %[[I:.*]]: tensor<?x?xi64>, %[[DD:.*]]: tensor<?x?xf32>, %[[IS:.*]]: tensor<7x9xi32>)
// CHECK-NEXT:    %[[R0:.*]] = onnx.GatherElements %[[D]], %[[I]] : tensor<3x3xf32>, tensor<?x?xi64>{{$}}
// CHECK-NEXT:    %[[R1:.*]] = onnx.GatherElements %[[DD]], %[[IS]] axis = 1 : tensor<?x?xf32>, tensor<7x9xi32>{{$}}
// CHECK-NEXT:    return %[[R0]], %[[R1]] : tensor<?x?xf32>, tensor<7x9xf32>
func.func @mixed_dynamic(%data: tensor<3x3xf32>, %indices: tensor<?x?xi64>,
                         %ddata: tensor<?x?xf32>, %sindices: tensor<7x9xi32>)
    -> (tensor<?x?xf32>, tensor<7x9xf32>) {
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<?x?xi64>
  %1 = onnx.GatherElements %ddata, %sindices axis = 1 : tensor<?x?xf32>, tensor<7x9xi32>
  return %0, %1 : tensor<?x?xf32>, tensor<7x9xf32>
}

// Unranked operands. The result is unranked iff `indices` is.
// CHECK-LABEL: func.func @unranked
// CHECK-SAME:    (%[[D:.*]]: tensor<*xf32>, %[[I:.*]]: tensor<*xi64>, %[[DR:.*]]: tensor<3x3xf32>, %[[IR:.*]]: tensor<2x3xi32>)
// CHECK-NEXT:    %[[R0:.*]] = onnx.GatherElements %[[D]], %[[I]] : tensor<*xf32>, tensor<*xi64>{{$}}
// CHECK-NEXT:    %[[R1:.*]] = onnx.GatherElements %[[D]], %[[IR]] axis = -1 : tensor<*xf32>, tensor<2x3xi32>{{$}}
// CHECK-NEXT:    %[[R2:.*]] = onnx.GatherElements %[[DR]], %[[I]] axis = 1 : tensor<3x3xf32>, tensor<*xi64>{{$}}
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]] : tensor<*xf32>, tensor<2x3xf32>, tensor<*xf32>
func.func @unranked(%data: tensor<*xf32>, %indices: tensor<*xi64>,
                    %rdata: tensor<3x3xf32>, %rindices: tensor<2x3xi32>)
    -> (tensor<*xf32>, tensor<2x3xf32>, tensor<*xf32>) {
  %0 = onnx.GatherElements %data, %indices : tensor<*xf32>, tensor<*xi64>
  %1 = onnx.GatherElements %data, %rindices axis = -1 : tensor<*xf32>, tensor<2x3xi32>
  %2 = onnx.GatherElements %rdata, %indices axis = 1 : tensor<3x3xf32>, tensor<*xi64>
  return %0, %1, %2 : tensor<*xf32>, tensor<2x3xf32>, tensor<*xf32>
}

// A declared result type less static than the inferred one is kept and
// printed after `->`.
// CHECK-LABEL: func.func @less_static_result
// CHECK-SAME:    (%[[D:.*]]: tensor<3x3xf32>, %[[I:.*]]: tensor<2x3xi64>)
// CHECK-NEXT:    %[[R0:.*]] = onnx.GatherElements %[[D]], %[[I]] axis = 1 : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<?x3xf32>{{$}}
// CHECK-NEXT:    %[[R1:.*]] = onnx.GatherElements %[[D]], %[[I]] : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<*xf32>{{$}}
// CHECK-NEXT:    %[[R2:.*]] = onnx.GatherElements %[[D]], %[[I]] : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<?x?xf32>{{$}}
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]] : tensor<?x3xf32>, tensor<*xf32>, tensor<?x?xf32>
func.func @less_static_result(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>)
    -> (tensor<?x3xf32>, tensor<*xf32>, tensor<?x?xf32>) {
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<?x3xf32>
  %1 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<*xf32>
  %2 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<?x?xf32>
  return %0, %1, %2 : tensor<?x3xf32>, tensor<*xf32>, tensor<?x?xf32>
}

// A declared result type equal to the inferred one is not printed.
// CHECK-LABEL: func.func @explicit_inferred_result
// CHECK-SAME:    (%[[D:.*]]: tensor<3x3xf32>, %[[I:.*]]: tensor<2x3xi64>)
// CHECK-NEXT:    %[[R:.*]] = onnx.GatherElements %[[D]], %[[I]] : tensor<3x3xf32>, tensor<2x3xi64>{{$}}
// CHECK-NEXT:    return %[[R]] : tensor<2x3xf32>
func.func @explicit_inferred_result(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// The generic form printed by onnx-mlir (axis in the attribute dictionary)
// parses, and so does the generic form with properties.
// CHECK-LABEL: func.func @onnx_mlir_generic_form
// CHECK-SAME:    (%[[D:.*]]: tensor<3x3xf32>, %[[I:.*]]: tensor<2x3xi64>)
// CHECK-NEXT:    %[[R0:.*]] = onnx.GatherElements %[[D]], %[[I]] axis = 1 : tensor<3x3xf32>, tensor<2x3xi64>{{$}}
// CHECK-NEXT:    %[[R1:.*]] = onnx.GatherElements %[[D]], %[[I]] axis = -2 : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<?x3xf32>{{$}}
// CHECK-NEXT:    %[[R2:.*]] = onnx.GatherElements %[[D]], %[[I]] : tensor<3x3xf32>, tensor<2x3xi64>{{$}}
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]] : tensor<2x3xf32>, tensor<?x3xf32>, tensor<2x3xf32>
func.func @onnx_mlir_generic_form(%d: tensor<3x3xf32>, %i: tensor<2x3xi64>)
    -> (tensor<2x3xf32>, tensor<?x3xf32>, tensor<2x3xf32>) {
  %0 = "onnx.GatherElements"(%d, %i) {axis = 1 : si64} : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  %1 = "onnx.GatherElements"(%d, %i) <{axis = -2 : si64}> : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<?x3xf32>
  %2 = "onnx.GatherElements"(%d, %i) : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<?x3xf32>, tensor<2x3xf32>
}

// Discardable attributes are kept in the attribute dictionary.
// CHECK-LABEL: func.func @discardable_attr
// CHECK-SAME:    (%[[D:.*]]: tensor<3x3xf32>, %[[I:.*]]: tensor<2x3xi64>)
// CHECK-NEXT:    onnx.GatherElements %[[D]], %[[I]] axis = 1 {onnx_node_name = "gather"} : tensor<3x3xf32>, tensor<2x3xi64>{{$}}
func.func @discardable_attr(%d: tensor<3x3xf32>, %i: tensor<2x3xi64>) {
  %0 = onnx.GatherElements %d, %i axis = 1 {onnx_node_name = "gather"} : tensor<3x3xf32>, tensor<2x3xi64>
  return
}

// Along the axis, `indices` may be larger than `data` (the ONNX spec does
// not bound it); only the other dimensions are bounded by `data`'s.
// CHECK-LABEL: func.func @indices_larger_along_axis
// CHECK-SAME:    (%[[D:.*]]: tensor<2x3xf32>, %[[I0:.*]]: tensor<5x3xi64>, %[[I1:.*]]: tensor<2x8xi32>, %[[I2:.*]]: tensor<1x2xi64>)
// CHECK-NEXT:    %[[R0:.*]] = onnx.GatherElements %[[D]], %[[I0]] : tensor<2x3xf32>, tensor<5x3xi64>{{$}}
// CHECK-NEXT:    %[[R1:.*]] = onnx.GatherElements %[[D]], %[[I1]] axis = -1 : tensor<2x3xf32>, tensor<2x8xi32>{{$}}
// CHECK-NEXT:    %[[R2:.*]] = onnx.GatherElements %[[D]], %[[I2]] axis = 1 : tensor<2x3xf32>, tensor<1x2xi64>{{$}}
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]] : tensor<5x3xf32>, tensor<2x8xf32>, tensor<1x2xf32>
func.func @indices_larger_along_axis(%data: tensor<2x3xf32>, %i0: tensor<5x3xi64>,
                                     %i1: tensor<2x8xi32>, %i2: tensor<1x2xi64>)
    -> (tensor<5x3xf32>, tensor<2x8xf32>, tensor<1x2xf32>) {
  %0 = onnx.GatherElements %data, %i0 : tensor<2x3xf32>, tensor<5x3xi64>
  %1 = onnx.GatherElements %data, %i1 axis = -1 : tensor<2x3xf32>, tensor<2x8xi32>
  %2 = onnx.GatherElements %data, %i2 axis = 1 : tensor<2x3xf32>, tensor<1x2xi64>
  return %0, %1, %2 : tensor<5x3xf32>, tensor<2x8xf32>, tensor<1x2xf32>
}

// Empty `indices` give an empty result.
// CHECK-LABEL: func.func @empty_indices
// CHECK-SAME:    (%[[D:.*]]: tensor<3x3xf32>, %[[I:.*]]: tensor<0x3xi64>, %[[DZ:.*]]: tensor<0x3xf32>, %[[IZ:.*]]: tensor<0x2xi64>)
// CHECK-NEXT:    %[[R0:.*]] = onnx.GatherElements %[[D]], %[[I]] : tensor<3x3xf32>, tensor<0x3xi64>{{$}}
// CHECK-NEXT:    %[[R1:.*]] = onnx.GatherElements %[[DZ]], %[[IZ]] : tensor<0x3xf32>, tensor<0x2xi64>{{$}}
// CHECK-NEXT:    return %[[R0]], %[[R1]] : tensor<0x3xf32>, tensor<0x2xf32>
func.func @empty_indices(%data: tensor<3x3xf32>, %indices: tensor<0x3xi64>,
                         %zdata: tensor<0x3xf32>, %zindices: tensor<0x2xi64>)
    -> (tensor<0x3xf32>, tensor<0x2xf32>) {
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<0x3xi64>
  %1 = onnx.GatherElements %zdata, %zindices : tensor<0x3xf32>, tensor<0x2xi64>
  return %0, %1 : tensor<0x3xf32>, tensor<0x2xf32>
}

// A data axis of size 0 is fine when `indices` may be empty at run time
// (dynamic) or is empty.
// CHECK-LABEL: func.func @zero_size_axis
// CHECK-SAME:    (%[[D:.*]]: tensor<0x3xf32>, %[[I:.*]]: tensor<?x3xi64>)
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<> : tensor<0x3xi64>
// CHECK-NEXT:    %[[R0:.*]] = onnx.GatherElements %[[D]], %[[I]] : tensor<0x3xf32>, tensor<?x3xi64>{{$}}
// CHECK-NEXT:    %[[R1:.*]] = onnx.GatherElements %[[D]], %[[C]] : tensor<0x3xf32>, tensor<0x3xi64>{{$}}
// CHECK-NEXT:    return %[[R0]], %[[R1]] : tensor<?x3xf32>, tensor<0x3xf32>
func.func @zero_size_axis(%data: tensor<0x3xf32>, %indices: tensor<?x3xi64>)
    -> (tensor<?x3xf32>, tensor<0x3xf32>) {
  %empty = arith.constant dense<> : tensor<0x3xi64>
  %0 = onnx.GatherElements %data, %indices : tensor<0x3xf32>, tensor<?x3xi64>
  %1 = onnx.GatherElements %data, %empty : tensor<0x3xf32>, tensor<0x3xi64>
  return %0, %1 : tensor<?x3xf32>, tensor<0x3xf32>
}

// Constant indices at the bounds -s and s-1 of [-s, s-1] are valid.
// CHECK-LABEL: func.func @constant_indices_at_bounds
// CHECK-SAME:    (%[[D:.*]]: tensor<3x4xf32>)
// CHECK-NEXT:    %[[C0:.*]] = arith.constant dense<{{\[}}[-3, 2, 0, -1], [2, -3, 1, -2]]> : tensor<2x4xi64>
// CHECK-NEXT:    %[[C1:.*]] = arith.constant dense<{{\[}}[-4, 3], [3, -4], [0, -1]]> : tensor<3x2xi32>
// CHECK-NEXT:    %[[C2:.*]] = arith.constant dense<-4> : tensor<3x4xi64>
// CHECK-NEXT:    %[[C3:.*]] = arith.constant dense<2> : tensor<5x4xi32>
// CHECK-NEXT:    %[[R0:.*]] = onnx.GatherElements %[[D]], %[[C0]] : tensor<3x4xf32>, tensor<2x4xi64>{{$}}
// CHECK-NEXT:    %[[R1:.*]] = onnx.GatherElements %[[D]], %[[C1]] axis = 1 : tensor<3x4xf32>, tensor<3x2xi32>{{$}}
// CHECK-NEXT:    %[[R2:.*]] = onnx.GatherElements %[[D]], %[[C2]] axis = -1 : tensor<3x4xf32>, tensor<3x4xi64>{{$}}
// CHECK-NEXT:    %[[R3:.*]] = onnx.GatherElements %[[D]], %[[C3]] : tensor<3x4xf32>, tensor<5x4xi32>{{$}}
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]]
func.func @constant_indices_at_bounds(%data: tensor<3x4xf32>)
    -> (tensor<2x4xf32>, tensor<3x2xf32>, tensor<3x4xf32>, tensor<5x4xf32>) {
  %c0 = arith.constant dense<[[-3, 2, 0, -1], [2, -3, 1, -2]]> : tensor<2x4xi64>
  %c1 = arith.constant dense<[[-4, 3], [3, -4], [0, -1]]> : tensor<3x2xi32>
  %c2 = arith.constant dense<-4> : tensor<3x4xi64>
  %c3 = arith.constant dense<2> : tensor<5x4xi32>
  %0 = onnx.GatherElements %data, %c0 : tensor<3x4xf32>, tensor<2x4xi64>
  %1 = onnx.GatherElements %data, %c1 axis = 1 : tensor<3x4xf32>, tensor<3x2xi32>
  %2 = onnx.GatherElements %data, %c2 axis = -1 : tensor<3x4xf32>, tensor<3x4xi64>
  %3 = onnx.GatherElements %data, %c3 : tensor<3x4xf32>, tensor<5x4xi32>
  return %0, %1, %2, %3 : tensor<2x4xf32>, tensor<3x2xf32>, tensor<3x4xf32>, tensor<5x4xf32>
}

// Constant indices along an axis of dynamic size cannot be checked at
// compile time and are accepted.
// CHECK-LABEL: func.func @constant_indices_dynamic_axis
// CHECK-SAME:    (%[[D:.*]]: tensor<?x4xf32>)
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<{{\[}}[100, -100, 0, 7]]> : tensor<1x4xi64>
// CHECK-NEXT:    %[[R:.*]] = onnx.GatherElements %[[D]], %[[C]] : tensor<?x4xf32>, tensor<1x4xi64>{{$}}
// CHECK-NEXT:    return %[[R]] : tensor<1x4xf32>
func.func @constant_indices_dynamic_axis(%data: tensor<?x4xf32>) -> tensor<1x4xf32> {
  %c = arith.constant dense<[[100, -100, 0, 7]]> : tensor<1x4xi64>
  %0 = onnx.GatherElements %data, %c : tensor<?x4xf32>, tensor<1x4xi64>
  return %0 : tensor<1x4xf32>
}

// -----

// onnx.Constant of every kind, pretty and generic (as onnx-mlir prints it),
// and the lowering helpers onnx.ConstantString and onnx.StringSlice.
// CHECK-LABEL: func.func @constants
// CHECK:         onnx.Constant dense<[1, -2]> : tensor<2xi64>
// CHECK:         onnx.Constant dense<["gr\C3\B6\C3\9Fe", "", "a\22b"]> : tensor<3x!onnx.string>
// CHECK:         onnx.Constant dense<(1.000000e+00,2.000000e+00)> : tensor<1xcomplex<f32>>
// CHECK:         onnx.Constant dense<3> : tensor<2x2xui8>
// CHECK:         %[[S:.*]] = onnx.ConstantString "\E6\95\B0"
// CHECK:         onnx.StringSlice %[[S]][%[[B:.*]], %[[L:.*]]]{{$}}
func.func @constants(%begin: i64, %length: i64) {
  %0 = onnx.Constant dense<[1, -2]> : tensor<2xi64>
  %1 = onnx.Constant dense<["größe", "", "a\"b"]> : tensor<3x!onnx.string>
  %2 = "onnx.Constant"() {value = dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>} : () -> tensor<1xcomplex<f32>>
  %3 = onnx.Constant dense<3> : tensor<2x2xui8>
  %4 = onnx.ConstantString "数"
  %5 = onnx.StringSlice %4[%begin, %length]
  return
}
