// The kernel of replicated-inputs.test: every process passes the whole
// tensors (shard-io=whole).
func.func @gather(%data: memref<5x4xf32>, %indices: memref<5x3xi64>, %out: memref<5x3xf32>) attributes {llvm.emit_c_interface} {
  %d = bufferization.to_tensor %data restrict : memref<5x4xf32> to tensor<5x4xf32>
  %i = bufferization.to_tensor %indices restrict : memref<5x3xi64> to tensor<5x3xi64>
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<5x4xf32>, tensor<5x3xi64>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<5x3xf32>, memref<5x3xf32>) -> ()
  return
}
