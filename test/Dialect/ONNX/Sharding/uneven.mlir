// Uneven splits on 3 processes: onnx-shard-gathers partitions them itself
// (shard-partition cannot), each process its block of ShardBlocks.h: the
// first S % 3 processes own S / 3 + 1 indices, the others S / 3.
// RUN: gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{axis-scheme=all-reduce grid-size=3},gather-shard-partition-functions,canonicalize,cse)' | FileCheck %s
// RUN: gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{axis-scheme=all-reduce grid-size=3 shard-dim=1},gather-shard-partition-functions,canonicalize,cse)' | FileCheck %s --check-prefix=AXIS
// Lowered, nothing of shard is left.
// No copy calls into MLIR's runner library (memrefCopy), which a host of
// the kernel API does not load: the blocks are computed in place.
// RUN: gather-opt %s --onnx-to-llvm='shard-grid=3' | FileCheck %s --check-prefix=LLVM --implicit-check-not=memrefCopy
// Nor with the axis schemes that copy blocks of data, whose blocks along a
// dimension other than the outermost are strided (gather-lower-strided-copies
// copies them with loops).
// RUN: gather-opt %s --onnx-to-llvm='shard-grid=3 shard-axis-scheme=all-gather-data' | FileCheck %s --check-prefix=NOCOPY --implicit-check-not=memrefCopy
// RUN: gather-opt %s --onnx-to-llvm='shard-grid=3 shard-dim=1 shard-axis-scheme=all-gather-data' | FileCheck %s --check-prefix=NOCOPY --implicit-check-not=memrefCopy
// RUN: gather-opt %s --onnx-to-llvm='shard-grid=3 shard-dim=1 shard-axis-scheme=all-to-all' | FileCheck %s --check-prefix=NOCOPY --implicit-check-not=memrefCopy
// RUN: gather-opt %s --onnx-to-llvm='shard-grid=3 shard-dim=1 shard-io=split shard-axis-scheme=all-gather-data' | FileCheck %s --check-prefix=NOCOPY --implicit-check-not=memrefCopy
// NOCOPY: llvm.call @gatherMPIAllgatherv(

// CHECK-LABEL: func.func @rows(
// CHECK: call @[[$ROWS:gather_shard[_0-9]*]](
func.func @rows(%d: tensor<5x4xf32>, %i: tensor<5x2xi64>) -> tensor<5x2xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<5x4xf32>, tensor<5x2xi64>
  return %0 : tensor<5x2xf32>
}

// One row is fewer than 3 processes: the axis (7) is split, unevenly.
// CHECK-LABEL: func.func @columns(
// CHECK: call @[[$COLUMNS:gather_shard[_0-9]*]](
func.func @columns(%d: tensor<1x7xf32>, %i: tensor<1x2xi64>) -> tensor<1x2xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<1x7xf32>, tensor<1x2xi64>
  return %0 : tensor<1x2xf32>
}

// Off the axis unevenly (4 rows: 2, 1, 1) before the axis evenly (6):
// no traffic for the data.
// CHECK-LABEL: func.func @prefer_rows(
// CHECK: call @[[$PREFER:gather_shard[_0-9]*]](
func.func @prefer_rows(%d: tensor<4x6xf32>, %i: tensor<4x2xi64>) -> tensor<4x2xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4x6xf32>, tensor<4x2xi64>
  return %0 : tensor<4x2xf32>
}

// Rows fewer than the processes (2) come after an even axis (6), which
// shard-partition splits.
// CHECK-LABEL: func.func @prefer_axis(
// CHECK: call @[[$EVEN:gather_shard[_0-9]*]](
func.func @prefer_axis(%d: tensor<2x6xf32>, %i: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<2x6xf32>, tensor<2x2xi64>
  return %0 : tensor<2x2xf32>
}

// An axis of 2, fewer than the processes (shard-dim=1, AXIS below); by
// default its 4 rows are split.
// CHECK-LABEL: func.func @small_axis(
// CHECK: call @[[$SMALL:gather_shard[_0-9]*]](
func.func @small_axis(%d: tensor<4x2xf32>, %i: tensor<4x3xi64>) -> tensor<4x3xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4x2xf32>, tensor<4x3xi64>
  return %0 : tensor<4x3xf32>
}

// Destination-passing style (the kernel API): 5 rows into `out`.
// CHECK-LABEL: func.func @into(
func.func @into(%d: tensor<5x4xf32>, %i: tensor<5x2xi64>, %out: memref<5x2xf32>) {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<5x4xf32>, tensor<5x2xi64>
  bufferization.materialize_in_destination %0 in restrict writable %out : (tensor<5x2xf32>, memref<5x2xf32>) -> ()
  return
}

// Dynamic shapes stay replicated.
// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT: onnx.GatherElements
// CHECK-NEXT: return
func.func @dynamic(%d: tensor<?x6xf32>, %i: tensor<?x3xi64>) -> tensor<?x3xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<?x6xf32>, tensor<?x3xi64>
  return %0 : tensor<?x3xf32>
}

// Rows 5: blocks at [0, 2, 4, 5); each process slices its block (dynamic
// size), checks its indices at their global positions and gathers them;
// shard.all_gather assembles the result (its whole size in the cast).
// CHECK: func.func private @[[$ROWS]](%[[D:.*]]: tensor<5x4xf32>, %[[I:.*]]: tensor<5x2xi64>) -> tensor<5x2xf32> attributes {gather.outlined_gather}
// CHECK-DAG: %[[TABLE:.*]] = arith.constant dense<[0, 2, 4, 5]> : tensor<4xindex>
// CHECK-DAG: %[[P:.*]] = shard.process_multi_index on @gather_grid axes = [0] : index
// CHECK-DAG: %[[NEXT:.*]] = arith.addi %[[P]], %c1 : index
// CHECK-DAG: %[[LO:.*]] = tensor.extract %[[TABLE]][%[[P]]] : tensor<4xindex>
// CHECK-DAG: %[[HI:.*]] = tensor.extract %[[TABLE]][%[[NEXT]]] : tensor<4xindex>
// CHECK: %[[COUNT:.*]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK: %[[DB:.*]] = tensor.extract_slice %[[D]][%[[LO]], 0] [%[[COUNT]], 4] [1, 1] : tensor<5x4xf32> to tensor<?x4xf32>
// CHECK: %[[IB:.*]] = tensor.extract_slice %[[I]][%[[LO]], 0] [%[[COUNT]], 2] [1, 1] : tensor<5x2xi64> to tensor<?x2xi64>
// CHECK: linalg.generic {{.*}} ins(%[[IB]] : tensor<?x2xi64>) outs(%{{.*}} : tensor<i1>)
// CHECK: shard.all_reduce %{{.*}} reduction = max
// CHECK: linalg.generic {{.*}} ins(%[[IB]] : tensor<?x2xi64>)
// CHECK: linalg.index 0 : index
// CHECK-NEXT: arith.addi %{{.*}}, %[[LO]] : index
// CHECK: shard.all_reduce %{{.*}} reduction = min
// CHECK: func.call @gatherReportIndexError
// CHECK: %[[G:.*]] = onnx.GatherElements %[[DB]], %[[IB]] axis = 1 {gather.indices_checked_by_caller} : tensor<?x4xf32>, tensor<?x2xi64>
// CHECK: %[[ALL:.*]] = shard.all_gather %[[G]] on @gather_grid grid_axes = [0] gather_axis = 0 : tensor<?x2xf32> -> tensor<?x2xf32>
// CHECK: %[[WHOLE:.*]] = tensor.cast %[[ALL]] : tensor<?x2xf32> to tensor<5x2xf32>
// CHECK: return %[[WHOLE]]

// The axis 7: blocks at [0, 3, 5, 7); a masked gather from the block of
// `data`, the indices normalized with the whole size 7, a bit-exact sum.
// CHECK: func.func private @[[$COLUMNS]](%[[D:.*]]: tensor<1x7xf32>, %[[I:.*]]: tensor<1x2xi64>)
// CHECK-DAG: %[[TABLE:.*]] = arith.constant dense<[0, 3, 5, 7]> : tensor<4xindex>
// CHECK: %[[LO:.*]] = tensor.extract %[[TABLE]]
// CHECK: %[[COUNT:.*]] = arith.subi %{{.*}}, %[[LO]] : index
// CHECK: %[[DB:.*]] = tensor.extract_slice %[[D]][0, %[[LO]]] [1, %[[COUNT]]] [1, 1] : tensor<1x7xf32> to tensor<1x?xf32>
// CHECK: func.call @gatherReportIndexError
// CHECK: %[[M:.*]] = linalg.generic {{.*}} ins(%[[I]] : tensor<1x2xi64>)
// CHECK: arith.addi %{{.*}}, %c7 : index
// CHECK: %[[OFFSET:.*]] = arith.subi %{{.*}}, %[[LO]] : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[OFFSET]], %[[COUNT]] : index
// CHECK: tensor.extract %[[DB]][%{{.*}}, %{{.*}}] : tensor<1x?xf32>
// CHECK: shard.all_reduce %[[M]] on @gather_grid grid_axes = [0] {gather.bit_exact_sum} : tensor<1x2xf32> -> tensor<1x2xf32>

// CHECK: func.func private @[[$PREFER]](
// CHECK: arith.constant dense<[0, 2, 3, 4]> : tensor<4xindex>
// CHECK: shard.all_gather

// CHECK: func.func private @[[$EVEN]](
// CHECK-NOT: tensor<4xindex>
// CHECK: shard.all_slice %{{.*}} slice_axis = 1 : tensor<2x6xf32> -> tensor<2x2xf32>
// CHECK: shard.all_reduce %{{.*}} {gather.bit_exact_sum}

// CHECK: func.func private @[[$SMALL]](
// CHECK: shard.all_gather

// shard-dim=1 on @rows: the axis 4 (blocks 2, 1, 1).
// AXIS-LABEL: func.func private @gather_shard(
// AXIS: arith.constant dense<[0, 2, 3, 4]> : tensor<4xindex>
// AXIS: tensor.extract_slice %{{.*}} : tensor<5x4xf32> to tensor<5x?xf32>
// AXIS: shard.all_reduce %{{.*}} {gather.bit_exact_sum} : tensor<5x2xf32>
// shard-dim=1 on @columns: the axis 7; on @prefer_rows the axis 6 (even, by
// shard-partition).
// AXIS: func.func private @gather_shard_0(
// AXIS: arith.constant dense<[0, 3, 5, 7]> : tensor<4xindex>
// AXIS: func.func private @gather_shard_1(
// AXIS: shard.all_slice %{{.*}} slice_axis = 1 : tensor<4x6xf32> -> tensor<4x2xf32>
// On @small_axis, the axis 2: the third process owns none of it and reads
// the last index, which its mask never selects (no empty slice).
// AXIS: func.func private @gather_shard_3(
// AXIS-DAG: arith.constant dense<[0, 1, 2, 2]> : tensor<4xindex>
// AXIS: %[[LO:.*]] = tensor.extract
// AXIS: %[[COUNT:.*]] = arith.subi %{{.*}}, %[[LO]] : index
// AXIS-DAG: %[[START:.*]] = arith.minui %[[LO]], %c1 : index
// AXIS-DAG: %[[SIZE:.*]] = arith.maxui %[[COUNT]], %c1 : index
// AXIS: tensor.extract_slice %{{.*}}[0, %[[START]]] [4, %[[SIZE]]] [1, 1] : tensor<4x2xf32> to tensor<4x?xf32>
// AXIS: arith.cmpi ult, %{{.*}}, %[[COUNT]] : index

// LLVM-NOT: shard.
// LLVM-NOT: {{= onnx\.|^ *onnx\.}}
// LLVM: llvm.call @gatherMPIInit(
// LLVM: llvm.call @gatherMPIAllgatherv(
