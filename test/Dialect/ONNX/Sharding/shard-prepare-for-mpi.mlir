// RUN: gather-opt %s --split-input-file --verify-diagnostics --gather-shard-prepare-for-mpi | FileCheck %s

// gather-shard-prepare-for-mpi runs between shard-partition and
// convert-shard-to-mpi and rewrites the shard ops the latter cannot lower.
// shard.all_gather: the local part inserted into a tensor of the whole
// result filled with zero bits, then one bit-exact all_reduce (sum) of the
// bits (f32 as i32). Every function that communicates first calls
// gatherMPIInit with the number of processes of the grid it uses.
// CHECK:       func.func private @gatherMPIInit(i64)
// CHECK-LABEL: func.func @all_gather(
// CHECK-SAME:      %[[X:.*]]: tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2 : i64
// CHECK:         call @gatherMPIInit(%[[TWO]]) : (i64) -> ()
// CHECK:         %[[RANK:.*]] = shard.process_multi_index on @grid axes = [0] : index
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK:         %[[FILLED:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<2x3xf32>)
// CHECK:         %[[WHOLE:.*]] = tensor.insert_slice %[[X]] into %[[FILLED]][%[[RANK]], 0] [1, 3] [1, 1] : tensor<1x3xf32> into tensor<2x3xf32>
// CHECK:         %[[BITS:.*]] = linalg.generic {{.*}} ins(%[[WHOLE]] : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xi32>)
// CHECK:           arith.bitcast %{{.*}} : f32 to i32
// CHECK:         %[[SUM:.*]] = shard.all_reduce %[[BITS]] on @grid grid_axes = [0] : tensor<2x3xi32> -> tensor<2x3xi32>
// CHECK:         %[[RESULT:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<2x3xi32>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK:           arith.bitcast %{{.*}} : i32 to f32
// CHECK:         return %[[RESULT]] : tensor<2x3xf32>
// CHECK-NOT:     shard.all_gather
// shard.all_slice: this process's slice, a local tensor.extract_slice
// (upstream's lowering); no communication but gatherMPIInit.
// CHECK-LABEL: func.func @all_slice(
// CHECK-SAME:      %[[X:.*]]: tensor<4x3xi64>) -> tensor<2x3xi64>
// CHECK:         call @gatherMPIInit
// CHECK:         %[[RANK:.*]] = shard.process_multi_index on @grid axes = [0] : index
// CHECK:         %[[PROCESSES:.*]] = shard.grid_shape @grid axes = [0] : index
// CHECK:         %[[ROWS:.*]] = arith.divui %{{.*}}, %[[PROCESSES]] : index
// CHECK:         %[[OFFSET:.*]] = arith.muli %[[RANK]], %[[ROWS]] : index
// CHECK:         %[[SLICE:.*]] = tensor.extract_slice %[[X]][%[[OFFSET]], 0] [%[[ROWS]], %{{.*}}] [1, 1]
// CHECK:         %[[CAST:.*]] = tensor.cast %[[SLICE]] : tensor<?x?xi64> to tensor<2x3xi64>
// CHECK:         return %[[CAST]]
// CHECK-NOT:     shard.all_slice
// A collective of a tensor without elements: a tensor.empty (nothing to
// move).
// CHECK-LABEL: func.func @empty(
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    call @gatherMPIInit(%[[TWO]])
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty() : tensor<0x6xf64>
// CHECK-NEXT:    return %[[EMPTY]]
// A function without shard ops is left alone: no gatherMPIInit.
// CHECK-LABEL: func.func @no_communication(
// CHECK-NEXT:    return
shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @all_gather(%x: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %0 = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<1x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @all_slice(%x: tensor<4x3xi64>) -> tensor<2x3xi64> {
  %0 = shard.all_slice %x on @grid grid_axes = [0] slice_axis = 0 : tensor<4x3xi64> -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}
func.func @empty(%x: tensor<0x3xf64>) -> tensor<0x6xf64> {
  %0 = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 1 : tensor<0x3xf64> -> tensor<0x6xf64>
  return %0 : tensor<0x6xf64>
}
func.func @no_communication(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

// Bits summed exactly: i1 widened to i8, complex<f32> as two i32. One
// gatherMPIInit per grid size a function uses.
// CHECK-LABEL: func.func @bits(
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-DAG:     %[[FOUR:.*]] = arith.constant 4 : i64
// CHECK:         call @gatherMPIInit(%[[TWO]])
// CHECK-NEXT:    call @gatherMPIInit(%[[FOUR]])
// CHECK:         arith.extui %{{.*}} : i1 to i8
// CHECK:         shard.all_reduce %{{.*}} on @grid2 grid_axes = [0] : tensor<2xi8> -> tensor<2xi8>
// CHECK:         arith.trunci %{{.*}} : i8 to i1
// CHECK:         complex.re
// CHECK:         complex.im
// CHECK:         arith.bitcast %{{.*}} : f32 to i32
// CHECK:         shard.all_reduce %{{.*}} on @grid4 grid_axes = [0] : tensor<4x2xi32> -> tensor<4x2xi32>
// CHECK:         complex.create
// CHECK-NOT:     shard.all_gather
shard.grid @grid2(shape = 2) {sym_visibility = "private"}
shard.grid @grid4(shape = 4) {sym_visibility = "private"}
func.func @bits(%x: tensor<1xi1>, %y: tensor<1xcomplex<f32>>) -> (tensor<2xi1>, tensor<4xcomplex<f32>>) {
  %0 = shard.all_gather %x on @grid2 grid_axes = [0] gather_axis = 0 : tensor<1xi1> -> tensor<2xi1>
  %1 = shard.all_gather %y on @grid4 grid_axes = [0] gather_axis = 0 : tensor<1xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0, %1 : tensor<2xi1>, tensor<4xcomplex<f32>>
}

// -----

// MPI runs a fixed number of processes.
shard.grid @dynamic(shape = ?) {sym_visibility = "private"}
func.func @dynamic_grid(%x: tensor<1xf32>) -> tensor<1xf32> {
  // expected-error @below {{'shard.all_reduce' op uses grid @dynamic of dynamic size, which MPI cannot run}}
  %0 = shard.all_reduce %x on @dynamic grid_axes = [0] : tensor<1xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
