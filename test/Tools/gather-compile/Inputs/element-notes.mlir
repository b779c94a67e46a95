// Entry points with the element types whose C spelling carries a note.
func.func @bools(%arg0: tensor<3xi1>, %arg1: tensor<2xi64>) -> tensor<2xi1> {
  %0 = onnx.GatherElements %arg0, %arg1 axis = 0 : tensor<3xi1>, tensor<2xi64>
  return %0 : tensor<2xi1>
}
func.func @halves(%arg0: tensor<3xf16>, %arg1: tensor<3xbf16>) -> (tensor<3xf16>, tensor<3xbf16>) {
  return %arg0, %arg1 : tensor<3xf16>, tensor<3xbf16>
}
func.func @complexes(%arg0: tensor<2xcomplex<f32>>, %arg1: tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>> {
  return %arg1 : tensor<2xcomplex<f64>>
}
