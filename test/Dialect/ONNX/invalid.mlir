// RUN: gather-opt %s -split-input-file -verify-diagnostics

// Verifier, ODS and parser errors of onnx.GatherElements, one per case.

//===----------------------------------------------------------------------===//
// Rank of `data` and `indices`.
//===----------------------------------------------------------------------===//

func.func @data_rank_0(%data: tensor<f32>, %indices: tensor<i64>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'data' must have rank >= 1, but has type 'tensor<f32>'}}
  %0 = onnx.GatherElements %data, %indices : tensor<f32>, tensor<i64>
  return
}

// -----

func.func @data_rank_0_unranked_indices(%data: tensor<i32>, %indices: tensor<*xi32>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'data' must have rank >= 1, but has type 'tensor<i32>'}}
  %0 = onnx.GatherElements %data, %indices : tensor<i32>, tensor<*xi32>
  return
}

// -----

func.func @indices_rank_smaller(%data: tensor<3x3xf32>, %indices: tensor<3xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' must have the rank of operand 'data' (2), but has rank 1 ('tensor<3xi64>')}}
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<3xi64>
  return
}

// -----

func.func @indices_rank_larger(%data: tensor<3xf32>, %indices: tensor<1x1x?xi32>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' must have the rank of operand 'data' (1), but has rank 3 ('tensor<1x1x?xi32>')}}
  %0 = onnx.GatherElements %data, %indices : tensor<3xf32>, tensor<1x1x?xi32>
  return
}

// -----

func.func @indices_rank_0(%data: tensor<3xf32>, %indices: tensor<i64>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' must have the rank of operand 'data' (1), but has rank 0 ('tensor<i64>')}}
  %0 = onnx.GatherElements %data, %indices : tensor<3xf32>, tensor<i64>
  return
}

//===----------------------------------------------------------------------===//
// `axis` in [-r, r-1].
//===----------------------------------------------------------------------===//

// -----

func.func @axis_too_big(%data: tensor<3x3xf32>, %indices: tensor<3x3xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op attribute 'axis' = 2 is out of range [-2, 1] for operand 'data' of rank 2}}
  %0 = onnx.GatherElements %data, %indices axis = 2 : tensor<3x3xf32>, tensor<3x3xi64>
  return
}

// -----

func.func @axis_too_negative(%data: tensor<3x3xf32>, %indices: tensor<3x3xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op attribute 'axis' = -3 is out of range [-2, 1] for operand 'data' of rank 2}}
  %0 = onnx.GatherElements %data, %indices axis = -3 : tensor<3x3xf32>, tensor<3x3xi64>
  return
}

// -----

func.func @axis_int64_max(%data: tensor<?xf32>, %indices: tensor<*xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op attribute 'axis' = 9223372036854775807 is out of range [-1, 0] for operand 'data' of rank 1}}
  %0 = onnx.GatherElements %data, %indices axis = 9223372036854775807 : tensor<?xf32>, tensor<*xi64>
  return
}

// -----

func.func @axis_int64_min(%data: tensor<2x2x2xf32>, %indices: tensor<2x2x2xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op attribute 'axis' = -9223372036854775808 is out of range [-3, 2] for operand 'data' of rank 3}}
  %0 = onnx.GatherElements %data, %indices axis = -9223372036854775808 : tensor<2x2x2xf32>, tensor<2x2x2xi64>
  return
}

// -----

// The generic form with the onnx-mlir `si64` attribute out of range.
func.func @axis_out_of_range_generic(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op attribute 'axis' = 5 is out of range [-2, 1] for operand 'data' of rank 2}}
  %0 = "onnx.GatherElements"(%data, %indices) {axis = 5 : si64} : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return
}

// -----

// ONNX's `axis` is a signed 64-bit integer attribute.
func.func @axis_signless(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op attribute 'axis' failed to satisfy constraint: 64-bit signed integer attribute (write `axis = N : si64`; `i64` is signless)}}
  %0 = "onnx.GatherElements"(%data, %indices) {axis = 1 : i64} : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return
}

//===----------------------------------------------------------------------===//
// Element type of `indices` (Tind: i32 or i64).
//===----------------------------------------------------------------------===//

// -----

func.func @indices_f32(%data: tensor<3x3xf32>, %indices: tensor<3x3xf32>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' must have element type i32 or i64, but has element type 'f32'}}
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<3x3xf32>
  return
}

// -----

func.func @indices_i16(%data: tensor<3x3xf32>, %indices: tensor<3x3xi16>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' must have element type i32 or i64, but has element type 'i16'}}
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<3x3xi16>
  return
}

// -----

func.func @indices_ui64(%data: tensor<3x3xf32>, %indices: tensor<3x3xui64>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' must have element type i32 or i64, but has element type 'ui64'}}
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<3x3xui64>
  return
}

// -----

func.func @indices_i1(%data: tensor<3x3xf32>, %indices: tensor<3x3xi1>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' must have element type i32 or i64, but has element type 'i1'}}
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<3x3xi1>
  return
}

// -----

func.func @indices_si64(%data: tensor<3x3xf32>, %indices: tensor<3x3xsi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' must have element type i32 or i64, but has element type 'si64'}}
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<3x3xsi64>
  return
}

// -----

func.func @indices_index(%data: tensor<3x3xf32>, %indices: tensor<3x3xindex>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' must have element type i32 or i64, but has element type 'index'}}
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<3x3xindex>
  return
}

// -----

// The index element type is checked for unranked operands too.
func.func @indices_f32_unranked(%data: tensor<*xf32>, %indices: tensor<*xf32>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' must have element type i32 or i64, but has element type 'f32'}}
  %0 = onnx.GatherElements %data, %indices : tensor<*xf32>, tensor<*xf32>
  return
}

//===----------------------------------------------------------------------===//
// indices.shape[d] <= data.shape[d] for d != axis.
//===----------------------------------------------------------------------===//

// -----

func.func @indices_larger_off_axis(%data: tensor<3x3xf32>, %indices: tensor<2x4xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' has size 4 in dimension 1, larger than size 3 of operand 'data' there; only along the axis (dimension 0) may 'indices' be larger than 'data'}}
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<2x4xi64>
  return
}

// -----

func.func @indices_larger_off_negative_axis(%data: tensor<2x3x4xf32>, %indices: tensor<3x3x9xi32>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' has size 3 in dimension 0, larger than size 2 of operand 'data' there; only along the axis (dimension 2) may 'indices' be larger than 'data'}}
  %0 = onnx.GatherElements %data, %indices axis = -1 : tensor<2x3x4xf32>, tensor<3x3x9xi32>
  return
}

// -----

// Dynamic dimensions are skipped, static ones are still checked.
func.func @indices_larger_off_axis_partly_dynamic(%data: tensor<?x3xf32>, %indices: tensor<7x5xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' has size 5 in dimension 1, larger than size 3 of operand 'data' there; only along the axis (dimension 0) may 'indices' be larger than 'data'}}
  %0 = onnx.GatherElements %data, %indices : tensor<?x3xf32>, tensor<7x5xi64>
  return
}

//===----------------------------------------------------------------------===//
// Result type. The InferTypeOpInterface verifier reports the incompatible
// inferred type, followed by "failed to infer returned types".
//===----------------------------------------------------------------------===//

// -----

func.func @result_element_type(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>) {
  // expected-error @+2 {{'onnx.GatherElements' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf64>'}}
  // expected-error @+1 {{'onnx.GatherElements' op failed to infer returned types}}
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<2x3xf64>
  return
}

// -----

// The result element type is that of `data`, not that of `indices`.
func.func @result_element_type_of_indices(%data: tensor<3xf32>, %indices: tensor<2xi64>) {
  // expected-error @+2 {{'onnx.GatherElements' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<2xi64>'}}
  // expected-error @+1 {{'onnx.GatherElements' op failed to infer returned types}}
  %0 = "onnx.GatherElements"(%data, %indices) {axis = 0 : si64} : (tensor<3xf32>, tensor<2xi64>) -> tensor<2xi64>
  return
}

// -----

func.func @result_element_type_unranked(%data: tensor<*x!onnx.string>, %indices: tensor<*xi32>) {
  // expected-error @+2 {{'onnx.GatherElements' op inferred type(s) 'tensor<*x!onnx.string>' are incompatible with return type(s) of operation 'tensor<*xi8>'}}
  // expected-error @+1 {{'onnx.GatherElements' op failed to infer returned types}}
  %0 = onnx.GatherElements %data, %indices : tensor<*x!onnx.string>, tensor<*xi32> -> tensor<*xi8>
  return
}

// -----

// The result has the shape of `indices`, not that of `data`.
func.func @result_shape_static_conflict(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>) {
  // expected-error @+2 {{'onnx.GatherElements' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x3xf32>'}}
  // expected-error @+1 {{'onnx.GatherElements' op failed to infer returned types}}
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<3x3xf32>
  return
}

// -----

func.func @result_shape_partly_dynamic_conflict(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>) {
  // expected-error @+2 {{'onnx.GatherElements' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<?x2xf32>'}}
  // expected-error @+1 {{'onnx.GatherElements' op failed to infer returned types}}
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<?x2xf32>
  return
}

// -----

func.func @result_rank_conflict(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>) {
  // expected-error @+2 {{'onnx.GatherElements' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<2x3x1xf32>'}}
  // expected-error @+1 {{'onnx.GatherElements' op failed to infer returned types}}
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<2x3x1xf32>
  return
}

// -----

func.func @result_rank_conflict_dynamic(%data: tensor<?x?xf32>, %indices: tensor<?x?xi64>) {
  // expected-error @+2 {{'onnx.GatherElements' op inferred type(s) 'tensor<?x?xf32>' are incompatible with return type(s) of operation 'tensor<?xf32>'}}
  // expected-error @+1 {{'onnx.GatherElements' op failed to infer returned types}}
  %0 = "onnx.GatherElements"(%data, %indices) {axis = 1 : si64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?xf32>
  return
}

//===----------------------------------------------------------------------===//
// Constant `indices` must hold values in [-s, s-1], s = data.shape[axis].
//===----------------------------------------------------------------------===//

// -----

func.func @constant_index_equal_to_size(%data: tensor<3x3xf32>) {
  %indices = arith.constant dense<[[0, 1, 3], [0, 0, 0]]> : tensor<2x3xi64>
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' holds value 3 at position [0, 2], outside the valid range [-3, 2] for axis 0 of size 3}}
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<2x3xi64>
  return
}

// -----

func.func @constant_index_below_minus_size(%data: tensor<3x4xf32>) {
  %indices = arith.constant dense<[[0, -4, 3], [-5, 0, 0]]> : tensor<2x3xi64>
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' holds value -5 at position [1, 0], outside the valid range [-4, 3] for axis 1 of size 4}}
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<3x4xf32>, tensor<2x3xi64>
  return
}

// -----

func.func @constant_index_i32(%data: tensor<3x3xf32>) {
  %indices = arith.constant dense<[[0, 1, 2], [0, -4, 0]]> : tensor<2x3xi32>
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' holds value -4 at position [1, 1], outside the valid range [-3, 2] for axis 1 of size 3}}
  %0 = onnx.GatherElements %data, %indices axis = -1 : tensor<3x3xf32>, tensor<2x3xi32>
  return
}

// -----

func.func @constant_index_i32_too_big(%data: tensor<2x5xf32>) {
  %indices = arith.constant dense<[[0, 1, 2, 3, 4], [4, 3, 2, 1, 2147483647]]> : tensor<2x5xi32>
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' holds value 2147483647 at position [1, 4], outside the valid range [-5, 4] for axis 1 of size 5}}
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<2x5xf32>, tensor<2x5xi32>
  return
}

// -----

// The first offending value is reported.
func.func @constant_index_first_offender(%data: tensor<2x2x2xf32>) {
  %indices = arith.constant dense<[[[0, 1], [1, 0]], [[2, 0], [-3, 1]]]> : tensor<2x2x2xi64>
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' holds value 2 at position [1, 0, 0], outside the valid range [-2, 1] for axis 1 of size 2}}
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<2x2x2xf32>, tensor<2x2x2xi64>
  return
}

// -----

func.func @constant_index_splat(%data: tensor<3x3xf32>) {
  %indices = arith.constant dense<7> : tensor<2x3xi64>
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' holds value 7 at position [0, 0], outside the valid range [-3, 2] for axis 0 of size 3}}
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<2x3xi64>
  return
}

// -----

func.func @constant_index_splat_negative_i32(%data: tensor<3x3xf32>) {
  %indices = arith.constant dense<-4> : tensor<5x3xi32>
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' holds value -4 at position [0, 0], outside the valid range [-3, 2] for axis 0 of size 3}}
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<5x3xi32>
  return
}

// -----

func.func @constant_index_int64_min(%data: tensor<3xf32>) {
  %indices = arith.constant dense<-9223372036854775808> : tensor<3xi64>
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' holds value -9223372036854775808 at position [0], outside the valid range [-3, 2] for axis 0 of size 3}}
  %0 = onnx.GatherElements %data, %indices : tensor<3xf32>, tensor<3xi64>
  return
}

// -----

// Any constant index is out of range on an axis of size 0.
func.func @constant_index_zero_size_axis(%data: tensor<0x3xf32>) {
  %indices = arith.constant dense<0> : tensor<2x3xi64>
  // expected-error @+1 {{'onnx.GatherElements' op operand 'data' has size 0 along axis 0, so no index is valid, but operand 'indices' has 6 elements}}
  %0 = onnx.GatherElements %data, %indices : tensor<0x3xf32>, tensor<2x3xi64>
  return
}

//===----------------------------------------------------------------------===//
// A data axis of size 0 with non-empty static `indices`.
//===----------------------------------------------------------------------===//

// -----

func.func @zero_size_axis(%data: tensor<0x3xf32>, %indices: tensor<2x3xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'data' has size 0 along axis 0, so no index is valid, but operand 'indices' has 6 elements}}
  %0 = onnx.GatherElements %data, %indices : tensor<0x3xf32>, tensor<2x3xi64>
  return
}

// -----

func.func @zero_size_negative_axis(%data: tensor<4x0xi1>, %indices: tensor<1x1xi32>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'data' has size 0 along axis 1, so no index is valid, but operand 'indices' has 1 elements}}
  %0 = onnx.GatherElements %data, %indices axis = -1 : tensor<4x0xi1>, tensor<1x1xi32>
  return
}

//===----------------------------------------------------------------------===//
// Element type of `data` and of the result (T), checked by ODS.
//===----------------------------------------------------------------------===//

// -----

func.func @data_f8E4M3FN(%data: tensor<3xf8E4M3FN>, %indices: tensor<3xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand #0 must be tensor of ONNX element type (T: bf16, i1, complex<f32>, complex<f64>, f64, f32, f16, i8, i16, i32, i64, ui8, ui16, ui32, ui64 or !onnx.string) values, but got 'tensor<3xf8E4M3FN>'}}
  %0 = onnx.GatherElements %data, %indices : tensor<3xf8E4M3FN>, tensor<3xi64>
  return
}

// -----

func.func @data_i4(%data: tensor<3xi4>, %indices: tensor<3xi64>) {
  // expected-error-re @+1 {{'onnx.GatherElements' op operand #0 must be tensor of ONNX element type (T: {{.*}} or !onnx.string) values, but got 'tensor<3xi4>'}}
  %0 = onnx.GatherElements %data, %indices : tensor<3xi4>, tensor<3xi64>
  return
}

// -----

func.func @data_index(%data: tensor<3xindex>, %indices: tensor<3xi64>) {
  // expected-error-re @+1 {{'onnx.GatherElements' op operand #0 must be tensor of ONNX element type (T: {{.*}} or !onnx.string) values, but got 'tensor<3xindex>'}}
  %0 = onnx.GatherElements %data, %indices : tensor<3xindex>, tensor<3xi64>
  return
}

// -----

func.func @data_si32(%data: tensor<3xsi32>, %indices: tensor<3xi64>) {
  // expected-error-re @+1 {{'onnx.GatherElements' op operand #0 must be tensor of ONNX element type (T: {{.*}} or !onnx.string) values, but got 'tensor<3xsi32>'}}
  %0 = onnx.GatherElements %data, %indices : tensor<3xsi32>, tensor<3xi64>
  return
}

// -----

func.func @data_complex_i32(%data: tensor<3xcomplex<i32>>, %indices: tensor<3xi64>) {
  // expected-error-re @+1 {{'onnx.GatherElements' op operand #0 must be tensor of ONNX element type (T: {{.*}} or !onnx.string) values, but got 'tensor<3xcomplex<i32>>'}}
  %0 = onnx.GatherElements %data, %indices : tensor<3xcomplex<i32>>, tensor<3xi64>
  return
}

// -----

func.func @data_unranked_f8E5M2(%data: tensor<*xf8E5M2>, %indices: tensor<*xi64>) {
  // expected-error-re @+1 {{'onnx.GatherElements' op operand #0 must be tensor of ONNX element type (T: {{.*}} or !onnx.string) values, but got 'tensor<*xf8E5M2>'}}
  %0 = onnx.GatherElements %data, %indices : tensor<*xf8E5M2>, tensor<*xi64>
  return
}

// -----

func.func @result_f8E4M3FN(%data: tensor<3xf32>, %indices: tensor<3xi64>) {
  // expected-error-re @+1 {{'onnx.GatherElements' op result #0 must be tensor of ONNX element type (T: {{.*}} or !onnx.string) values, but got 'tensor<3xf8E4M3FN>'}}
  %0 = onnx.GatherElements %data, %indices : tensor<3xf32>, tensor<3xi64> -> tensor<3xf8E4M3FN>
  return
}

//===----------------------------------------------------------------------===//
// Non-tensor operands and results.
//===----------------------------------------------------------------------===//

// -----

// The custom parser needs tensor operand types to infer the result type.
func.func @memref_operands(%data: memref<3xf32>, %indices: memref<3xi64>) {
  // expected-error @+1 {{custom op 'onnx.GatherElements' expected tensor types for 'data' and 'indices', got 'memref<3xf32>' and 'memref<3xi64>'}}
  %0 = onnx.GatherElements %data, %indices : memref<3xf32>, memref<3xi64>
  return
}

// -----

func.func @memref_indices(%data: tensor<3xf32>, %indices: memref<3xi64>) {
  // expected-error @+1 {{custom op 'onnx.GatherElements' expected tensor types for 'data' and 'indices', got 'tensor<3xf32>' and 'memref<3xi64>'}}
  %0 = onnx.GatherElements %data, %indices : tensor<3xf32>, memref<3xi64>
  return
}

// -----

// With an explicit result type the custom form parses; ODS rejects it.
func.func @memref_operands_explicit_result(%data: memref<3xf32>, %indices: memref<3xi64>) {
  // expected-error-re @+1 {{'onnx.GatherElements' op operand #0 must be tensor of ONNX element type (T: {{.*}} or !onnx.string) values, but got 'memref<3xf32>'}}
  %0 = onnx.GatherElements %data, %indices : memref<3xf32>, memref<3xi64> -> memref<3xf32>
  return
}

// -----

func.func @memref_data_generic(%data: memref<3xf32>, %indices: tensor<3xi64>) {
  // expected-error-re @+1 {{'onnx.GatherElements' op operand #0 must be tensor of ONNX element type (T: {{.*}} or !onnx.string) values, but got 'memref<3xf32>'}}
  %0 = "onnx.GatherElements"(%data, %indices) : (memref<3xf32>, tensor<3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @memref_indices_generic(%data: tensor<3xf32>, %indices: memref<3xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand #1 must be tensor of any type values, but got 'memref<3xi64>'}}
  %0 = "onnx.GatherElements"(%data, %indices) : (tensor<3xf32>, memref<3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @vector_data_generic(%data: vector<3xf32>, %indices: tensor<3xi64>) {
  // expected-error-re @+1 {{'onnx.GatherElements' op operand #0 must be tensor of ONNX element type (T: {{.*}} or !onnx.string) values, but got 'vector<3xf32>'}}
  %0 = "onnx.GatherElements"(%data, %indices) : (vector<3xf32>, tensor<3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @memref_result_generic(%data: tensor<3xf32>, %indices: tensor<3xi64>) {
  // expected-error-re @+1 {{'onnx.GatherElements' op result #0 must be tensor of ONNX element type (T: {{.*}} or !onnx.string) values, but got 'memref<3xf32>'}}
  %0 = "onnx.GatherElements"(%data, %indices) : (tensor<3xf32>, tensor<3xi64>) -> memref<3xf32>
  return
}

//===----------------------------------------------------------------------===//
// Operand and result counts, attribute kind (generic form).
//===----------------------------------------------------------------------===//

// -----

func.func @one_operand(%data: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.GatherElements' op expected 2 operands, but found 1}}
  %0 = "onnx.GatherElements"(%data) : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @no_result(%data: tensor<3xf32>, %indices: tensor<3xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op requires one result}}
  "onnx.GatherElements"(%data, %indices) : (tensor<3xf32>, tensor<3xi64>) -> ()
  return
}

// -----

func.func @axis_string(%data: tensor<3xf32>, %indices: tensor<3xi64>) {
  // expected-error @+1 {{invalid properties {axis = "x"} for op onnx.GatherElements: Invalid attribute `axis` in property conversion: "x"}}
  %0 = "onnx.GatherElements"(%data, %indices) <{axis = "x"}> : (tensor<3xf32>, tensor<3xi64>) -> tensor<3xf32>
  return
}

// -----

// With `data` unranked, a ranked `indices` fixes r = rank(indices).
func.func @unranked_data_indices_rank_0(%data: tensor<*xf32>, %indices: tensor<i64>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' must have rank >= 1, but has type 'tensor<i64>'}}
  %0 = onnx.GatherElements %data, %indices : tensor<*xf32>, tensor<i64>
  return
}

// -----

func.func @unranked_data_axis_too_big(%data: tensor<*xf32>, %indices: tensor<3xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op attribute 'axis' = 5 is out of range [-1, 0] for operand 'indices' of rank 1}}
  %0 = onnx.GatherElements %data, %indices axis = 5 : tensor<*xf32>, tensor<3xi64>
  return
}

// -----

func.func @unranked_data_axis_too_negative(%data: tensor<*xf32>, %indices: tensor<2x?xi32>) {
  // expected-error @+1 {{'onnx.GatherElements' op attribute 'axis' = -3 is out of range [-2, 1] for operand 'indices' of rank 2}}
  %0 = onnx.GatherElements %data, %indices axis = -3 : tensor<*xf32>, tensor<2x?xi32>
  return
}

//===----------------------------------------------------------------------===//
// Element counts beyond 64 bits: the rules hold for any size (no
// wrap-around: 2 x 9223372036854775807 is not -2, 2^32 x 2^32 is not 0).
//===----------------------------------------------------------------------===//

// -----

func.func @zero_size_axis_huge_indices(%data: tensor<0x4294967296xf32>, %indices: tensor<4294967296x4294967296xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'data' has size 0 along axis 0, so no index is valid, but operand 'indices' has more than 9223372036854775807 elements}}
  %0 = onnx.GatherElements %data, %indices : tensor<0x4294967296xf32>, tensor<4294967296x4294967296xi64>
  return
}

// -----

func.func @zero_size_axis_count_wraps_negative(%data: tensor<2x0xf32>, %indices: tensor<2x9223372036854775807xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op operand 'data' has size 0 along axis 1, so no index is valid, but operand 'indices' has more than 9223372036854775807 elements}}
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<2x0xf32>, tensor<2x9223372036854775807xi64>
  return
}

// -----

// A splat of an invalid index is rejected whatever its element count.
func.func @huge_splat_out_of_range(%data: tensor<2x1xf32>) {
  %indices = arith.constant dense<5> : tensor<2x9223372036854775807xi64>
  // expected-error @+1 {{'onnx.GatherElements' op operand 'indices' holds value 5 at position [0, 0], outside the valid range [-1, 0] for axis 1 of size 1}}
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<2x1xf32>, tensor<2x9223372036854775807xi64>
  return
}

// -----

// onnx.StringSlice takes i64 byte counts.
func.func @string_slice_i32(%begin: i32, %length: i64) {
  %s = onnx.ConstantString "abc"
  // expected-error @+1 {{'onnx.StringSlice' op operand #1 must be 64-bit signless integer, but got 'i32'}}
  %0 = "onnx.StringSlice"(%s, %begin, %length) : (!onnx.string, i32, i64) -> !onnx.string
  return
}
