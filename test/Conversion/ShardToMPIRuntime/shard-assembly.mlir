// RUN: gather-opt %s --split-input-file --gather-shard-prepare-for-mpi='assembly=all-reduce remarks=true' 2>&1 | FileCheck %s
// RUN: gather-opt %s --gather-shard-prepare-for-mpi='remarks=true' 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: not gather-opt %s --gather-shard-prepare-for-mpi='assembly=scatter' 2>&1 | FileCheck %s --check-prefix=BAD

// assembly=all-reduce: the destination filled with zero bits first, the
// local part in this process's subview of it, then one bit-exact sum of
// the whole destination (6 elements of 4 bytes) in place. The remark names
// the choice and the bytes per process of the model (2(P-1)/P of 24).
// CHECK:       remark: gather-shard: result assembled by MPI_Allreduce (shard-assembly=all-reduce) in place: 24 bytes per process
// CHECK-LABEL: func.func @assemble(
// CHECK-SAME:      %[[X:.*]]: tensor<1x3xf32>, %[[OUT:.*]]: memref<2x3xf32>)
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i64
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : i64
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         linalg.fill ins(%[[ZERO]] : f32) outs(%[[OUT]] : memref<2x3xf32>)
// CHECK:         %[[SLAB:.*]] = memref.subview %[[OUT]]
// CHECK:         bufferization.materialize_in_destination %[[X]] in restrict writable %[[SLAB]]
// CHECK:         call @gatherMPIAllreduceSumBits(%{{.*}}, %[[C6]], %[[C4]],
// CHECK-NOT:     gatherMPIAllgatherv
// The default, all-gather: (P-1)/P of 24 bytes.
// GATHER:      remark: gather-shard: result assembled by MPI_Allgatherv (shard-assembly=all-gather) in place: 12 bytes per process
// GATHER-NOT:  linalg.fill
// GATHER:      call @gatherMPIAllgatherv(
// BAD: for the --assembly option: Cannot find option named 'scatter'!
// BAD-NEXT: error: invalid options of 'gather-shard-prepare-for-mpi': 'assembly=scatter'
shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @assemble(%x: tensor<1x3xf32>, %out: memref<2x3xf32>) {
  %0 = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<1x3xf32> -> tensor<2x3xf32>
  bufferization.materialize_in_destination %0 in restrict writable %out : (tensor<2x3xf32>, memref<2x3xf32>) -> ()
  return
}
