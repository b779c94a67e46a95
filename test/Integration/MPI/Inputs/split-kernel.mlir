// The kernel of split-host.test: rows split into uneven blocks (3 and 2 on
// 2 processes) with shard-io=split, so every memref is this process's slab.
func.func @gather(%data: memref<5x4xf32>, %indices: memref<5x3xi64>, %out: memref<5x3xf32>) attributes {llvm.emit_c_interface} {
  %d = bufferization.to_tensor %data restrict : memref<5x4xf32> to tensor<5x4xf32>
  %i = bufferization.to_tensor %indices restrict : memref<5x3xi64> to tensor<5x3xi64>
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<5x4xf32>, tensor<5x3xi64>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<5x3xf32>, memref<5x3xf32>) -> ()
  return
}
