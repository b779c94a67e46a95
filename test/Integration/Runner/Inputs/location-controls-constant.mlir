// Constant indices out of range at a location with control characters
// (location-controls.mlir).
func.func @constant() -> tensor<1xf32> {
  %d = arith.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %c = arith.constant dense<[7]> : tensor<1xi64>
  %1 = onnx.GatherElements %d, %c : tensor<3xf32>, tensor<1xi64> loc("n\00m"("x\0Ay.mlir":5:6))
  return %1 : tensor<1xf32>
}
