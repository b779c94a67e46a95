// The lowering of the all_gather of an uneven split (onnx-shard-gathers:
// blocks of dynamic size, the whole size in a tensor.cast): each process's
// block at its offset of ShardBlocks.h (a table of the offsets), the whole
// size passed to gatherMPIAllgatherv, which derives the same blocks.
// RUN: gather-opt %s --gather-shard-prepare-for-mpi='remarks=true' 2>&1 | FileCheck %s
// RUN: gather-opt %s --gather-shard-prepare-for-mpi='assembly=all-reduce' | FileCheck %s --check-prefix=REDUCE

// 5 rows on 3 processes (blocks at 0, 2, 4), in place in the destination.
// CHECK: remark: gather-shard: result assembled by MPI_Allgatherv (shard-assembly=all-gather) in place: 40 bytes per process
// CHECK-LABEL: func.func @assemble(
// CHECK-SAME:      %[[X:.*]]: tensor<?x3xf32>, %[[OUT:.*]]: memref<5x3xf32>)
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : i64
// CHECK-DAG:     %[[C12:.*]] = arith.constant 12 : i64
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[TABLE:.*]] = arith.constant dense<[0, 2, 4, 5]> : tensor<4xindex>
// CHECK-DAG:     %[[P:.*]] = shard.process_multi_index on @grid axes = [0] : index
// CHECK-DAG:     %[[NEXT:.*]] = arith.addi %[[P]], %c1 : index
// CHECK-DAG:     %[[LO:.*]] = tensor.extract %[[TABLE]][%[[P]]] : tensor<4xindex>
// CHECK-DAG:     %[[HI:.*]] = tensor.extract %[[TABLE]][%[[NEXT]]] : tensor<4xindex>
// The block's size from the table too, not from the input: the subview
// comes first, so the input can be computed in it (no copy).
// CHECK:         %[[ROWS:.*]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK-NOT:     tensor.dim
// CHECK:         %[[BLOCK:.*]] = memref.subview %[[OUT]][%[[LO]], 0] [%[[ROWS]], 3] [1, 1]
// CHECK:         bufferization.materialize_in_destination %[[X]] in restrict writable %[[BLOCK]]
// CHECK:         call @gatherMPIAllgatherv(%{{.*}}, %[[C1]], %[[C12]], %[[C5]],
// CHECK-NOT:     tensor.cast
// CHECK:         return
// 7 columns on 3 (blocks at 0, 3, 5), in a new whole tensor.
// CHECK-LABEL: func.func @whole(
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : i64
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i64
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i64
// CHECK-DAG:     %[[TABLE:.*]] = arith.constant dense<[0, 3, 5, 7]> : tensor<4xindex>
// CHECK:         %[[LO:.*]] = tensor.extract %[[TABLE]]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0, %[[LO]]] [2, %{{.*}}] [1, 1] : tensor<2x?xf32> into tensor<2x7xf32>
// CHECK:         call @gatherMPIAllgatherv(%{{.*}}, %[[C2]], %[[C4]], %[[C7]],
// CHECK-NOT:     tensor.cast
// CHECK:         return %{{.*}} : tensor<2x7xf32>

// assembly=all-reduce: zero bits, the block at its offset, one bit-exact
// sum of the 15 elements.
// REDUCE-LABEL: func.func @assemble(
// REDUCE-DAG:     %[[C15:.*]] = arith.constant 15 : i64
// REDUCE-DAG:     %[[TABLE:.*]] = arith.constant dense<[0, 2, 4, 5]> : tensor<4xindex>
// REDUCE:         linalg.fill
// REDUCE:         memref.subview %{{.*}}[%{{.*}}, 0] [%{{.*}}, 3] [1, 1]
// REDUCE:         call @gatherMPIAllreduceSumBits(%{{.*}}, %[[C15]],
// REDUCE-NOT:     gatherMPIAllgatherv

shard.grid @grid(shape = 3) {sym_visibility = "private"}
func.func @assemble(%x: tensor<?x3xf32>, %out: memref<5x3xf32>) {
  %0 = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<?x3xf32> -> tensor<?x3xf32>
  %1 = tensor.cast %0 : tensor<?x3xf32> to tensor<5x3xf32>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<5x3xf32>, memref<5x3xf32>) -> ()
  return
}
func.func @whole(%x: tensor<2x?xf32>) -> tensor<2x7xf32> {
  %0 = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 1 : tensor<2x?xf32> -> tensor<2x?xf32>
  %1 = tensor.cast %0 : tensor<2x?xf32> to tensor<2x7xf32>
  return %1 : tensor<2x7xf32>
}
