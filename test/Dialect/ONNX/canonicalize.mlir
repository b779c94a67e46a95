// RUN: gather-opt %s --canonicalize --split-input-file | FileCheck %s

// Constant data and constant indices fold to a constant (the spec's
// test_gather_elements_negative_indices).
// CHECK-LABEL: func.func @fold_spec_negative_indices
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<{{\[}}[7.000000e+00, 5.000000e+00, 3.000000e+00], [4.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<2x3xf32>
// CHECK-NEXT:    return %[[C]]
func.func @fold_spec_negative_indices() -> tensor<2x3xf32> {
  %d = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %i = arith.constant dense<[[-1, -2, 0], [-2, 0, 0]]> : tensor<2x3xi64>
  %0 = onnx.GatherElements %d, %i : tensor<3x3xf32>, tensor<2x3xi64>
  return %0 : tensor<2x3xf32>
}

// -----

// Rank 3 along axis 1 with i32 indices larger than data along the axis.
// CHECK-LABEL: func.func @fold_rank3_axis1
// CHECK-NEXT:    arith.constant dense<{{\[}}{{\[}}[2, 1], [0, 3], [2, 3]], {{\[}}[6, 7], [4, 5], [4, 7]]]> : tensor<2x3x2xi64>
func.func @fold_rank3_axis1() -> tensor<2x3x2xi64> {
  %d = arith.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]> : tensor<2x2x2xi64>
  %i = arith.constant dense<[[[1, 0], [0, 1], [-1, 1]], [[1, -1], [0, 0], [-2, 1]]]> : tensor<2x3x2xi32>
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<2x2x2xi64>, tensor<2x3x2xi32>
  return %0 : tensor<2x3x2xi64>
}

// -----

// Every element type folds bit-exactly: ui8 above the signed maximum,
// complex, bool, -0.0 and NaN in f16.
// CHECK-LABEL: func.func @fold_types
// CHECK-DAG:     arith.constant dense<[255, 7, 255]> : tensor<3xui8>
// CHECK-DAG:     arith.constant dense<[(3.000000e+00,-4.000000e+00), (1.000000e+00,2.000000e+00)]> : tensor<2xcomplex<f64>>
// CHECK-DAG:     arith.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK-DAG:     arith.constant dense<[0x7E01, -0.000000e+00]> : tensor<2xf16>
// CHECK-NOT:     onnx.GatherElements
func.func @fold_types() -> (tensor<3xui8>, tensor<2xcomplex<f64>>, tensor<3xi1>, tensor<2xf16>) {
  %i3 = arith.constant dense<[0, 2, 0]> : tensor<3xi64>
  %i2 = arith.constant dense<[1, -2]> : tensor<2xi32>
  %du8 = arith.constant dense<[255, 0, 7]> : tensor<3xui8>
  %0 = onnx.GatherElements %du8, %i3 : tensor<3xui8>, tensor<3xi64>
  %dc = arith.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f64>>
  %1 = onnx.GatherElements %dc, %i2 : tensor<2xcomplex<f64>>, tensor<2xi32>
  %db = arith.constant dense<[true, false, false]> : tensor<3xi1>
  %2 = onnx.GatherElements %db, %i3 : tensor<3xi1>, tensor<3xi64>
  %dh = arith.constant dense<[-0.0, 0x7E01]> : tensor<2xf16>
  %3 = onnx.GatherElements %dh, %i2 : tensor<2xf16>, tensor<2xi32>
  return %0, %1, %2, %3 : tensor<3xui8>, tensor<2xcomplex<f64>>, tensor<3xi1>, tensor<2xf16>
}

// -----

// Indices that select every element of `data` in place (k along the axis,
// or k - s) fold to `data`.
// CHECK-LABEL: func.func @identity
// CHECK-SAME:    (%[[DATA:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    return %[[DATA]]
func.func @identity(%d: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %i = arith.constant dense<[[0, 1, -1], [-3, -2, 2]]> : tensor<2x3xi32>
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<2x3xf32>, tensor<2x3xi32>
  return %0 : tensor<2x3xf32>
}

// -----

// Not the identity: a permutation, a shape change, an identity pattern on
// the wrong axis, and dynamic data.
// CHECK-LABEL: func.func @not_identity
// CHECK-COUNT-4: onnx.GatherElements
func.func @not_identity(%d: tensor<2x3xf32>, %dyn: tensor<?x3xf32>, %sq: tensor<3x3xf32>) -> (tensor<2x3xf32>, tensor<2x2xf32>, tensor<3x3xf32>, tensor<2x3xf32>) {
  %perm = arith.constant dense<[[0, 2, 1], [0, 1, 2]]> : tensor<2x3xi64>
  %0 = onnx.GatherElements %d, %perm axis = 1 : tensor<2x3xf32>, tensor<2x3xi64>
  %small = arith.constant dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>
  %1 = onnx.GatherElements %d, %small axis = 1 : tensor<2x3xf32>, tensor<2x2xi64>
  %rows = arith.constant dense<[[0, 1, 2], [0, 1, 2], [0, 1, 2]]> : tensor<3x3xi64>
  %2 = onnx.GatherElements %sq, %rows axis = 0 : tensor<3x3xf32>, tensor<3x3xi64>
  %ident = arith.constant dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi64>
  %3 = onnx.GatherElements %dyn, %ident axis = 1 : tensor<?x3xf32>, tensor<2x3xi64>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x2xf32>, tensor<3x3xf32>, tensor<2x3xf32>
}

// -----

// Constant indices out of range on a dynamic axis are not folded: the
// run-time check reports them.
// CHECK-LABEL: func.func @no_fold_out_of_range
// CHECK:         onnx.GatherElements
func.func @no_fold_out_of_range(%d: tensor<2x?xf32>) -> tensor<2x1xf32> {
  %i = arith.constant dense<[[7], [0]]> : tensor<2x1xi64>
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<2x?xf32>, tensor<2x1xi64>
  return %0 : tensor<2x1xf32>
}

// -----

// Results above 2^20 elements are not folded (nor walked): a huge splat
// costs nothing.
// CHECK-LABEL: func.func @no_fold_huge
// CHECK:         onnx.GatherElements
func.func @no_fold_huge(%d: tensor<5000000000xf32>) -> tensor<5000000000xf32> {
  %i = arith.constant dense<0> : tensor<5000000000xi64>
  %0 = onnx.GatherElements %d, %i : tensor<5000000000xf32>, tensor<5000000000xi64>
  return %0 : tensor<5000000000xf32>
}

// -----

// A constant gather whose element count does not fit in 64 bits is not
// folded (the folder counts without wrap-around; it used to abort).
// CHECK-LABEL: func.func @no_fold_count_overflow
// CHECK:         %[[R:.*]] = onnx.GatherElements
// CHECK-NEXT:    return %[[R]] : tensor<2x9223372036854775807xf32>
func.func @no_fold_count_overflow() -> tensor<2x9223372036854775807xf32> {
  %d = arith.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %i = arith.constant dense<0> : tensor<2x9223372036854775807xi64>
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<2x1xf32>, tensor<2x9223372036854775807xi64>
  return %r : tensor<2x9223372036854775807xf32>
}

// -----

// Nor one whose count wraps to exactly 0 (2^32 x 2^32), nor the identity
// fold of such a shape.
// CHECK-LABEL: func.func @no_fold_count_wraps_to_zero
// CHECK:         %[[R:.*]] = onnx.GatherElements
// CHECK-NEXT:    return %[[R]]
func.func @no_fold_count_wraps_to_zero() -> tensor<4294967296x4294967296xf32> {
  %d = arith.constant dense<1.0> : tensor<4294967296x4294967296xf32>
  %i = arith.constant dense<0> : tensor<4294967296x4294967296xi64>
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<4294967296x4294967296xf32>, tensor<4294967296x4294967296xi64>
  return %r : tensor<4294967296x4294967296xf32>
}

// -----

// A tensor.cast of the result (its only use) to a more static type becomes
// the declared result type, which the lowering checks at run time.
// CHECK-LABEL: func.func @cast_to_static
// CHECK-NEXT:    %[[R:.*]] = onnx.GatherElements %arg0, %arg1 axis = 1 {onnx_node_name = "g"} : tensor<?x?xf32>, tensor<?x?xi64> -> tensor<2x?xf32>
// CHECK-NEXT:    return %[[R]] : tensor<2x?xf32>
func.func @cast_to_static(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<2x?xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 {onnx_node_name = "g"} : tensor<?x?xf32>, tensor<?x?xi64>
  %c = tensor.cast %r : tensor<?x?xf32> to tensor<2x?xf32>
  return %c : tensor<2x?xf32>
}

// -----

// An unranked result too.
// CHECK-LABEL: func.func @cast_unranked_to_static
// CHECK-NEXT:    %[[R:.*]] = onnx.GatherElements %arg0, %arg1 : tensor<*xf32>, tensor<*xi64> -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[R]]
func.func @cast_unranked_to_static(%d: tensor<*xf32>, %i: tensor<*xi64>) -> tensor<2x3xf32> {
  %r = onnx.GatherElements %d, %i : tensor<*xf32>, tensor<*xi64>
  %c = tensor.cast %r : tensor<*xf32> to tensor<2x3xf32>
  return %c : tensor<2x3xf32>
}

// -----

// Not a cast to a less static type, nor one of a result with other uses.
// CHECK-LABEL: func.func @cast_kept
// CHECK:         %[[R:.*]] = onnx.GatherElements %arg0, %arg1 axis = 1 : tensor<2x3xf32>, tensor<2x3xi64>
// CHECK-NEXT:    %[[C:.*]] = tensor.cast %[[R]] : tensor<2x3xf32> to tensor<?x?xf32>
// CHECK:         %[[R2:.*]] = onnx.GatherElements %arg2, %arg3 axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
// CHECK-NEXT:    %[[C2:.*]] = tensor.cast %[[R2]] : tensor<?x?xf32> to tensor<2x3xf32>
// CHECK-NEXT:    return %[[C]], %[[C2]], %[[R2]]
func.func @cast_kept(%d: tensor<2x3xf32>, %i: tensor<2x3xi64>, %dd: tensor<?x?xf32>, %id: tensor<?x?xi64>) -> (tensor<?x?xf32>, tensor<2x3xf32>, tensor<?x?xf32>) {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<2x3xf32>, tensor<2x3xi64>
  %c = tensor.cast %r : tensor<2x3xf32> to tensor<?x?xf32>
  %r2 = onnx.GatherElements %dd, %id axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  %c2 = tensor.cast %r2 : tensor<?x?xf32> to tensor<2x3xf32>
  return %c, %c2, %r2 : tensor<?x?xf32>, tensor<2x3xf32>, tensor<?x?xf32>
}
