// REQUIRES: jit
// onnx.Loop scan outputs through the JIT: a scalar per iteration (the
// iteration number, stacked into a rank-1 result), a gather with i32
// indices carried and stacked, a loop that runs no iteration (M = -1: an
// empty scan output), and a `cond` that ends the loop before M (the rows
// the loop ran, of a buffer of M rows).
// RUN: gather-runner %s -e main --entry-point-result=void | FileCheck %s
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=0 num-threads=1" | FileCheck %s

// CHECK: result 0: tensor<3xi64> = [0, 1, 2]
// Rotating [1, 2, 3, 4] left by one each iteration:
// CHECK-NEXT{LITERAL}: result 1: tensor<3x4xf32> = [[2, 3, 4, 1], [3, 4, 1, 2], [4, 1, 2, 3]]
// CHECK-NEXT: result 2: tensor<0x4xf32> = []
// CHECK-NEXT: result 3: tensor<1xi64> = [0]

func.func @main() -> (tensor<?xi64>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?xi64>) {
  %three = arith.constant dense<3> : tensor<i64>
  %none = "onnx.NoValue"() {value} : () -> none
  %steps = "onnx.Loop"(%three, %none) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>):
    onnx.Yield %c, %i : tensor<i1>, tensor<i64>
  }) : (tensor<i64>, none) -> tensor<?xi64>

  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %rotate = arith.constant dense<[1, 2, 3, -4]> : tensor<4xi32>
  %last, %rows = "onnx.Loop"(%three, %none, %data) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<4xf32>):
    %g = onnx.GatherElements %v, %rotate : tensor<4xf32>, tensor<4xi32>
    onnx.Yield %c, %g, %g : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }) : (tensor<i64>, none, tensor<4xf32>) -> (tensor<4xf32>, tensor<?x4xf32>)

  %minus = arith.constant dense<-1> : tensor<i64>
  %unused, %empty = "onnx.Loop"(%minus, %none, %data) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<4xf32>):
    %g = onnx.GatherElements %v, %rotate : tensor<4xf32>, tensor<4xi32>
    onnx.Yield %c, %g, %g : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }) : (tensor<i64>, none, tensor<4xf32>) -> (tensor<4xf32>, tensor<?x4xf32>)

  // `cond` true at the start, false from the body: one iteration of five.
  %five = arith.constant dense<5> : tensor<i64>
  %true = arith.constant dense<true> : tensor<i1>
  %once = "onnx.Loop"(%five, %true) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>):
    %stop = arith.constant dense<false> : tensor<i1>
    onnx.Yield %stop, %i : tensor<i1>, tensor<i64>
  }) : (tensor<i64>, tensor<i1>) -> tensor<?xi64>
  return %steps, %rows, %empty, %once : tensor<?xi64>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?xi64>
}

