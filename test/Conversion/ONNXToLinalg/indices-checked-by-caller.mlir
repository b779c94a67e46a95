// A gather marked gather.indices_checked_by_caller (a process's part of a
// partitioned gather, whose caller checks the index values globally):
// convert-onnx-to-linalg checks no index values itself and reads index 0
// for a value out of range; without the mark, the check is there.
// RUN: gather-opt %s --convert-onnx-to-linalg -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @marked(
// CHECK-NOT: gatherReportIndexError
// CHECK-NOT: tensor<i1>
// CHECK: linalg.generic
// CHECK-NOT: gatherReportIndexError
// CHECK: return
func.func @marked(%d: tensor<4x6xf32>, %i: tensor<4x3xi64>) -> tensor<4x3xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 {gather.indices_checked_by_caller} : tensor<4x6xf32>, tensor<4x3xi64>
  return %0 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @unmarked(
// CHECK: outs(%{{.*}} : tensor<i1>)
// CHECK: call @gatherReportIndexError
func.func @unmarked(%d: tensor<4x6xf32>, %i: tensor<4x3xi64>) -> tensor<4x3xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4x6xf32>, tensor<4x3xi64>
  return %0 : tensor<4x3xf32>
}
