// Entry points of every kind the C header declares: a tensor result that is
// an argument or a constant (the call still returns its own buffer), two
// results, a dynamic shape with threads, a scalar and no result at all.
func.func @id(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
func.func @cst() -> tensor<2xf32> {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}
func.func @two(%a: tensor<2xf32>, %i: tensor<2xi64>) -> (tensor<2xf32>, tensor<2xf32>) {
  %g = onnx.GatherElements %a, %i : tensor<2xf32>, tensor<2xi64>
  return %g, %a : tensor<2xf32>, tensor<2xf32>
}
func.func @dyn(%d: tensor<?x?xf64>, %i: tensor<?x?xi32>) -> tensor<?x?xf64> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf64>, tensor<?x?xi32>
  return %g : tensor<?x?xf64>
}
func.func @scale(%x: f32, %n: i64) -> f32 {
  return %x : f32
}
func.func private @helper() -> ()
func.func @nothing() {
  return
}
