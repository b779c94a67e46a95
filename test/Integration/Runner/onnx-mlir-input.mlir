// REQUIRES: jit
// onnx-mlir style functions (generic form, onnx.Return, !onnx.String,
// unranked results, onnx.EntryPoint) run in gather-runner.
// RUN: gather-runner %s -e main --entry-point-result=void | FileCheck %s
// CHECK: result 0: tensor<2x2xf32> = {{\[\[}}2, 1], [3, 3]]
// CHECK-NEXT: result 1: tensor<2x!onnx.string> = ["b", "a"]
//
// --pass-pipeline replaces the default lowering (mlir-opt's spelling).
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(onnx-to-llvm{vector-size=0 num-threads=1})" | FileCheck %s
// A pipeline that does not reach the LLVM dialect is an error naming the
// first op it left.
// RUN: not gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(convert-onnx-to-linalg)" 2>&1 | FileCheck %s --check-prefix=PARTIAL
// PARTIAL: error: '{{[a-z._]+}}' op was left by the lowering: it is not in the LLVM dialect
// RUN: not gather-runner %s -e main --entry-point-result=void --pass-pipeline="func.func(cse)" 2>&1 | FileCheck %s --check-prefix=ANCHOR
// ANCHOR: error: --pass-pipeline must be anchored on builtin.module
//
// An entry that returns tensors, run without --entry-point-result=void:
// RUN: not gather-runner %s -e main 2>&1 | FileCheck %s --check-prefix=HINT
// HINT: error: entry function 'main' returns tensors: run it with --entry-point-result=void to print them

func.func @gather(%arg0: tensor<2x2xf32>, %arg1: tensor<2x2xi64>) -> tensor<*xf32> {
  %0 = "onnx.GatherElements"(%arg0, %arg1) {axis = 1 : si64} : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<*xf32>
  "onnx.Return"(%0) : (tensor<*xf32>) -> ()
}

func.func @strings(%arg0: tensor<2x!onnx.String>, %arg1: tensor<2xi64>) -> tensor<2x!onnx.String> {
  %0 = "onnx.GatherElements"(%arg0, %arg1) {axis = 0 : si64} : (tensor<2x!onnx.String>, tensor<2xi64>) -> tensor<2x!onnx.String>
  onnx.Return %0 : tensor<2x!onnx.String>
}

func.func @main() -> (tensor<2x2xf32>, tensor<2x!onnx.String>) {
  %d = onnx.Constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i = onnx.Constant dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>
  %0 = call @gather(%d, %i) : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<*xf32>
  %1 = tensor.cast %0 : tensor<*xf32> to tensor<2x2xf32>
  %s = onnx.Constant dense<["a", "b"]> : tensor<2x!onnx.String>
  %j = onnx.Constant dense<[1, 0]> : tensor<2xi64>
  %2 = call @strings(%s, %j) : (tensor<2x!onnx.String>, tensor<2xi64>) -> tensor<2x!onnx.String>
  onnx.Return %1, %2 : tensor<2x2xf32>, tensor<2x!onnx.String>
}

"onnx.EntryPoint"() {func = @main} : () -> ()
