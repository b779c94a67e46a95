// REQUIRES: jit
// Rows shorter than a vector with a dynamic row count (tensor<?x10xf32>):
// groups of 8 rows chosen at run time (21 rows: 2 whole groups and 5 rows
// left; threads: 3 groups, the last one partial) print exactly what the
// scalar, single-threaded loops (the oracle) print.
//
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=0 num-threads=1" > %t.oracle
// RUN: FileCheck %s < %t.oracle
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="num-threads=1" > %t.serial
// RUN: diff %t.oracle %t.serial
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="num-threads=2 parallel-threshold=0" > %t.threads
// RUN: diff %t.oracle %t.threads
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="num-threads=2 parallel-threshold=0 gather-form=hardware" > %t.hardware
// RUN: diff %t.oracle %t.hardware
// The kernel is grouped (vectors across rows).
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen --canonicalize | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @g
// IR: tensor.collapse_shape %{{.*}} : tensor<?x10xi64> into tensor<?xi64>
// IR: vector.gather
//
// Row r of data holds 7r .. 7r + 6 (index values -7 .. 6, wrapped).
// CHECK: result 0: tensor<21x10xf32> = {{\[\[}}3, 2, 1, 2, 5, 2, 0, 3, 2, 1], [9, 7, 13,
func.func @g(%d: tensor<?x7xf32>, %i: tensor<?x10xi64>) -> tensor<?x10xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<?x7xf32>, tensor<?x10xi64>
  return %0 : tensor<?x10xf32>
}
func.func @main() -> tensor<?x10xf32> {
  %d = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0], [14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0], [21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0], [28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0], [35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0], [42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0], [49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0], [56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0], [63.0, 64.0, 65.0, 66.0, 67.0, 68.0, 69.0], [70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0], [77.0, 78.0, 79.0, 80.0, 81.0, 82.0, 83.0], [84.0, 85.0, 86.0, 87.0, 88.0, 89.0, 90.0], [91.0, 92.0, 93.0, 94.0, 95.0, 96.0, 97.0], [98.0, 99.0, 100.0, 101.0, 102.0, 103.0, 104.0], [105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0], [112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0], [119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0], [126.0, 127.0, 128.0, 129.0, 130.0, 131.0, 132.0], [133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0], [140.0, 141.0, 142.0, 143.0, 144.0, 145.0, 146.0]]> : tensor<21x7xf32>
  %i = arith.constant dense<[[-4, 2, 1, -5, -2, 2, 0, 3, 2, -6], [2, -7, 6, 0, -3, 1, -4, -4, 4, 0], [1, 6, 1, 0, -1, 3, 6, -5, -4, 3], [-5, 6, 1, -1, 4, -7, 3, 5, -6, -5], [5, 2, -7, -3, 5, -7, 6, 6, -3, 0], [2, 4, -1, 4, 5, -1, -1, 4, 5, 2], [0, -5, -2, -6, -7, -5, 0, -4, -3, 3], [-1, 5, 3, 6, -3, -1, 1, 6, -1, 2], [-2, 1, 2, -1, 2, -4, -2, 3, -7, 6], [-3, 2, 3, 4, -5, 4, 6, -2, 1, 2], [2, -6, 4, 3, -4, 3, 6, 2, -3, -3], [-6, -6, 0, 6, 3, 0, -6, -2, 5, -6], [-1, -5, -7, -3, -1, 5, -1, 6, -6, -7], [2, 2, 5, -7, -1, 4, 2, -2, 1, -3], [1, -4, -7, -3, -7, -6, -6, 2, 1, -7], [-4, -1, -3, 2, -3, -5, 4, -7, 6, -2], [-2, -2, -5, 6, -1, -1, 0, 6, 1, -1], [3, 6, 2, 3, 1, -6, 2, 5, 1, -3], [-1, 3, 4, 4, -4, -3, -1, -3, 1, -3], [1, -2, -7, 5, -1, 2, -2, -7, -1, 2], [2, 3, -5, -7, 3, 3, -2, 0, -2, 3]]> : tensor<21x10xi64>
  %dd = tensor.cast %d : tensor<21x7xf32> to tensor<?x7xf32>
  %id = tensor.cast %i : tensor<21x10xi64> to tensor<?x10xi64>
  %r = func.call @g(%dd, %id) : (tensor<?x7xf32>, tensor<?x10xi64>) -> tensor<?x10xf32>
  return %r : tensor<?x10xf32>
}
