// The functions of user-bufferization.test.
func.func @axis1(%d: tensor<512x1024xf32>, %i: tensor<512x1024xi64>) -> tensor<512x1024xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<512x1024xf32>, tensor<512x1024xi64>
  return %r : tensor<512x1024xf32>
}

func.func @axis0(%d: tensor<300x200xf32>, %i: tensor<100x200xi64>) -> tensor<100x200xf32> {
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<300x200xf32>, tensor<100x200xi64>
  return %r : tensor<100x200xf32>
}

func.func @i32(%d: tensor<512x1024xf32>, %i: tensor<512x1024xi32>) -> tensor<512x1024xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<512x1024xf32>, tensor<512x1024xi32>
  return %r : tensor<512x1024xf32>
}

func.func @dynamic(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  return %r : tensor<?x?xf32>
}
