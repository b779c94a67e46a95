func.func @static_overflow() -> tensor<2x9223372036854775807xf32> {
  %d = arith.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %i = arith.constant dense<0> : tensor<2x9223372036854775807xi64>
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<2x1xf32>, tensor<2x9223372036854775807xi64>
  return %r : tensor<2x9223372036854775807xf32>
}
