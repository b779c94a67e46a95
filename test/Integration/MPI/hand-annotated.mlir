// REQUIRES: jit, mpi
// IR annotated by hand (shard.grid, shard.shard) goes through the same
// passes: `data` split along the axis over 2 processes (a masked gather and
// an all-reduce), and over a 2x2 grid on 4 processes (rows over grid axis 0,
// the axis over grid axis 1).
// RUN: %mpirun -np 2 gather-runner %s -e main2 --entry-point-result=void --pipeline-options='shard-grid=2' | FileCheck %s --check-prefix=TWO
// RUN: %mpirun -np 4 gather-runner %s -e main4 --entry-point-result=void --pipeline-options='shard-grid=4' | FileCheck %s --check-prefix=FOUR

shard.grid @line(shape = 2) {sym_visibility = "private"}
shard.grid @square(shape = 2x2) {sym_visibility = "private"}

func.func @axis_split(%d: tensor<2x4xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %split = shard.sharding @line split_axes = [[], [0]] : !shard.sharding
  %rep = shard.sharding @line split_axes = [[]] : !shard.sharding
  %d0 = shard.shard %d to %rep : tensor<2x4xf32>
  %d1 = shard.shard %d0 to %split annotate_for_users : tensor<2x4xf32>
  %o = onnx.GatherElements %d1, %i axis = 1 : tensor<2x4xf32>, tensor<2x3xi64>
  %o1 = shard.shard %o to %rep : tensor<2x3xf32>
  return %o1 : tensor<2x3xf32>
}

func.func @main2() -> tensor<2x3xf32> {
  %d = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %i = arith.constant dense<[[3, 0, -1], [-4, 2, 1]]> : tensor<2x3xi64>
  %o = call @axis_split(%d, %i) : (tensor<2x4xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %o : tensor<2x3xf32>
}
// TWO: result 0: tensor<2x3xf32> = {{\[\[}}4, 1, 4], [5, 7, 6]]
// TWO-NOT: result

func.func @grid2d(%d: tensor<4x4xi32>, %i: tensor<4x2xi32>) -> tensor<4x2xi32> {
  %data = shard.sharding @square split_axes = [[0], [1]] : !shard.sharding
  %rows = shard.sharding @square split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @square split_axes = [[]] : !shard.sharding
  %d0 = shard.shard %d to %rep : tensor<4x4xi32>
  %d1 = shard.shard %d0 to %data annotate_for_users : tensor<4x4xi32>
  %i0 = shard.shard %i to %rep : tensor<4x2xi32>
  %i1 = shard.shard %i0 to %rows annotate_for_users : tensor<4x2xi32>
  %o = onnx.GatherElements %d1, %i1 axis = 1 : tensor<4x4xi32>, tensor<4x2xi32>
  %o0 = shard.shard %o to %rows : tensor<4x2xi32>
  %o1 = shard.shard %o0 to %rep annotate_for_users : tensor<4x2xi32>
  return %o1 : tensor<4x2xi32>
}

func.func @main4() -> tensor<4x2xi32> {
  %d = arith.constant dense<[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]> : tensor<4x4xi32>
  %i = arith.constant dense<[[3, 0], [-1, 1], [2, -4], [0, 3]]> : tensor<4x2xi32>
  %o = call @grid2d(%d, %i) : (tensor<4x4xi32>, tensor<4x2xi32>) -> tensor<4x2xi32>
  return %o : tensor<4x2xi32>
}
// FOUR: result 0: tensor<4x2xi32> = {{\[\[}}3, 0], [13, 11], [22, 20], [30, 33]]
// FOUR-NOT: result
