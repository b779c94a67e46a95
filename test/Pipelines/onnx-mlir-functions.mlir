// GatherElements test functions written as in onnx-mlir's own tests
// (generic form, onnx.Constant, "func.return" / "onnx.Return", an unranked
// result) go through the whole pipeline to the LLVM dialect.
// RUN: gather-opt %s --onnx-to-llvm | FileCheck %s --implicit-check-not=' onnx.' --implicit-check-not=' "onnx.' --implicit-check-not=func.func --implicit-check-not=linalg.
// CHECK-DAG: llvm.func @test_gather_elements_axis0(
// CHECK-DAG: llvm.func @test_gather_elements(
// CHECK-DAG: llvm.func @test_unranked(

func.func @test_gather_elements_axis0(%arg0 : tensor<3x3xf32>) -> tensor<2x3xf32> {
  %indices = onnx.Constant dense<[[1, 2, 0], [2, 0, 0]]> : tensor<2x3xi64>
  %0 = "onnx.GatherElements"(%arg0, %indices) {axis = 0 : si64} : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  "func.return"(%0) : (tensor<2x3xf32>) -> ()
}
func.func @test_gather_elements(%arg0: tensor<4xi64>, %arg1: tensor<2xi64>) -> tensor<2xi64> {
  %0 = "onnx.GatherElements"(%arg0, %arg1) : (tensor<4xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
func.func @test_unranked(%arg0 : tensor<12x14x1024xf32>, %arg1 : tensor<12x14x14xi64>) -> tensor<*xf32> {
  %1 = "onnx.GatherElements"(%arg0, %arg1) {axis = -1 : si64} : (tensor<12x14x1024xf32>, tensor<12x14x14xi64>) -> tensor<*xf32>
  "onnx.Return"(%1) : (tensor<*xf32>) -> ()
}
