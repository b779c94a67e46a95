// REQUIRES: jit
// !onnx.string data: any length including empty, UTF-8, bytes that need
// escaping when printed; i32 and i64 indices, negative ones included; static
// and dynamic shapes; constants built with onnx.Constant (and a splat).
// RUN: gather-runner %s -e main --entry-point-result=void | FileCheck %s
// RUN: gather-runner %s -e main --entry-point-result=void -O0 | FileCheck %s

// CHECK: result 0: tensor<5x!onnx.string> = ["tab\there", "", "größe", "tab\there", "数据"]
// CHECK-NEXT: result 1: tensor<4x!onnx.string> = ["数据", "quote\" backslash\\ newline\n bell\07", "", "größe"]
// CHECK-NEXT{LITERAL}: result 2: tensor<2x2x!onnx.string> = [["b", "a"], ["c", "c"]]
// CHECK-NEXT{LITERAL}: result 3: tensor<2x3x!onnx.string> = [["same", "same", "same"], ["same", "same", "same"]]
// CHECK-NOT: result

func.func @gather_i64(%d: tensor<?x!onnx.string>, %i: tensor<?xi64>) -> tensor<?x!onnx.string> {
  %0 = onnx.GatherElements %d, %i : tensor<?x!onnx.string>, tensor<?xi64>
  return %0 : tensor<?x!onnx.string>
}

func.func @gather_i32(%d: tensor<5x!onnx.string>, %i: tensor<4xi32>) -> tensor<4x!onnx.string> {
  %0 = onnx.GatherElements %d, %i axis = -1 : tensor<5x!onnx.string>, tensor<4xi32>
  return %0 : tensor<4x!onnx.string>
}

func.func @gather_2d(%d: tensor<2x3x!onnx.string>, %i: tensor<2x2xi64>) -> tensor<2x2x!onnx.string> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<2x3x!onnx.string>, tensor<2x2xi64>
  return %0 : tensor<2x2x!onnx.string>
}

func.func @gather_splat(%d: tensor<2x3x!onnx.string>, %i: tensor<2x3xi32>) -> tensor<2x3x!onnx.string> {
  %0 = onnx.GatherElements %d, %i : tensor<2x3x!onnx.string>, tensor<2x3xi32>
  return %0 : tensor<2x3x!onnx.string>
}

func.func @main() -> (tensor<?x!onnx.string>, tensor<4x!onnx.string>, tensor<2x2x!onnx.string>, tensor<2x3x!onnx.string>) {
  %words = onnx.Constant dense<["größe", "", "数据", "tab\09here"]> : tensor<4x!onnx.string>
  %i64 = onnx.Constant dense<[3, -3, 0, -1, 2]> : tensor<5xi64>
  %d = tensor.cast %words : tensor<4x!onnx.string> to tensor<?x!onnx.string>
  %i = tensor.cast %i64 : tensor<5xi64> to tensor<?xi64>
  %r0 = call @gather_i64(%d, %i) : (tensor<?x!onnx.string>, tensor<?xi64>) -> tensor<?x!onnx.string>

  %more = onnx.Constant dense<["größe", "", "quote\22 backslash\5C newline\0A bell\07", "数据", "x"]> : tensor<5x!onnx.string>
  %i32 = onnx.Constant dense<[-2, 2, 1, 0]> : tensor<4xi32>
  %r1 = call @gather_i32(%more, %i32) : (tensor<5x!onnx.string>, tensor<4xi32>) -> tensor<4x!onnx.string>

  %grid = onnx.Constant dense<[["a", "b", "c"], ["a", "b", "c"]]> : tensor<2x3x!onnx.string>
  %gi = onnx.Constant dense<[[1, 0], [-1, 2]]> : tensor<2x2xi64>
  %r2 = call @gather_2d(%grid, %gi) : (tensor<2x3x!onnx.string>, tensor<2x2xi64>) -> tensor<2x2x!onnx.string>

  %splat = onnx.Constant dense<"same"> : tensor<2x3x!onnx.string>
  %si = onnx.Constant dense<[[0, -1, 1], [-2, 0, 1]]> : tensor<2x3xi32>
  %r3 = call @gather_splat(%splat, %si) : (tensor<2x3x!onnx.string>, tensor<2x3xi32>) -> tensor<2x3x!onnx.string>
  return %r0, %r1, %r2, %r3 : tensor<?x!onnx.string>, tensor<4x!onnx.string>, tensor<2x2x!onnx.string>, tensor<2x3x!onnx.string>
}
