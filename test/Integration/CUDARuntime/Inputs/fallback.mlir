// The spec's first example as a function of its inputs, for fallback.c:
// compiled once with gpu=cuda (@gather_gpu) and once for the CPU (renamed
// @gather_cpu).
func.func @gather_gpu(%data: tensor<2x2xf32>, %indices: tensor<2x2xi64>) -> tensor<2x2xf32>
    attributes {llvm.emit_c_interface} {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<2x2xf32>, tensor<2x2xi64>
  return %out : tensor<2x2xf32>
}
