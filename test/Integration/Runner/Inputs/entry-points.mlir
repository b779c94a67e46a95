// Entry points for command-line-errors.test (not a test itself).
func.func @takes_arguments(%d: tensor<2xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  %0 = onnx.GatherElements %d, %i : tensor<2xf32>, tensor<2xi64>
  return %0 : tensor<2xf32>
}

func.func @main() -> tensor<2xf32> {
  %d = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %i = arith.constant dense<[1, 0]> : tensor<2xi64>
  %r = func.call @takes_arguments(%d, %i) : (tensor<2xf32>, tensor<2xi64>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
