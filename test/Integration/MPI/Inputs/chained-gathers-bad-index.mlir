func.func @g(%d: tensor<3x4xf32>, %i: tensor<6x4xi64>) -> tensor<6x4xf32> {
  %o = onnx.GatherElements %i, %i axis = 0 : tensor<6x4xi64>, tensor<6x4xi64>
  %o2 = onnx.GatherElements %d, %o axis = 0 : tensor<3x4xf32>, tensor<6x4xi64>
  return %o2 : tensor<6x4xf32>
}
func.func @main() -> tensor<6x4xf32> {
  %t = arith.constant dense<1.0> : tensor<3x4xf32>
  %j = arith.constant dense<[[5, 4, 3, 2], [0, 1, 2, 3], [-1, -6, 2, 1], [3, 3, 3, 3], [1, 1, 0, 0], [2, 5, 4, 4]]> : tensor<6x4xi64>
  %e = tensor.empty() : tensor<3x4xf32>
  %t2 = linalg.copy ins(%t : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %r = call @g(%t2, %j) : (tensor<3x4xf32>, tensor<6x4xi64>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}
