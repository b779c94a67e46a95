// One gather per element type NumPy has, axis 1, dynamic shapes.
func.func @f16(%d: tensor<?x?xf16>, %i: tensor<?x?xi64>) -> tensor<?x?xf16> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf16>, tensor<?x?xi64>
  return %g : tensor<?x?xf16>
}
func.func @f64(%d: tensor<?x?xf64>, %i: tensor<?x?xi32>) -> tensor<?x?xf64> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf64>, tensor<?x?xi32>
  return %g : tensor<?x?xf64>
}
func.func @ui8(%d: tensor<?x?xui8>, %i: tensor<?x?xi64>) -> tensor<?x?xui8> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xui8>, tensor<?x?xi64>
  return %g : tensor<?x?xui8>
}
func.func @i1(%d: tensor<?x?xi1>, %i: tensor<?x?xi64>) -> tensor<?x?xi1> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xi1>, tensor<?x?xi64>
  return %g : tensor<?x?xi1>
}
func.func @c64(%d: tensor<?x?xcomplex<f32>>, %i: tensor<?x?xi64>) -> tensor<?x?xcomplex<f32>> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xcomplex<f32>>, tensor<?x?xi64>
  return %g : tensor<?x?xcomplex<f32>>
}
