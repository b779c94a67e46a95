// GatherElements test functions as written in onnx-mlir's own test files
// (test/mlir/conversion/onnx_to_krnl/Tensor/GatherElements*.mlir: generic
// form, onnx.Constant, "func.return" / "onnx.Return", an unranked result,
// one function per split) go through the whole pipeline to the LLVM dialect.
// RUN: gather-opt %s --split-input-file --onnx-to-llvm | FileCheck %s --implicit-check-not=' onnx.' --implicit-check-not=' "onnx.' --implicit-check-not=func.func --implicit-check-not=linalg.
// CHECK: llvm.func @test_gather_elements_axis0(
// CHECK: llvm.func @test_gather_elements_axis0neg(
// CHECK: llvm.func @test_gather_elements_axis1(
// CHECK: llvm.func @test_gather_elements(
// CHECK: llvm.func @test_unranked(
// CHECK: llvm.func @main_graph(

func.func @test_gather_elements_axis0(%arg0 : tensor<3x3xf32>) -> tensor<2x3xf32> {
  %indices = onnx.Constant dense<[[1, 2, 0], [2, 0, 0]]> : tensor<2x3xi64>
  %0 = "onnx.GatherElements"(%arg0, %indices) {axis = 0 : si64} : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  "func.return"(%0) : (tensor<2x3xf32>) -> ()
}

// -----

func.func @test_gather_elements_axis0neg(%arg0 : tensor<3x2xf32>) -> tensor<2x2xf32> {
  %indices = onnx.Constant dense<[[0, -1], [1, 2]]> : tensor<2x2xi64>
  %0 = "onnx.GatherElements"(%arg0, %indices) {axis = 0 : si64} : (tensor<3x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  "func.return"(%0) : (tensor<2x2xf32>) -> ()
}

// -----

func.func @test_gather_elements_axis1(%arg0 : tensor<3x2xf32>) -> tensor<2x2xf32> {
  %indices = onnx.Constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %0 = "onnx.GatherElements"(%arg0, %indices) {axis = 1 : si64} : (tensor<3x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  "func.return"(%0) : (tensor<2x2xf32>) -> ()
}

// -----

func.func @test_gather_elements(%arg0: tensor<4xi64>, %arg1: tensor<2xi64>) -> tensor<2xi64> {
  %0 = "onnx.GatherElements"(%arg0, %arg1) : (tensor<4xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @test_unranked(%arg0 : tensor<12x14x1024xf32>, %arg1 : tensor<12x14x14xi64>) -> tensor<*xf32> {
  %1 = "onnx.GatherElements"(%arg0, %arg1) {axis = -1 : si64} : (tensor<12x14x1024xf32>, tensor<12x14x14xi64>) -> tensor<*xf32>
  "onnx.Return"(%1) : (tensor<*xf32>) -> ()
}

// -----

// A model as onnx-mlir imports it: onnx.EntryPoint names the entry function
// (it is erased; the function stays), an unused onnx.NoValue, onnx.Return.
module {
  func.func @main_graph(%arg0: tensor<3x2xf32> {onnx.name = "data"}, %arg1: tensor<2x2xi64> {onnx.name = "indices"}) -> (tensor<*xf32> {onnx.name = "output"}) {
    %none = "onnx.NoValue"() {value} : () -> none
    %0 = "onnx.GatherElements"(%arg0, %arg1) {axis = 1 : si64, onnx_node_name = "gather"} : (tensor<3x2xf32>, tensor<2x2xi64>) -> tensor<*xf32>
    "onnx.Return"(%0) : (tensor<*xf32>) -> ()
  }
  "onnx.EntryPoint"() {func = @main_graph} : () -> ()
}
