// REQUIRES: jit
// A result with a negative size (tensor.empty of a negative dynamic size:
// no such tensor exists) is a run-time error, not printed as if valid
// (before: `result 0: tensor<-3x0xf32> = []`, exit status 0).
// RUN: not gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s
// CHECK: error: cannot print result 0: tensor<-3x0xf32> has the negative size -3 in dimension 0
// CHECK-NOT: result 0:

func.func @size() -> index {
  %c = arith.constant -3 : index
  return %c : index
}

func.func @main() -> tensor<?x0xf32> {
  %n = func.call @size() : () -> index
  %e = tensor.empty(%n) : tensor<?x0xf32>
  return %e : tensor<?x0xf32>
}
