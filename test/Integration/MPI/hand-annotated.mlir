// REQUIRES: jit, mpi
// IR annotated by hand (shard.grid, shard.shard) goes through the same
// passes: `data` split along the axis over 2 processes (a masked gather and
// an all-reduce), and over a 2x2 grid on 4 processes (rows over grid axis 0,
// the axis over grid axis 1).
// RUN: %mpirun -np 2 gather-runner %s -e main2 --entry-point-result=void --pipeline-options='shard-grid=2' | FileCheck %s --check-prefix=TWO
// RUN: %mpirun -np 4 gather-runner %s -e main4 --entry-point-result=void --pipeline-options='shard-grid=4' | FileCheck %s --check-prefix=FOUR
// Shardings of a function's own arguments and results: it takes and returns
// shards; main (whole constants) passes its shards and assembles the result.
// RUN: %mpirun -np 2 gather-runner %s -e main_boundary --entry-point-result=void --pipeline-options='shard-grid=2' | FileCheck %s --check-prefix=BOUNDARY
// RUN: %mpirun -np 4 gather-runner %s -e main_boundary2d --entry-point-result=void --pipeline-options='shard-grid=4' | FileCheck %s --check-prefix=BOUNDARY2D
// A bad index in one process's shard: every process reports its position in
// the whole tensor.
// RUN: not %mpirun -np 2 gather-runner %s -e main_boundary_bad --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1 | FileCheck %s --check-prefix=BOUNDARYBAD
// A split of tensors without elements (nothing to slice or gather).
// RUN: %mpirun -np 2 gather-runner %s -e main_empty --entry-point-result=void --pipeline-options='shard-grid=2' | FileCheck %s --check-prefix=EMPTY

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

func.func @empty_split(%d: tensor<0x4xf32>, %i: tensor<0x3xi64>) -> tensor<0x3xf32> {
  %split = shard.sharding @line split_axes = [[], [0]] : !shard.sharding
  %rep = shard.sharding @line split_axes = [[]] : !shard.sharding
  %d0 = shard.shard %d to %rep : tensor<0x4xf32>
  %d1 = shard.shard %d0 to %split annotate_for_users : tensor<0x4xf32>
  %o = onnx.GatherElements %d1, %i axis = 1 : tensor<0x4xf32>, tensor<0x3xi64>
  %o1 = shard.shard %o to %rep : tensor<0x3xf32>
  return %o1 : tensor<0x3xf32>
}

func.func @main_empty() -> tensor<0x3xf32> {
  %d = arith.constant dense<0.0> : tensor<0x4xf32>
  %i = arith.constant dense<0> : tensor<0x3xi64>
  %o = call @empty_split(%d, %i) : (tensor<0x4xf32>, tensor<0x3xi64>) -> tensor<0x3xf32>
  return %o : tensor<0x3xf32>
}
// EMPTY{LITERAL}: result 0: tensor<0x3xf32> = []
// EMPTY-NOT: result

func.func @rows_boundary(%d: tensor<4x4xf32>, %i: tensor<4x3xi64>) -> tensor<4x3xf32> {
  %rows = shard.sharding @line split_axes = [[0]] : !shard.sharding
  %d0 = shard.shard %d to %rows : tensor<4x4xf32>
  %i0 = shard.shard %i to %rows : tensor<4x3xi64>
  %d1 = shard.shard %d0 to %rows annotate_for_users : tensor<4x4xf32>
  %i1 = shard.shard %i0 to %rows annotate_for_users : tensor<4x3xi64>
  %o = onnx.GatherElements %d1, %i1 axis = 1 : tensor<4x4xf32>, tensor<4x3xi64>
  %o1 = shard.shard %o to %rows : tensor<4x3xf32>
  return %o1 : tensor<4x3xf32>
}

func.func @main_boundary() -> tensor<4x3xf32> {
  %d = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]> : tensor<4x4xf32>
  %i = arith.constant dense<[[3, 0, -1], [-4, 2, 1], [0, 0, 0], [1, 2, 3]]> : tensor<4x3xi64>
  %o = call @rows_boundary(%d, %i) : (tensor<4x4xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  return %o : tensor<4x3xf32>
}
// BOUNDARY: result 0: tensor<4x3xf32> = {{\[\[}}4, 1, 4], [5, 7, 6], [9, 9, 9], [14, 15, 16]]
// BOUNDARY-NOT: result

func.func @main_boundary_bad() -> tensor<4x3xf32> {
  %d = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]> : tensor<4x4xf32>
  %i = arith.constant dense<[[3, 0, -1], [-4, 2, 1], [0, 0, 0], [1, 9, 3]]> : tensor<4x3xi64>
  %o = call @rows_boundary(%d, %i) : (tensor<4x4xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  return %o : tensor<4x3xf32>
}
// BOUNDARYBAD-COUNT-2: hand-annotated.mlir:[[#@LINE-20]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 9 at position [3, 1], outside the valid range [-4, 3] for axis 1 of size 4
// BOUNDARYBAD-NOT: result

func.func @grid2d_boundary(%d: tensor<4x4xi32>, %i: tensor<4x2xi32>) -> tensor<4x2xi32> {
  %data = shard.sharding @square split_axes = [[0], [1]] : !shard.sharding
  %rows = shard.sharding @square split_axes = [[0]] : !shard.sharding
  %d0 = shard.shard %d to %data : tensor<4x4xi32>
  %d1 = shard.shard %d0 to %data annotate_for_users : tensor<4x4xi32>
  %i0 = shard.shard %i to %rows : tensor<4x2xi32>
  %i1 = shard.shard %i0 to %rows annotate_for_users : tensor<4x2xi32>
  %o = onnx.GatherElements %d1, %i1 axis = 1 : tensor<4x4xi32>, tensor<4x2xi32>
  %o0 = shard.shard %o to %rows : tensor<4x2xi32>
  return %o0 : tensor<4x2xi32>
}

func.func @main_boundary2d() -> tensor<4x2xi32> {
  %d = arith.constant dense<[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]> : tensor<4x4xi32>
  %i = arith.constant dense<[[3, 0], [-1, 1], [2, -4], [0, 3]]> : tensor<4x2xi32>
  %o = call @grid2d_boundary(%d, %i) : (tensor<4x4xi32>, tensor<4x2xi32>) -> tensor<4x2xi32>
  return %o : tensor<4x2xi32>
}
// BOUNDARY2D: result 0: tensor<4x2xi32> = {{\[\[}}3, 0], [13, 11], [22, 20], [30, 33]]
// BOUNDARY2D-NOT: result
