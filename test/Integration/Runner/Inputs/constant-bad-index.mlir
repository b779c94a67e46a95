func.func @main() -> tensor<2xf32> {
  %d = arith.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %i = arith.constant dense<[0, 4]> : tensor<2xi64>
  %0 = onnx.GatherElements %d, %i : tensor<3xf32>, tensor<2xi64>
  return %0 : tensor<2xf32>
}
