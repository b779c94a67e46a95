// A gather whose buffers live on the device (gpu-memory=device), called
// from C (device-memory.c). Row 1 of the indices holds 5, out of range for
// axis 0 of size 3.
func.func @gather(%data: tensor<3x4xf32>, %indices: tensor<2x4xi64>) -> tensor<2x4xf32>
    attributes {llvm.emit_c_interface} {
  %out = onnx.GatherElements %data, %indices axis = 0 : tensor<3x4xf32>, tensor<2x4xi64>
  return %out : tensor<2x4xf32>
}
