// gather-reduce keeps, of three functions, only the one whose
// GatherElements convert-onnx-to-linalg cannot lower.
// RUN: gather-reduce %s '--reduction-tree=traversal-mode=0 test=%S/Inputs/cannot-lower.sh test-arg=%gather_obj_root/bin/gather-opt' | FileCheck %s
// The input itself is interesting, the reduced output still is.
// RUN: not %S/Inputs/cannot-lower.sh %gather_obj_root/bin/gather-opt %s
// RUN: gather-reduce %s '--reduction-tree=traversal-mode=0 test=%S/Inputs/cannot-lower.sh test-arg=%gather_obj_root/bin/gather-opt' -o %t.mlir
// RUN: not %S/Inputs/cannot-lower.sh %gather_obj_root/bin/gather-opt %t.mlir

// CHECK-NOT: func.func @ranked
// CHECK: func.func @both_unranked
// CHECK: onnx.GatherElements
// CHECK-NOT: func.func @spec

func.func @ranked(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<3x3xf32>, tensor<2x3xi64>
  return %out : tensor<2x3xf32>
}

func.func @both_unranked(%data: tensor<*xf32>, %indices: tensor<*xi64>) -> tensor<*xf32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<*xf32>, tensor<*xi64>
  return %out : tensor<*xf32>
}

func.func @spec() -> tensor<2x2xf32> {
  %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %o = onnx.GatherElements %d, %i axis = 1 : tensor<2x2xf32>, tensor<2x2xi64>
  return %o : tensor<2x2xf32>
}
