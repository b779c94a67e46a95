// onnx-shard-gathers and the sharding model apply to any op named
// onnx.GatherElements: here the stand-in `onnx` dialect's (test/lib, as
// onnx-mlir's), which gather-test-opt registers instead of gather's. The op
// itself is cloned onto the slabs, attributes and all.
// RUN: gather-test-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{grid-size=2},gather-shard-partition-functions,canonicalize,cse)' | FileCheck %s
// Lowered through the pipeline's shard-grid: the communication is MPI.
// RUN: gather-test-opt %s --onnx-to-llvm='shard-grid=2' | FileCheck %s --check-prefix=LLVM --implicit-check-not='"onnx.GatherElements"' --implicit-check-not=' shard.'

// CHECK: shard.grid @gather_grid(shape = 2) {sym_visibility = "private"}

// Rows split (off the axis): the stand-in's op on each process's rows.
// CHECK-LABEL: func.func @rows(
// CHECK: call @[[$ROWS:gather_shard[_0-9]*]](
func.func @rows(%d: tensor<4x3xf32>, %i: tensor<4x2xi64>) -> tensor<4x2xf32> {
  %0 = "onnx.GatherElements"(%d, %i) {axis = 1 : si64, onnx_node_name = "rows"} : (tensor<4x3xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// The axis split (1 row is fewer than 2 processes): a masked gather from
// the process's columns, then a bit-exact all_reduce.
// CHECK-LABEL: func.func @axis(
// CHECK: call @[[$AXIS:gather_shard[_0-9]*]](
func.func @axis(%d: tensor<1x4xf32>, %i: tensor<1x2xi32>) -> tensor<1x2xf32> {
  %0 = "onnx.GatherElements"(%d, %i) {axis = -1 : si64} : (tensor<1x4xf32>, tensor<1x2xi32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// CHECK: func.func private @[[$ROWS]](%{{.*}}: tensor<4x3xf32>, %{{.*}}: tensor<4x2xi64>) -> tensor<4x2xf32>
// CHECK-DAG: %[[D:.*]] = shard.all_slice %{{.*}} on @gather_grid grid_axes = [0] slice_axis = 0 : tensor<4x3xf32> -> tensor<2x3xf32>
// CHECK-DAG: %[[I:.*]] = shard.all_slice %{{.*}} on @gather_grid grid_axes = [0] slice_axis = 0 : tensor<4x2xi64> -> tensor<2x2xi64>
// CHECK: %[[G:.*]] = "onnx.GatherElements"(%[[D]], %[[I]]) <{axis = 1 : si64}> {gather.indices_checked_by_caller, onnx_node_name = "rows"} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
// CHECK-NOT: shard.all_reduce
// CHECK: %[[ALL:.*]] = shard.all_gather %[[G]] on @gather_grid grid_axes = [0] gather_axis = 0 : tensor<2x2xf32> -> tensor<4x2xf32>
// CHECK: return %[[ALL]]

// CHECK: func.func private @[[$AXIS]](%{{.*}}: tensor<1x4xf32>, %[[AI:.*]]: tensor<1x2xi32>) -> tensor<1x2xf32>
// CHECK: %[[AD:.*]] = shard.all_slice %{{.*}} on @gather_grid grid_axes = [0] slice_axis = 1 : tensor<1x4xf32> -> tensor<1x2xf32>
// The axis split: one masked gather-like generic from the slab (the
// stand-in op's axis -1 read as 1), then the bit-exact sum.
// CHECK: %[[MASKED:.*]] = linalg.generic {{.*}} ins(%[[AI]] : tensor<1x2xi32>) outs(%{{.*}} : tensor<1x2xf32>)
// CHECK: tensor.extract %[[AD]][%{{.*}}, %{{.*}}] : tensor<1x2xf32>
// CHECK: shard.all_reduce %[[MASKED]] on @gather_grid grid_axes = [0] {gather.bit_exact_sum} : tensor<1x2xf32> -> tensor<1x2xf32>

// LLVM-DAG: llvm.call @gatherMPIInit(
// LLVM-DAG: llvm.call @MPI_Allreduce(
// LLVM-DAG: llvm.call @gatherMPIAllreduceSumBits(
// LLVM-DAG: llvm.call @gatherMPIAllgatherv(
// LLVM-DAG: llvm.func @rows(
// LLVM-DAG: llvm.func @axis(

