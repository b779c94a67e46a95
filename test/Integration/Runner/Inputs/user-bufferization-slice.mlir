// @slice of user-bufferization.test: a gather of a strided slice. (Not
// with one-shot-bufferize's defaults, which leave a to_tensor of a view of
// an argument's buffer that One-Shot Bufferize refuses later.)
func.func private @gather4(%d: tensor<4x4xf32>, %i: tensor<4x4xi64>) -> tensor<4x4xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<4x4xf32>, tensor<4x4xi64>
  return %r : tensor<4x4xf32>
}

func.func @slice(%d: tensor<4x8xf32>, %i: tensor<4x4xi64>) -> tensor<4x4xf32> {
  %s = tensor.extract_slice %d[0, 0] [4, 4] [1, 2] : tensor<4x8xf32> to tensor<4x4xf32>
  %r = call @gather4(%s, %i) : (tensor<4x4xf32>, tensor<4x4xi64>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
