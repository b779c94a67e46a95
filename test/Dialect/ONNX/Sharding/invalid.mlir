// Splits the partitioner cannot make are compile-time errors.
// RUN: not gather-opt %s --split-input-file --pass-pipeline='builtin.module(onnx-shard-gathers{grid-size=2},gather-shard-partition-functions)' 2>&1 | FileCheck %s

shard.grid @g(shape = 2)
// CHECK: Sharding/invalid.mlir:[[# @LINE + 5]]:8: error: 'onnx.GatherElements' op cannot split dimension 0: 'indices' has size 2 there and 'data' size 4; the slabs would not align
func.func @misaligned(%d: tensor<4x3xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %d1 = shard.shard %d to %s annotate_for_users : tensor<4x3xf32>
  %i1 = shard.shard %i to %s annotate_for_users : tensor<2x3xi64>
  %0 = onnx.GatherElements %d1, %i1 axis = 1 : tensor<4x3xf32>, tensor<2x3xi64>
  return %0 : tensor<2x3xf32>
}

// -----

shard.grid @g(shape = 2)
// CHECK: Sharding/invalid.mlir:[[# @LINE + 5]]:8: error: 'onnx.GatherElements' op cannot split dimension 0 of 'indices' (size 3) over 2 processes: the size must be a multiple (onnx-shard-gathers splits an unannotated gather into uneven blocks)
func.func @uneven(%d: tensor<3x3xf32>, %i: tensor<3x3xi64>) -> tensor<3x3xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %d1 = shard.shard %d to %s annotate_for_users : tensor<3x3xf32>
  %i1 = shard.shard %i to %s annotate_for_users : tensor<3x3xi64>
  %0 = onnx.GatherElements %d1, %i1 axis = 1 : tensor<3x3xf32>, tensor<3x3xi64>
  return %0 : tensor<3x3xf32>
}

// -----

shard.grid @g(shape = 2)
// CHECK: Sharding/invalid.mlir:[[# @LINE + 4]]:8: error: 'onnx.GatherElements' op cannot split dimension 1 of 'data' (size 5) over 2 processes: the size must be a multiple (onnx-shard-gathers splits an unannotated gather into uneven blocks)
func.func @uneven_axis(%d: tensor<4x5xf32>, %i: tensor<4x3xi64>) -> tensor<4x3xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %d1 = shard.shard %d to %s annotate_for_users : tensor<4x5xf32>
  %0 = onnx.GatherElements %d1, %i axis = 1 : tensor<4x5xf32>, tensor<4x3xi64>
  return %0 : tensor<4x3xf32>
}

// -----

shard.grid @g(shape = 2)
// CHECK: Sharding/invalid.mlir:[[# @LINE + 4]]:8: error: 'onnx.GatherElements' op cannot split dimension 0 of 'indices': its size and the number of processes must be static
func.func @dynamic(%d: tensor<?x3xf32>, %i: tensor<?x3xi64>) -> tensor<?x3xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %i1 = shard.shard %i to %s annotate_for_users : tensor<?x3xi64>
  %0 = onnx.GatherElements %d, %i1 axis = 1 : tensor<?x3xf32>, tensor<?x3xi64>
  return %0 : tensor<?x3xf32>
}

// -----

// String elements point into one process's memory.
// CHECK: Sharding/invalid.mlir:[[# @LINE + 2]]:8: error: 'onnx.GatherElements' op cannot be sharded over processes: 'data' holds !onnx.string elements, which point into one process's memory
func.func @strings(%d: tensor<4x3x!onnx.string>, %i: tensor<4x3xi64>) -> tensor<4x3x!onnx.string> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4x3x!onnx.string>, tensor<4x3xi64>
  return %0 : tensor<4x3x!onnx.string>
}
