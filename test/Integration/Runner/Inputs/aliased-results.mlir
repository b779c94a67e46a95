// The functions of aliased-results.test: results that share one buffer
// after bufferization (the same value twice after CSE merged two equal
// gathers, a view of another result, a select between two results, an
// argument twice).

func.func @same(%d: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xf32>) {
  %g = onnx.GatherElements %d, %i axis = 0 : tensor<4xf32>, tensor<4xi64>
  %h = onnx.GatherElements %d, %i axis = 0 : tensor<4xf32>, tensor<4xi64>
  return %g, %h : tensor<4xf32>, tensor<4xf32>
}

func.func @three(%d: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %g = onnx.GatherElements %d, %i axis = 0 : tensor<4xf32>, tensor<4xi64>
  return %g, %g, %g : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

func.func @view(%d: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<2x2xf32>) {
  %g = onnx.GatherElements %d, %i axis = 0 : tensor<4xf32>, tensor<4xi64>
  %v = tensor.expand_shape %g [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  return %g, %v : tensor<4xf32>, tensor<2x2xf32>
}

func.func @dynamic(%d: tensor<?xf32>, %i: tensor<?xi64>) -> (tensor<?xf32>, tensor<?xf32>) {
  %g = onnx.GatherElements %d, %i axis = 0 : tensor<?xf32>, tensor<?xi64>
  return %g, %g : tensor<?xf32>, tensor<?xf32>
}

func.func @select(%d: tensor<4xf32>, %i: tensor<4xi64>, %c: tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>) {
  %g = onnx.GatherElements %d, %i axis = 0 : tensor<4xf32>, tensor<4xi64>
  %h = onnx.GatherElements %g, %i axis = 0 : tensor<4xf32>, tensor<4xi64>
  %b = tensor.extract %c[] : tensor<i1>
  %s = arith.select %b, %g, %h : tensor<4xf32>
  return %g, %s : tensor<4xf32>, tensor<4xf32>
}

func.func @argument(%d: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %g = onnx.GatherElements %d, %i axis = 0 : tensor<4xf32>, tensor<4xi64>
  return %d, %g, %d : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
