// RUN: gather-opt %s --split-input-file --verify-diagnostics --gather-shard-prepare-for-mpi --cse | FileCheck %s

// gather-shard-prepare-for-mpi runs between shard-partition and
// convert-shard-to-mpi and rewrites the shard ops the latter cannot lower.
// shard.all_gather: the local part inserted into the whole tensor at this
// process's offset, then gatherMPIAllgatherv in place on its buffer
// (outer 1, 12 bytes per row, 2 rows; splitId, color, key 0: the whole
// grid). Every function that communicates first calls gatherMPIInit with
// the number of processes of the grid it uses, then gatherMPIKernelEnter
// with the site of the function (its location), and gatherMPIKernelExit
// before it returns (the bounded wait of a call).
// CHECK:       llvm.mlir.global private constant @__gather_location_
// CHECK:         llvm.mlir.constant("{{.*}}shard-prepare-for-mpi.mlir:{{[0-9]+}}:1\00")
// CHECK-DAG:   func.func private @gatherMPIKernelExit()
// CHECK-DAG:   func.func private @gatherMPIKernelEnter(!llvm.ptr)
// CHECK:       func.func private @gatherMPIInit(i64)
// CHECK-LABEL: func.func @all_gather(
// CHECK-SAME:      %[[X:.*]]: tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK:         %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    call @gatherMPIInit(%[[TWO]]) : (i64) -> ()
// CHECK-NEXT:    %[[SITE_ADDRESS:.*]] = llvm.mlir.addressof @__gather_location_{{[0-9A-F]+}} : !llvm.ptr
// CHECK-NEXT:    call @gatherMPIKernelEnter(%[[SITE_ADDRESS]]) : (!llvm.ptr) -> ()
// CHECK-DAG:     %[[ROW:.*]] = arith.constant 12 : i64
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK:         %[[RANK:.*]] = shard.process_multi_index on @grid axes = [0] : index
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK:         %[[WHOLE:.*]] = tensor.insert_slice %[[X]] into %[[EMPTY]][%[[RANK]], 0] [1, 3] [1, 1] : tensor<1x3xf32> into tensor<2x3xf32>
// CHECK:         %[[BUFFER:.*]] = bufferization.to_buffer %[[WHOLE]] : tensor<2x3xf32> to memref<2x3xf32>
// CHECK:         %[[ADDRESS:.*]] = memref.extract_aligned_pointer_as_index %[[BUFFER]]
// CHECK:         %[[POINTER:.*]] = llvm.inttoptr
// CHECK:         call @gatherMPIAllgatherv(%[[POINTER]], %[[ONE]], %[[ROW]], %[[TWO]], %[[ZERO]], %[[ZERO]], %[[ZERO]])
// CHECK:         %[[RESULT:.*]] = bufferization.to_tensor %[[BUFFER]] restrict writable
// CHECK-NEXT:    call @gatherMPIKernelExit() : () -> ()
// CHECK-NEXT:    return %[[RESULT]] : tensor<2x3xf32>
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
// CHECK-NEXT:    llvm.mlir.addressof
// CHECK-NEXT:    call @gatherMPIKernelEnter
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty() : tensor<0x6xf64>
// CHECK-NEXT:    call @gatherMPIKernelExit
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

// Bit-exact sums (marked gather.bit_exact_sum): gatherMPIAllreduceSumBits
// on the elements as integers of their size, no conversion: i1 as 1 byte,
// complex<f32> as 8 integers of 4 bytes. An unmarked all_reduce is a sum
// of values, left to convert-shard-to-mpi. One gatherMPIInit per grid size
// a function uses.
// CHECK-LABEL: func.func @bits(
// CHECK:         %[[C2:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    call @gatherMPIInit(%[[C2]])
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : i64
// CHECK-NEXT:    call @gatherMPIInit(%[[C4]])
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : i64
// CHECK:         bufferization.to_buffer %{{.*}} : tensor<2xi1> to memref<2xi1>
// CHECK:         call @gatherMPIAllreduceSumBits(%{{.*}}, %[[C2]], %[[C1]],
// CHECK:         bufferization.to_buffer %{{.*}} : tensor<4xcomplex<f32>> to memref<4xcomplex<f32>>
// CHECK:         call @gatherMPIAllreduceSumBits(%{{.*}}, %[[C8]], %[[C4]],
// CHECK:         shard.all_reduce %{{.*}} on @grid2 grid_axes = [0] : tensor<3xf32> -> tensor<3xf32>
// CHECK-NOT:     linalg.generic
shard.grid @grid2(shape = 2) {sym_visibility = "private"}
shard.grid @grid4(shape = 4) {sym_visibility = "private"}
func.func @bits(%x: tensor<2xi1>, %y: tensor<4xcomplex<f32>>, %z: tensor<3xf32>) -> (tensor<2xi1>, tensor<4xcomplex<f32>>, tensor<3xf32>) {
  %0 = shard.all_reduce %x on @grid2 grid_axes = [0] {gather.bit_exact_sum} : tensor<2xi1> -> tensor<2xi1>
  %1 = shard.all_reduce %y on @grid4 grid_axes = [0] {gather.bit_exact_sum} : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  %2 = shard.all_reduce %z on @grid2 grid_axes = [0] : tensor<3xf32> -> tensor<3xf32>
  return %0, %1, %2 : tensor<2xi1>, tensor<4xcomplex<f32>>, tensor<3xf32>
}

// -----

// In a destination (a result only materialized in a row-major memref,
// restrict writable): the local part materialized in this process's
// subview of it (made before anything else, so that the local part can be
// computed there), then the collective in place on the destination. Split
// along dimension 1 of 4x2 i16: 4 runs of 2 bytes per index, 2 indices.
// CHECK-LABEL: func.func @in_destination(
// CHECK-SAME:      %[[X:.*]]: tensor<4x1xi16>, %[[OUT:.*]]: memref<4x2xi16>)
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i64
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i64
// CHECK:         %[[RANK:.*]] = shard.process_multi_index on @grid axes = [0] : index
// CHECK:         %[[SLAB:.*]] = memref.subview %[[OUT]][0, %[[RANK]]] [4, 1] [1, 1]
// CHECK:         bufferization.materialize_in_destination %[[X]] in restrict writable %[[SLAB]]
// CHECK:         memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK:         call @gatherMPIAllgatherv(%{{.*}}, %[[C4]], %[[C2]], %[[C2]],
// CHECK-NEXT:    call @gatherMPIKernelExit
// CHECK-NEXT:    return
// A function onnx-shard-gathers outlined (gather.outlined_gather) is
// inlined at its call first: its result then reaches the destination.
// CHECK-LABEL: func.func @caller(
// CHECK-SAME:      %[[X:.*]]: tensor<1x3xf32>, %[[OUT:.*]]: memref<2x3xf32>)
// CHECK:         %[[SLAB:.*]] = memref.subview %[[OUT]]
// CHECK:         bufferization.materialize_in_destination %[[X]] in restrict writable %[[SLAB]]
// CHECK:         call @gatherMPIAllgatherv(
// CHECK-NOT:     func.func private @outlined
// CHECK-NOT:     call @outlined
// A group of some axes of the grid: its own communicator (a non-zero
// splitId; color: this process's index over the other axes, key: over the
// group's).
// CHECK-LABEL: func.func @sub_group(
// CHECK:         %[[SPLIT:.*]] = arith.constant {{[0-9][0-9][0-9][0-9][0-9][0-9]+}} : i64
// CHECK:         %[[OTHERS:.*]] = shard.process_multi_index on @grid2x3 axes = [0] : index
// CHECK:         %[[COLOR:.*]] = arith.index_cast %[[OTHERS]] : index to i64
// CHECK:         %[[GROUP:.*]] = shard.process_multi_index on @grid2x3 axes = [1] : index
// CHECK:         %[[KEY:.*]] = arith.index_cast %[[GROUP]] : index to i64
// CHECK:         call @gatherMPIAllgatherv(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SPLIT]], %[[COLOR]], %[[KEY]])
shard.grid @grid(shape = 2) {sym_visibility = "private"}
shard.grid @grid2x3(shape = 2x3) {sym_visibility = "private"}
func.func @in_destination(%x: tensor<4x1xi16>, %out: memref<4x2xi16>) {
  %0 = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 1 : tensor<4x1xi16> -> tensor<4x2xi16>
  bufferization.materialize_in_destination %0 in restrict writable %out : (tensor<4x2xi16>, memref<4x2xi16>) -> ()
  return
}
func.func private @outlined(%x: tensor<1x3xf32>) -> tensor<2x3xf32> attributes {gather.outlined_gather} {
  %0 = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<1x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @caller(%x: tensor<1x3xf32>, %out: memref<2x3xf32>) {
  %0 = call @outlined(%x) : (tensor<1x3xf32>) -> tensor<2x3xf32>
  bufferization.materialize_in_destination %0 in restrict writable %out : (tensor<2x3xf32>, memref<2x3xf32>) -> ()
  return
}
func.func @sub_group(%x: tensor<2xf64>) -> tensor<6xf64> {
  %0 = shard.all_gather %x on @grid2x3 grid_axes = [1] gather_axis = 0 : tensor<2xf64> -> tensor<6xf64>
  return %0 : tensor<6xf64>
}

// -----

// MPI runs a fixed number of processes.
shard.grid @dynamic(shape = ?) {sym_visibility = "private"}
func.func @dynamic_grid(%x: tensor<1xf32>) -> tensor<1xf32> {
  // expected-error @below {{'shard.all_reduce' op uses grid @dynamic of dynamic size, which MPI cannot run}}
  %0 = shard.all_reduce %x on @dynamic grid_axes = [0] : tensor<1xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
