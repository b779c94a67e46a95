// REQUIRES: jit
// gather-runner prints results with the runtime's gatherPrint<T>: a user
// function of that name is an error, not a silent replacement of the printer
// (nor a confusing failure later), even without any onnx op.
// RUN: not gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s
// CHECK: error: symbol 'gatherPrintF32' is reserved for gather's runtime and must be an external func.func of type '(tensor<*xf32>, i64) -> ()'
// CHECK-NOT: result 0

func.func @gatherPrintF32(%t: tensor<*xf32>, %i: i64) {
  return
}

func.func @main() -> tensor<2xf32> {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}
