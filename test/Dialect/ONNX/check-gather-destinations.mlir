// RUN: gather-opt %s --split-input-file --onnx-check-gather-destinations | FileCheck %s
// RUN: gather-opt %s --split-input-file --onnx-check-gather-destinations=runtime-checks=false \
// RUN: | FileCheck %s --check-prefix=NOCHECK --implicit-check-not=gatherReportDestinationShapeError

// A gather's result copied (destination-passing style) into a destination
// of dynamic sizes: for each dimension dynamic on either side, the result's
// size (read from `indices`) is compared with the destination's; a mismatch
// calls gatherReportDestinationShapeError(location, dim, result size,
// destination size), and the copy runs only if every size is equal. The
// gather moves into the scf.if with the copy (its only use).
// CHECK-DAG:   llvm.mlir.global private constant @[[$LOC:__gather_location_[0-9A-F]+]]()
// CHECK-DAG:   llvm.mlir.constant("{{.*}}check-gather-destinations.mlir:[[# @LINE + 25]]:3\00")
// CHECK-DAG:   func.func private @gatherReportDestinationShapeError(!llvm.ptr, i64, i64, i64)
// CHECK-LABEL: func.func @memref_destination(
// CHECK-SAME:      %[[DATA:.*]]: tensor<?x4xf32>, %[[INDICES:.*]]: tensor<?x4xi64>, %[[OUT:.*]]: memref<?x4xf32>)
// CHECK:         %[[SIZE:.*]] = tensor.dim %[[INDICES]], %{{.*}} : tensor<?x4xi64>
// CHECK:         %[[DEST_SIZE:.*]] = memref.dim %[[OUT]], %{{.*}} : memref<?x4xf32>
// CHECK:         %[[EQUAL:.*]] = arith.cmpi eq, %[[SIZE]], %[[DEST_SIZE]] : index
// CHECK:         %[[UNEQUAL:.*]] = arith.xori %[[EQUAL]], %{{.*}} : i1
// CHECK:         scf.if %[[UNEQUAL]] {
// CHECK:           %[[WHERE:.*]] = llvm.mlir.addressof @[[$LOC]] : !llvm.ptr
// CHECK:           %[[DIM:.*]] = arith.constant 0 : i64
// CHECK:           func.call @gatherReportDestinationShapeError(%[[WHERE]], %[[DIM]], %{{.*}}, %{{.*}})
// CHECK:         }
// CHECK-NEXT:    scf.if %[[EQUAL]] {
// CHECK-NEXT:      %[[G:.*]] = onnx.GatherElements %[[DATA]], %[[INDICES]] axis = 1
// CHECK-NEXT:      bufferization.materialize_in_destination %[[G]] in restrict writable %[[OUT]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// NOCHECK-LABEL: func.func @memref_destination(
// NOCHECK:         %[[EQUAL:.*]] = arith.cmpi eq
// NOCHECK-NEXT:    scf.if %[[EQUAL]] {
// NOCHECK-NEXT:      onnx.GatherElements
// NOCHECK-NEXT:      bufferization.materialize_in_destination
func.func @memref_destination(%data: tensor<?x4xf32>, %indices: tensor<?x4xi64>, %out: memref<?x4xf32>) {
  %g = onnx.GatherElements %data, %indices axis = 1 : tensor<?x4xf32>, tensor<?x4xi64>
  bufferization.materialize_in_destination %g in restrict writable %out : (tensor<?x4xf32>, memref<?x4xf32>) -> ()
  return
}

// -----

// A tensor destination (linalg.copy, through a tensor.cast): the scf.if
// yields the copy, or the destination unchanged when it is skipped.
// CHECK-LABEL: func.func @tensor_destination(
// CHECK-SAME:      %[[DATA:.*]]: tensor<3x?xf32>, %[[INDICES:.*]]: tensor<2x?xi64>, %[[OUT:.*]]: tensor<2x?xf32>)
// CHECK:         %[[SIZE:.*]] = tensor.dim %[[INDICES]], %{{.*}} : tensor<2x?xi64>
// CHECK:         %[[DEST_SIZE:.*]] = tensor.dim %[[OUT]], %{{.*}} : tensor<2x?xf32>
// CHECK:         %[[EQUAL:.*]] = arith.cmpi eq, %[[SIZE]], %[[DEST_SIZE]] : index
// CHECK:           arith.constant 1 : i64
// CHECK:           func.call @gatherReportDestinationShapeError
// CHECK:         %[[R:.*]] = scf.if %[[EQUAL]] -> (tensor<2x?xf32>) {
// CHECK-NEXT:      %[[G:.*]] = onnx.GatherElements %[[DATA]], %[[INDICES]]
// CHECK-NEXT:      %[[CAST:.*]] = tensor.cast %[[G]]
// CHECK-NEXT:      %[[COPY:.*]] = linalg.copy ins(%[[CAST]] : tensor<2x?xf32>) outs(%[[OUT]] : tensor<2x?xf32>)
// CHECK-NEXT:      scf.yield %[[COPY]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[OUT]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
func.func @tensor_destination(%data: tensor<3x?xf32>, %indices: tensor<2x?xi64>, %out: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %g = onnx.GatherElements %data, %indices axis = 0 : tensor<3x?xf32>, tensor<2x?xi64>
  %c = tensor.cast %g : tensor<2x?xf32> to tensor<2x?xf32>
  %r = linalg.copy ins(%c : tensor<2x?xf32>) outs(%out : tensor<2x?xf32>) -> tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}

// -----

// Two dynamic dimensions: only the first mismatch is reported (the second
// report needs the first sizes equal); the copy needs both.
// CHECK-LABEL: func.func @two_dims(
// CHECK:         %[[EQUAL0:.*]] = arith.cmpi eq
// CHECK:         scf.if
// CHECK:           arith.constant 0 : i64
// CHECK:           func.call @gatherReportDestinationShapeError
// CHECK:         %[[EQUAL1:.*]] = arith.cmpi eq
// CHECK:         %[[UNEQUAL1:.*]] = arith.xori %[[EQUAL1]]
// CHECK:         %[[REPORT1:.*]] = arith.andi %[[UNEQUAL1]], %[[EQUAL0]] : i1
// CHECK:         scf.if %[[REPORT1]] {
// CHECK:           arith.constant 1 : i64
// CHECK:           func.call @gatherReportDestinationShapeError
// CHECK:         %[[ALL:.*]] = arith.andi %[[EQUAL0]], %[[EQUAL1]] : i1
// CHECK:         scf.if %[[ALL]] {
// CHECK-NEXT:      onnx.GatherElements
// CHECK-NEXT:      bufferization.materialize_in_destination
func.func @two_dims(%data: tensor<?x?xf32>, %indices: tensor<?x?xi64>, %out: memref<?x?xf32>) {
  %g = onnx.GatherElements %data, %indices axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  bufferization.materialize_in_destination %g in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}

// -----

// A static result into a dynamic destination: the result's size is a
// constant.
// CHECK-LABEL: func.func @static_result(
// CHECK-SAME:      %{{.*}}: tensor<3x4xf32>, %{{.*}}: tensor<2x4xi64>, %[[OUT:.*]]: memref<?x4xf32>)
// CHECK:         %[[TWO:.*]] = arith.constant 2 : index
// CHECK:         %[[DEST_SIZE:.*]] = memref.dim %[[OUT]]
// CHECK:         arith.cmpi eq, %[[TWO]], %[[DEST_SIZE]] : index
func.func @static_result(%data: tensor<3x4xf32>, %indices: tensor<2x4xi64>, %out: memref<?x4xf32>) {
  %g = onnx.GatherElements %data, %indices axis = 0 : tensor<3x4xf32>, tensor<2x4xi64>
  bufferization.materialize_in_destination %g in restrict writable %out : (tensor<2x4xf32>, memref<?x4xf32>) -> ()
  return
}

// -----

// A gather with another use stays where it is; only the copy is guarded.
// CHECK-LABEL: func.func @other_use(
// CHECK-NEXT:    %[[G:.*]] = onnx.GatherElements
// CHECK:         %[[EQUAL:.*]] = arith.cmpi eq
// CHECK:         scf.if %[[EQUAL]] {
// CHECK-NEXT:      bufferization.materialize_in_destination %[[G]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[G]]
func.func @other_use(%data: tensor<?xf32>, %indices: tensor<?xi64>, %out: memref<?xf32>) -> tensor<?xf32> {
  %g = onnx.GatherElements %data, %indices axis = 0 : tensor<?xf32>, tensor<?xi64>
  bufferization.materialize_in_destination %g in restrict writable %out : (tensor<?xf32>, memref<?xf32>) -> ()
  return %g : tensor<?xf32>
}

// -----

// Left alone: static sizes on both sides (the ops' verifiers check them),
// and a copy of anything but a gather's result. Nothing is declared.
// CHECK-NOT:   gatherReportDestinationShapeError
// CHECK-LABEL: func.func @static_sizes(
// CHECK-NEXT:    %[[G:.*]] = onnx.GatherElements
// CHECK-NEXT:    bufferization.materialize_in_destination %[[G]]
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @not_a_gather(
// CHECK-SAME:      %[[X:.*]]: tensor<?xf32>, %[[OUT:.*]]: memref<?xf32>)
// CHECK-NEXT:    bufferization.materialize_in_destination %[[X]] in restrict writable %[[OUT]]
// CHECK-NEXT:    return
func.func @static_sizes(%data: tensor<3x4xf32>, %indices: tensor<2x4xi64>, %out: memref<2x4xf32>) {
  %g = onnx.GatherElements %data, %indices axis = 0 : tensor<3x4xf32>, tensor<2x4xi64>
  bufferization.materialize_in_destination %g in restrict writable %out : (tensor<2x4xf32>, memref<2x4xf32>) -> ()
  return
}
func.func @not_a_gather(%x: tensor<?xf32>, %out: memref<?xf32>) {
  bufferization.materialize_in_destination %x in restrict writable %out : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}
