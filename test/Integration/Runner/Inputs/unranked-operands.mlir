// Input of command-line-errors.test (not a test itself): a gather whose
// rank is unknown, which the lowering rejects.
func.func @gather(%d: tensor<*xf32>, %i: tensor<*xi64>) -> tensor<*xf32> {
  %0 = onnx.GatherElements %d, %i : tensor<*xf32>, tensor<*xi64>
  return %0 : tensor<*xf32>
}

func.func @main() {
  return
}
