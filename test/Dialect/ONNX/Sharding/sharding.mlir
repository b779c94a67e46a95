// The partitioned form of onnx.GatherElements on a grid of 2 processes
// (onnx-shard-gathers, then sharding-propagation + shard-partition), no MPI.
// RUN: gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{axis-scheme=all-reduce grid-size=2 shard-dim=0},gather-shard-partition-functions,canonicalize,cse)' | FileCheck %s
// Lowered, nothing of shard is left; the communication is MPI.
// RUN: gather-opt %s --onnx-to-llvm='shard-grid=2 shard-dim=0' | FileCheck %s --check-prefix=LLVM
// RUN: gather-translate --onnx-to-llvmir --pipeline-options='shard-grid=2 shard-dim=0' %s | FileCheck %s --check-prefix=LLVMIR

// CHECK: module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">}
// CHECK: shard.grid @gather_grid(shape = 2) {sym_visibility = "private"}

// A split off the axis: local, each process gathers its rows.
// CHECK-LABEL: func.func @split_rows(
// CHECK: call @[[$ROWS:gather_shard[_0-9]*]](%{{.*}}, %{{.*}}) : (tensor<4x6xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
func.func @split_rows(%d: tensor<4x6xf32>, %i: tensor<4x3xi64>) -> tensor<4x3xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4x6xf32>, tensor<4x3xi64>
  return %0 : tensor<4x3xf32>
}

// The axis split: a masked gather, then one all_reduce (sum).
// CHECK-LABEL: func.func @split_axis(
// CHECK: call @[[$AXIS:gather_shard[_0-9]*]](%{{.*}}, %{{.*}}) : (tensor<4x6xf16>, tensor<5x3xi32>) -> tensor<5x3xf16>
func.func @split_axis(%d: tensor<4x6xf16>, %i: tensor<5x3xi32>) -> tensor<5x3xf16> {
  %0 = onnx.GatherElements %d, %i : tensor<4x6xf16>, tensor<5x3xi32>
  return %0 : tensor<5x3xf16>
}

// Dynamic shapes stay replicated: every process computes all of it.
// CHECK-LABEL: func.func @replicated(
// CHECK-NEXT: onnx.GatherElements %{{.*}}, %{{.*}} axis = 1 : tensor<?x6xf32>, tensor<?x3xi64>
// CHECK-NEXT: return
func.func @replicated(%d: tensor<?x6xf32>, %i: tensor<?x3xi64>) -> tensor<?x3xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<?x6xf32>, tensor<?x3xi64>
  return %0 : tensor<?x3xf32>
}

// (A size not divisible by the number of processes is split into uneven
// blocks: uneven.mlir.)

// CHECK: func.func private @[[$ROWS]](%[[D:.*]]: tensor<4x6xf32>, %[[I:.*]]: tensor<4x3xi64>)
// CHECK-DAG: %[[DS:.*]] = shard.all_slice %[[D]] on @gather_grid grid_axes = [0] slice_axis = 0 : tensor<4x6xf32> -> tensor<2x6xf32>
// CHECK-DAG: %[[IS:.*]] = shard.all_slice %[[I]] on @gather_grid grid_axes = [0] slice_axis = 0 : tensor<4x3xi64> -> tensor<2x3xi64>
// The index check: whether any value is out of range (an OR over the
// slab, which gather-codegen fuses with the local gather below; max over
// all processes); only then the first bad position over all processes
// (min), then its value, reported on every process.
// CHECK: linalg.generic {{.*}} ins(%[[IS]] : tensor<2x3xi64>) outs(%{{.*}} : tensor<i1>)
// CHECK: arith.ori
// CHECK: shard.all_reduce %{{.*}} on @gather_grid grid_axes = [0] reduction = max : tensor<1xi64> -> tensor<1xi64>
// CHECK: scf.if
// CHECK: shard.all_reduce %{{.*}} on @gather_grid grid_axes = [0] reduction = min : tensor<1xi64> -> tensor<1xi64>
// CHECK: scf.if
// CHECK: shard.all_reduce %{{.*}} reduction = min
// CHECK: func.call @gatherReportIndexError
// CHECK: }
// CHECK-NOT: shard.all_reduce
// The local gather checks no index values itself (its caller does).
// CHECK: %[[G:.*]] = onnx.GatherElements %[[DS]], %[[IS]] axis = 1 {gather.indices_checked_by_caller} : tensor<2x6xf32>, tensor<2x3xi64>
// CHECK-NOT: shard.all_reduce
// The result assembled for the caller.
// CHECK: shard.all_gather %[[G]] on @gather_grid grid_axes = [0] gather_axis = 0 : tensor<2x3xf32> -> tensor<4x3xf32>
// CHECK-NEXT: return

// CHECK: func.func private @[[$AXIS]](%[[D:.*]]: tensor<4x6xf16>, %[[I:.*]]: tensor<5x3xi32>)
// CHECK: %[[DS:.*]] = shard.all_slice %[[D]] on @gather_grid grid_axes = [0] slice_axis = 0 : tensor<4x6xf16> -> tensor<2x6xf16>
// CHECK: shard.all_reduce %{{.*}} reduction = min
// CHECK: func.call @gatherReportIndexError
// The slab of this process: [index * 2, index * 2 + 2) along the axis.
// CHECK: %[[P:.*]] = shard.process_multi_index on @gather_grid axes = [0] : index
// CHECK: %[[LO:.*]] = arith.muli %[[P]], %c2 : index
// One gather-like generic from the slab, in destination-passing style
// (no temporaries): the element at n - lo where the index n falls in the
// slab, zero bits elsewhere.
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<5x3xf16>
// CHECK: %[[M:.*]] = linalg.generic {{.*}} ins(%[[I]] : tensor<5x3xi32>) outs(%[[INIT]] : tensor<5x3xf16>)
// CHECK: %[[OFFSET:.*]] = arith.subi %{{.*}}, %[[LO]] : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[OFFSET]], %c2 : index
// CHECK: %[[LOCAL:.*]] = arith.select %[[IN]], %[[OFFSET]], %c0 : index
// CHECK: %[[E:.*]] = tensor.extract %[[DS]][%[[LOCAL]], %{{.*}}] : tensor<2x6xf16>
// CHECK: arith.select %[[IN]], %[[E]], %{{.*}} : f16
// Summed as bit patterns (MPI has no f16): marked, no conversion here.
// CHECK-NOT: arith.bitcast
// CHECK: shard.all_reduce %[[M]] on @gather_grid grid_axes = [0] {gather.bit_exact_sum} : tensor<5x3xf16> -> tensor<5x3xf16>
// CHECK-NOT: shard.all_

// LLVM-NOT: shard.
// LLVM-NOT: {{= onnx\.|^ *onnx\.}}
// LLVM: llvm.func @gatherMPIInit(i64)
// LLVM: llvm.call @gatherMPIInit(
// LLVM: llvm.call @MPI_Allreduce(
// LLVM-NOT: shard.

// LLVMIR: declare void @gatherMPIInit(i64)
// LLVMIR: call i32 @MPI_Allreduce(
