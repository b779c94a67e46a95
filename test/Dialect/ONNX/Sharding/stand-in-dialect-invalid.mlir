// Errors of sharding another `onnx` dialect's GatherElements (the stand-in
// of test/lib, which has no verifier of gather's) through the pipeline.
// RUN: not gather-test-opt %s --split-input-file --onnx-to-llvm='shard-grid=2' -o /dev/null 2>&1 | FileCheck %s

// `data` elements MPI cannot carry: an error naming the type.
// CHECK: Sharding/stand-in-dialect-invalid.mlir:[[# @LINE + 2]]:8: error: 'onnx.GatherElements' op cannot be sharded over processes: 'data' holds 'index' elements; only integers, floats and complex numbers can be sent to other processes
func.func @index_data(%d: tensor<4x3xindex>, %i: tensor<4x2xi64>) -> tensor<4x2xindex> {
  %0 = "onnx.GatherElements"(%d, %i) {axis = 1 : si64} : (tensor<4x3xindex>, tensor<4x2xi64>) -> tensor<4x2xindex>
  return %0 : tensor<4x2xindex>
}

// -----

// An `axis` out of range is not sharded: the lowering reports it, in the
// words of gather's verifier.
// CHECK: Sharding/stand-in-dialect-invalid.mlir:[[# @LINE + 2]]:8: error: 'onnx.GatherElements' op attribute 'axis' = 2 is out of range [-2, 1] for operand 'data' of rank 2
func.func @bad_axis(%d: tensor<4x3xf32>, %i: tensor<4x2xi64>) -> tensor<4x2xf32> {
  %0 = "onnx.GatherElements"(%d, %i) {axis = 2 : si64} : (tensor<4x3xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
