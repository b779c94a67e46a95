// REQUIRES: jit
// A gather whose operands reach it through casts to unranked types runs
// as a program, and, outlined, as a kernel of the ranked types the program
// knew (before: "cannot be lowered with both 'data' and 'indices'
// unranked").
// RUN: gather-runner %s -e main --entry-point-result=void | FileCheck %s
// RUN: gather-opt %s --onnx-outline-gathers | gather-runner -e main --entry-point-result=void | FileCheck %s
// RUN: gather-opt %s --onnx-outline-gathers=emit=kernels | FileCheck %s --check-prefix=KERNEL
// CHECK: result 0: tensor<2x3xf32> = {{\[\[}}3, 1, 3], [5, 5, 4]]
// KERNEL: func.func @main_gather_0(%{{.*}}: tensor<2x3xf32>, %{{.*}}: tensor<2x3xi64>) -> tensor<2x3xf32>
func.func @main() -> tensor<2x3xf32> {
  %d = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %i = arith.constant dense<[[2, 0, -1], [1, 1, 0]]> : tensor<2x3xi64>
  %du = tensor.cast %d : tensor<2x3xf32> to tensor<*xf32>
  %iu = tensor.cast %i : tensor<2x3xi64> to tensor<*xi64>
  %r = onnx.GatherElements %du, %iu axis = 1 : tensor<*xf32>, tensor<*xi64>
  %rr = tensor.cast %r : tensor<*xf32> to tensor<2x3xf32>
  return %rr : tensor<2x3xf32>
}
