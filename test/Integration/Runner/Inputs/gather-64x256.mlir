// A gather large enough to be vectorized: data[i][j] = 256 i + j,
// indices[i][j] = 3 - j (negative from j = 4 on: 255, 254, ...); prints the
// first 2 x 8 results.
func.func @gather(%d: tensor<64x256xf32>, %i: tensor<64x256xi64>) -> tensor<64x256xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<64x256xf32>, tensor<64x256xi64>
  return %0 : tensor<64x256xf32>
}

func.func @main() -> tensor<2x8xf32> {
  %d = tensor.generate {
  ^bb0(%r: index, %c: index):
    %c256 = arith.constant 256 : index
    %a = arith.muli %r, %c256 : index
    %b = arith.addi %a, %c : index
    %i64 = arith.index_cast %b : index to i64
    %f = arith.sitofp %i64 : i64 to f32
    tensor.yield %f : f32
  } : tensor<64x256xf32>
  %i = tensor.generate {
  ^bb0(%r: index, %c: index):
    %c3 = arith.constant 3 : index
    %v = arith.subi %c3, %c : index
    %i64 = arith.index_cast %v : index to i64
    tensor.yield %i64 : i64
  } : tensor<64x256xi64>
  %g = call @gather(%d, %i) : (tensor<64x256xf32>, tensor<64x256xi64>) -> tensor<64x256xf32>
  %s = tensor.extract_slice %g[0, 0] [2, 8] [1, 1] : tensor<64x256xf32> to tensor<2x8xf32>
  return %s : tensor<2x8xf32>
}
