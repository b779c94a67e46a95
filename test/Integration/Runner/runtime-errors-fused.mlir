// The run-time index check fused into the gather's loop reports a bad index
// value wherever it sits: in a vector lane, in the scalar remainder of a row,
// in a row run by another thread, with static and dynamic shapes.
//
// RUN: not gather-runner %s -e lane --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=LANE
// RUN: not gather-runner %s -e lane --entry-point-result=void --pipeline-options="vector-size=0" 2>&1 | FileCheck %s --check-prefix=LANE
// RUN: not gather-runner %s -e lane --entry-point-result=void --pipeline-options="num-threads=2 parallel-threshold=0" 2>&1 | FileCheck %s --check-prefix=LANE
// RUN: not gather-runner %s -e lane_dynamic --entry-point-result=void --pipeline-options="num-threads=2 parallel-threshold=0" 2>&1 | FileCheck %s --check-prefix=LANE
// RUN: not gather-runner %s -e lane_dynamic --entry-point-result=void --pipeline-options="num-threads=2" 2>&1 | FileCheck %s --check-prefix=LANE
// LANE: 'onnx.GatherElements' op operand 'indices' holds value 40 at position [1, 21], outside the valid range [-40, 39] for axis 1 of size 40
// LANE-NOT: holds value
//
// RUN: not gather-runner %s -e remainder_i32 --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=REM
// RUN: not gather-runner %s -e remainder_i32 --entry-point-result=void --pipeline-options="num-threads=2 parallel-threshold=0" 2>&1 | FileCheck %s --check-prefix=REM
// REM: 'onnx.GatherElements' op operand 'indices' holds value -41 at position [0, 37], outside the valid range [-40, 39] for axis 1 of size 40
// REM-NOT: holds value
//
// Valid indices (negative ones included) in the same kernels: no report.
// RUN: gather-runner %s -e valid --entry-point-result=void --pipeline-options="num-threads=2 parallel-threshold=0" 2>&1 | FileCheck %s --check-prefix=VALID
// VALID: result 0: tensor<2x40xf32> = {{\[\[}}20, 7,
// VALID-NOT: error

func.func @g(%d: tensor<2x40xf32>, %i: tensor<2x40xi64>) -> tensor<2x40xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<2x40xf32>, tensor<2x40xi64>
  return %0 : tensor<2x40xf32>
}

func.func @g_dynamic(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  return %0 : tensor<?x?xf32>
}

func.func @g_i32(%d: tensor<2x40xf32>, %i: tensor<2x40xi32>) -> tensor<2x40xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<2x40xf32>, tensor<2x40xi32>
  return %0 : tensor<2x40xf32>
}

func.func @lane() -> tensor<2x40xf32> {
  %d = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0], [40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0]]> : tensor<2x40xf32>
  %i = arith.constant dense<[[-20, 7, 14, 1, 28, 35, -18, 9, 16, 3, 30, 37, -16, 11, 18, 5, 32, 39, -14, 13, 20, 7, 34, 1, -12, 15, 22, 9, 36, 3, -10, 17, 24, 11, 38, 5, -8, 19, 26, 13], [-19, 8, 15, 2, 29, 36, -17, 10, 17, 4, 31, 38, -15, 12, 19, 6, 33, 0, -13, 14, 21, 40, 35, 2, -11, 16, 23, 10, 37, 4, -9, 18, 25, 12, 39, 6, -7, 20, 27, 14]]> : tensor<2x40xi64>
  %r = func.call @g(%d, %i) : (tensor<2x40xf32>, tensor<2x40xi64>) -> tensor<2x40xf32>
  return %r : tensor<2x40xf32>
}

func.func @lane_dynamic() -> tensor<?x?xf32> {
  %d = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0], [40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0]]> : tensor<2x40xf32>
  %i = arith.constant dense<[[-20, 7, 14, 1, 28, 35, -18, 9, 16, 3, 30, 37, -16, 11, 18, 5, 32, 39, -14, 13, 20, 7, 34, 1, -12, 15, 22, 9, 36, 3, -10, 17, 24, 11, 38, 5, -8, 19, 26, 13], [-19, 8, 15, 2, 29, 36, -17, 10, 17, 4, 31, 38, -15, 12, 19, 6, 33, 0, -13, 14, 21, 40, 35, 2, -11, 16, 23, 10, 37, 4, -9, 18, 25, 12, 39, 6, -7, 20, 27, 14]]> : tensor<2x40xi64>
  %dd = tensor.cast %d : tensor<2x40xf32> to tensor<?x?xf32>
  %id = tensor.cast %i : tensor<2x40xi64> to tensor<?x?xi64>
  %r = func.call @g_dynamic(%dd, %id) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @remainder_i32() -> tensor<2x40xf32> {
  %d = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0], [40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0]]> : tensor<2x40xf32>
  %i = arith.constant dense<[[-20, 7, 14, 1, 28, 35, -18, 9, 16, 3, 30, 37, -16, 11, 18, 5, 32, 39, -14, 13, 20, 7, 34, 1, -12, 15, 22, 9, 36, 3, -10, 17, 24, 11, 38, 5, -8, -41, 26, 13], [-19, 8, 15, 2, 29, 36, -17, 10, 17, 4, 31, 38, -15, 12, 19, 6, 33, 0, -13, 14, 21, 8, 35, 2, -11, 16, 23, 10, 37, 4, -9, 18, 25, 12, 39, 6, -7, 20, 27, 14]]> : tensor<2x40xi32>
  %r = func.call @g_i32(%d, %i) : (tensor<2x40xf32>, tensor<2x40xi32>) -> tensor<2x40xf32>
  return %r : tensor<2x40xf32>
}

func.func @valid() -> tensor<2x40xf32> {
  %d = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0], [40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0]]> : tensor<2x40xf32>
  %i = arith.constant dense<[[-20, 7, 14, 1, 28, 35, -18, 9, 16, 3, 30, 37, -16, 11, 18, 5, 32, 39, -14, 13, 20, 7, 34, 1, -12, 15, 22, 9, 36, 3, -10, 17, 24, 11, 38, 5, -8, 19, 26, 13], [-19, 8, 15, 2, 29, 36, -17, 10, 17, 4, 31, 38, -15, 12, 19, 6, 33, 0, -13, 14, 21, 8, 35, 2, -11, 16, 23, 10, 37, 4, -9, 18, 25, 12, 39, 6, -7, 20, 27, 14]]> : tensor<2x40xi64>
  %r = func.call @g(%d, %i) : (tensor<2x40xf32>, tensor<2x40xi64>) -> tensor<2x40xf32>
  return %r : tensor<2x40xf32>
}

// Rows of 10, shorter than a vector: 11 rows are one group of 8 rows
// (vectors across rows) and 3 rows left (scalars), or two groups of threads
// (the second one of 3 rows).
// RUN: not gather-runner %s -e group_lane --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: not gather-runner %s -e group_lane --entry-point-result=void --pipeline-options="num-threads=2 parallel-threshold=0" 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: not gather-runner %s -e group_lane --entry-point-result=void --pipeline-options="vector-size=0" 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: 'onnx.GatherElements' op operand 'indices' holds value 12 at position [5, 3], outside the valid range [-12, 11] for axis 1 of size 12
// GROUP-NOT: holds value
// RUN: not gather-runner %s -e group_rest_i32 --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=GREST
// RUN: not gather-runner %s -e group_rest_i32 --entry-point-result=void --pipeline-options="num-threads=2 parallel-threshold=0" 2>&1 | FileCheck %s --check-prefix=GREST
// GREST: 'onnx.GatherElements' op operand 'indices' holds value -13 at position [9, 2], outside the valid range [-12, 11] for axis 1 of size 12
// GREST-NOT: holds value

func.func @rows(%d: tensor<11x12xf32>, %i: tensor<11x10xi64>) -> tensor<11x10xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<11x12xf32>, tensor<11x10xi64>
  return %0 : tensor<11x10xf32>
}

func.func @rows_i32(%d: tensor<11x12xf32>, %i: tensor<11x10xi32>) -> tensor<11x10xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<11x12xf32>, tensor<11x10xi32>
  return %0 : tensor<11x10xf32>
}

func.func @group_lane() -> tensor<11x10xf32> {
  %d = arith.constant dense<1.0> : tensor<11x12xf32>
  %i = arith.constant dense<[[7, -4, 11, -1, 10, 11, 8, 4, -12, 2], [-5, 8, -11, -7, -9, -1, 3, -5, 0, 5], [-9, 6, -5, -12, 11, -6, 1, -4, -7, 0], [-7, -10, -8, 7, 7, 2, -8, -8, -12, -12], [-6, -6, -7, -7, -3, -2, -6, 5, 9, 8], [-6, -7, 10, 12, 0, -3, -12, -1, 1, -7], [-8, -4, -10, -2, -3, 7, 6, -12, 7, 9], [10, -2, -10, -3, -1, -3, 3, 10, -2, -7], [3, 3, 10, -7, -11, -4, -12, 11, -1, 0], [-12, 5, 1, -1, 0, 6, -12, 2, -11, 10], [-7, 7, -6, -9, -5, 2, -1, 4, -1, 4]]> : tensor<11x10xi64>
  %r = func.call @rows(%d, %i) : (tensor<11x12xf32>, tensor<11x10xi64>) -> tensor<11x10xf32>
  return %r : tensor<11x10xf32>
}

func.func @group_rest_i32() -> tensor<11x10xf32> {
  %d = arith.constant dense<1.0> : tensor<11x12xf32>
  %i = arith.constant dense<[[-4, 2, -9, 6, 11, -1, -3, -11, 1, -10], [-6, -2, 4, 7, -1, -8, -2, -4, 10, 5], [-10, -3, 9, -2, -3, -7, -10, 8, -8, 11], [10, -3, 3, -7, 11, -11, -10, 7, 5, 0], [-11, -5, 11, 7, -1, -4, 2, 8, 1, -8], [-11, 8, -11, 3, -2, -6, -8, 11, 6, -8], [8, 1, -9, -7, 1, -1, -8, -11, 1, -3], [-8, 2, 7, -7, 4, 2, 3, 10, 11, -2], [3, -4, -3, 3, 0, -8, -9, 0, 5, -7], [8, 3, -13, -7, -10, 3, -4, 4, 5, 4], [-1, -10, -1, 10, 6, 9, -11, -3, -1, 5]]> : tensor<11x10xi32>
  %r = func.call @rows_i32(%d, %i) : (tensor<11x12xf32>, tensor<11x10xi32>) -> tensor<11x10xf32>
  return %r : tensor<11x10xf32>
}

// In-register gathers (rows of data of 16 f32 in one AVX-512 register; rows
// of 8 i32 with AVX2's permutes for Haswell): the same report, from the
// vector lane, serial or threaded, and without the permutes.
// RUN: not gather-runner %s -e permuted_lane --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=PERM
// RUN: not gather-runner %s -e permuted_lane --entry-point-result=void --pipeline-options="num-threads=2 parallel-threshold=0" 2>&1 | FileCheck %s --check-prefix=PERM
// RUN: not gather-runner %s -e permuted_lane --entry-point-result=void --pipeline-options="in-register-gathers=false" 2>&1 | FileCheck %s --check-prefix=PERM
// PERM: 'onnx.GatherElements' op operand 'indices' holds value 16 at position [1, 21], outside the valid range [-16, 15] for axis 1 of size 16
// PERM-NOT: holds value
// RUN: not gather-runner %s -e permuted_i32 --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=PERM32
// RUN: %if runs-haswell %{ not gather-runner %s -e permuted_i32 --entry-point-result=void --pipeline-options="target-cpu=haswell" 2>&1 | FileCheck %s --check-prefix=PERM32 %}
// PERM32: 'onnx.GatherElements' op operand 'indices' holds value -9 at position [2, 5], outside the valid range [-8, 7] for axis 1 of size 8
// PERM32-NOT: holds value

func.func @rows16(%d: tensor<2x16xf32>, %i: tensor<2x32xi64>) -> tensor<2x32xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<2x16xf32>, tensor<2x32xi64>
  return %0 : tensor<2x32xf32>
}

func.func @rows8_i32(%d: tensor<3x8xi32>, %i: tensor<3x16xi32>) -> tensor<3x16xi32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<3x8xi32>, tensor<3x16xi32>
  return %0 : tensor<3x16xi32>
}

func.func @permuted_lane() -> tensor<2x32xf32> {
  %d = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0]]> : tensor<2x16xf32>
  %i = arith.constant dense<[[0, 6, -15, 13, -1, -13, -6, -9, 7, 14, -1, 8, -10, -1, -16, -3, 10, 1, -5, 8, -6, -12, -8, 12, -8, -8, -16, -16, -3, -3, -6, -6], [2, 4, -4, -3, -5, -4, 8, 3, -15, 7, 10, -6, -7, 0, -12, 5, 3, -16, 5, -12, 3, 16, 3, 14, 4, -5, 14, 14, -5, -13, 0, -15]]> : tensor<2x32xi64>
  %r = func.call @rows16(%d, %i) : (tensor<2x16xf32>, tensor<2x32xi64>) -> tensor<2x32xf32>
  return %r : tensor<2x32xf32>
}

func.func @permuted_i32() -> tensor<3x16xi32> {
  %d = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 14, 15], [16, 17, 18, 19, 20, 21, 22, 23]]> : tensor<3x8xi32>
  %i = arith.constant dense<[[3, 4, -8, 5, 3, 4, -8, 6, -7, -3, -2, -5, -1, 6, 3, 3], [0, 6, -5, 3, 1, -7, 5, -6, -2, 2, 3, -4, 2, 0, -6, 1], [2, 1, -3, -6, -4, -9, 7, -3, -7, -6, 4, -7, -1, 3, 0, 6]]> : tensor<3x16xi32>
  %r = func.call @rows8_i32(%d, %i) : (tensor<3x8xi32>, tensor<3x16xi32>) -> tensor<3x16xi32>
  return %r : tensor<3x16xi32>
}
