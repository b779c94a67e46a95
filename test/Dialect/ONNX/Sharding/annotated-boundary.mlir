// Hand-annotated shardings of a function's own arguments and results
// (`shard.shard` of the argument, of the returned value; not
// `annotate_for_users`) make shard-partition give the function shard types:
// it takes and returns this process's shards, as `shard-io=split` does for
// onnx-shard-gathers' functions. Calls of it in the module pass their shard
// of each whole value and assemble each shard result.
// RUN: gather-opt %s --gather-shard-partition-functions | FileCheck %s
// Lowered to MPI: nothing of shard is left.
// RUN: gather-opt %s --onnx-to-llvm='shard-grid=4' | FileCheck %s --check-prefix=LLVM
// Without shard-grid nothing partitions the annotations: one located error.
// RUN: not gather-opt %s --onnx-to-llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOGRID

shard.grid @line(shape = 2) {sym_visibility = "private"}
shard.grid @square(shape = 2x2) {sym_visibility = "private"}

// CHECK-LABEL: func.func @rows(
// CHECK-SAME: %{{.*}}: tensor<2x4xf32>, %{{.*}}: tensor<2x3xi64>, %{{.*}}: tensor<4x3xi64>) -> (tensor<2x3xf32>, tensor<4x3xi64>)
func.func @rows(%d: tensor<4x4xf32>, %i: tensor<4x3xi64>, %other: tensor<4x3xi64>) -> (tensor<4x3xf32>, tensor<4x3xi64>) {
  %rows = shard.sharding @line split_axes = [[0]] : !shard.sharding
  %d0 = shard.shard %d to %rows : tensor<4x4xf32>
  %i0 = shard.shard %i to %rows : tensor<4x3xi64>
  %d1 = shard.shard %d0 to %rows annotate_for_users : tensor<4x4xf32>
  %i1 = shard.shard %i0 to %rows annotate_for_users : tensor<4x3xi64>
  %o = onnx.GatherElements %d1, %i1 axis = 1 : tensor<4x4xf32>, tensor<4x3xi64>
  %o1 = shard.shard %o to %rows : tensor<4x3xf32>
  return %o1, %other : tensor<4x3xf32>, tensor<4x3xi64>
}

// CHECK-LABEL: func.func @call_rows(
// CHECK-SAME: %[[D:.*]]: tensor<4x4xf32>, %[[I:.*]]: tensor<4x3xi64>)
// CHECK-DAG: %[[DS:.*]] = shard.all_slice %[[D]] on @line grid_axes = [0] slice_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>
// CHECK-DAG: %[[IS:.*]] = shard.all_slice %[[I]] on @line grid_axes = [0] slice_axis = 0 : tensor<4x3xi64> -> tensor<2x3xi64>
// CHECK: %[[R:.*]]:2 = call @rows(%[[DS]], %[[IS]], %[[I]]) {tag} : (tensor<2x4xf32>, tensor<2x3xi64>, tensor<4x3xi64>) -> (tensor<2x3xf32>, tensor<4x3xi64>)
// CHECK: %[[W:.*]] = shard.all_gather %[[R]]#0 on @line grid_axes = [0] gather_axis = 0 : tensor<2x3xf32> -> tensor<4x3xf32>
// CHECK: return %[[W]], %[[R]]#1
func.func @call_rows(%d: tensor<4x4xf32>, %i: tensor<4x3xi64>) -> (tensor<4x3xf32>, tensor<4x3xi64>) {
  %o:2 = call @rows(%d, %i, %i) {tag} : (tensor<4x4xf32>, tensor<4x3xi64>, tensor<4x3xi64>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
  return %o#0, %o#1 : tensor<4x3xf32>, tensor<4x3xi64>
}

// Two dimensions split over the two axes of a 2x2 grid; the result split
// along the rows only.
// CHECK-LABEL: func.func @grid2d(
// CHECK-SAME: %{{.*}}: tensor<2x2xi32>, %{{.*}}: tensor<2x2xi32>) -> tensor<2x2xi32>
func.func @grid2d(%d: tensor<4x4xi32>, %i: tensor<4x2xi32>) -> tensor<4x2xi32> {
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

// CHECK-LABEL: func.func @call_grid2d(
// CHECK-SAME: %[[D:.*]]: tensor<4x4xi32>, %[[I:.*]]: tensor<4x2xi32>)
// CHECK-DAG: %[[D0:.*]] = shard.all_slice %[[D]] on @square grid_axes = [0] slice_axis = 0 : tensor<4x4xi32> -> tensor<2x4xi32>
// CHECK-DAG: %[[D1:.*]] = shard.all_slice %[[D0]] on @square grid_axes = [1] slice_axis = 1 : tensor<2x4xi32> -> tensor<2x2xi32>
// CHECK-DAG: %[[IS:.*]] = shard.all_slice %[[I]] on @square grid_axes = [0] slice_axis = 0 : tensor<4x2xi32> -> tensor<2x2xi32>
// CHECK: %[[R:.*]] = call @grid2d(%[[D1]], %[[IS]])
// CHECK: %[[W:.*]] = shard.all_gather %[[R]] on @square grid_axes = [0] gather_axis = 0 : tensor<2x2xi32> -> tensor<4x2xi32>
// CHECK: return %[[W]]
func.func @call_grid2d(%d: tensor<4x4xi32>, %i: tensor<4x2xi32>) -> tensor<4x2xi32> {
  %o = call @grid2d(%d, %i) : (tensor<4x4xi32>, tensor<4x2xi32>) -> tensor<4x2xi32>
  return %o : tensor<4x2xi32>
}

// LLVM-NOT: shard.
// LLVM: llvm.func @rows(
// LLVM: llvm.call @gatherMPIAllgatherv(

// NOGRID: annotated-boundary.mlir:20:9: error: 'shard.shard' op is not partitioned: hand-annotated shardings are partitioned only with the pipeline option shard-grid=N (the number of MPI processes)
// NOGRID-NOT: error:
