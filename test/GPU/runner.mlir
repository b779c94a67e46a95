// REQUIRES: jit
// gather-runner --pipeline-options=gpu=cuda: the whole pipeline, the JIT and
// libgather_cuda_runtime. @main's gathers fold at compile time: it launches
// nothing, and the modules load at their first launch only, so it runs with
// or without a GPU. @bad launches a kernel: without a CUDA driver or device,
// one error line and exit status 1, never a signal; with one (lit feature
// cuda-device), the index error, as on the CPU.
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options=gpu=cuda | FileCheck %s
// RUN: %if cuda-device %{ not gather-runner %s -e bad --entry-point-result=void --pipeline-options=gpu=cuda 2>&1 | FileCheck %s --check-prefix=BAD %} \
// RUN: %else %{ not gather-runner %s -e bad --entry-point-result=void --pipeline-options=gpu=cuda 2>&1 | FileCheck %s --check-prefix=NO-DEVICE %}
// NO-DEVICE: error: no CUDA driver/device: {{.+}} (first needed by mgpuStreamCreate)
// NO-DEVICE-NOT: PLEASE
// CHECK: result 0: tensor<2x2xf32> = {{\[\[}}1, 1], [4, 3]]
// CHECK: result 1: tensor<2x3xi32> = {{\[\[}}4, 8, 3], [7, 2, 3]]
// BAD: runner.mlir:[[# @LINE + 20]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 3 at position [1], outside the valid range [-3, 2] for axis 0 of size 3

func.func @main() -> (tensor<2x2xf32>, tensor<2x3xi32>) {
  %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %0 = onnx.GatherElements %d, %i {axis = 1 : si64} : tensor<2x2xf32>, tensor<2x2xi64>
  %d2 = arith.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>
  %i2 = arith.constant dense<[[1, 2, 0], [2, 0, 0]]> : tensor<2x3xi32>
  %1 = onnx.GatherElements %d2, %i2 {axis = 0 : si64} : tensor<3x3xi32>, tensor<2x3xi32>
  return %0, %1 : tensor<2x2xf32>, tensor<2x3xi32>
}

func.func @id(%i: tensor<2xi64>) -> tensor<?xi64> {
  %0 = tensor.cast %i : tensor<2xi64> to tensor<?xi64>
  return %0 : tensor<?xi64>
}
func.func @bad() -> tensor<?xf32> {
  %d = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %c = arith.constant dense<[0, 3]> : tensor<2xi64>
  %i = call @id(%c) : (tensor<2xi64>) -> tensor<?xi64>
  %0 = onnx.GatherElements %d, %i : tensor<3xf32>, tensor<?xi64>
  return %0 : tensor<?xf32>
}
