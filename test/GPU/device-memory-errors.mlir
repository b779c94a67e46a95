// RUN: gather-opt %s --split-input-file --verify-diagnostics --onnx-to-llvm='gpu=cuda gpu-memory=device'

// gpu-memory=device: what the host code cannot do with buffers on the
// device is a located error (docs/GPU.md, "Buffers on the device").

// The indices of the second gather are the first's result, on the device:
// the report of its index check would read them on the host.
func.func @indices_from_a_gather(%d: tensor<3x4xf32>, %i: tensor<3x4xi64>, %j: tensor<3x4xi64>) -> tensor<3x4xf32> {
  %k = onnx.GatherElements %i, %j axis = 0 : tensor<3x4xi64>, tensor<3x4xi64>
  // expected-error @+1 {{with gpu-memory=device this host code would access a buffer on the device (the result of a gather); compute it on the host (gpu-memory=host)}}
  %o = onnx.GatherElements %d, %k axis = 1 : tensor<3x4xf32>, tensor<3x4xi64>
  return %o : tensor<3x4xf32>
}

// -----

// A strided view of device memory cannot be made contiguous on the host.
func.func @strided(%d: tensor<3x8xf32>, %i: tensor<3x4xi64>) -> tensor<3x4xf32> {
  %s = tensor.extract_slice %d[0, 0] [3, 4] [1, 2] : tensor<3x8xf32> to tensor<3x4xf32>
  // expected-error @+1 {{with gpu-memory=device the buffers of 'onnx.GatherElements' must be row-major (identity layout): a view of device memory cannot be made contiguous on the host}}
  %o = onnx.GatherElements %s, %i axis = 1 : tensor<3x4xf32>, tensor<3x4xi64>
  return %o : tensor<3x4xf32>
}
