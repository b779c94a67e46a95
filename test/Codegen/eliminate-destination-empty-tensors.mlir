// RUN: gather-opt %s --split-input-file --gather-eliminate-destination-empty-tensors | FileCheck %s
// After bufferization: no buffer and no copy where the result is computed
// in its destination.
// RUN: gather-opt %s --split-input-file --gather-eliminate-destination-empty-tensors --one-shot-bufferize=bufferize-function-boundaries --canonicalize | FileCheck %s --check-prefix=BUFFERS

// A result built on two paths, each in its own tensor.empty, materialized in
// a memref: both are computed in one `to_tensor restrict writable` of it
// (upstream's eliminate-empty-tensors replaces the first only).
// CHECK-LABEL: func.func @two_paths(
// CHECK-SAME:      %[[OUT:.*]]: memref<?xf32>,
// CHECK:         %[[DEST:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK:         scf.if
// CHECK:           linalg.fill ins(%{{.*}} : f32) outs(%[[DEST]] : tensor<?xf32>)
// CHECK:         } else {
// CHECK:           linalg.fill ins(%{{.*}} : f32) outs(%[[DEST]] : tensor<?xf32>)
// CHECK:         bufferization.materialize_in_destination %{{.*}} in writable %[[OUT]]
// BUFFERS-LABEL: func.func @two_paths(
// BUFFERS-NOT:     memref.alloc
// BUFFERS-NOT:     memref.copy
// BUFFERS:         return
func.func @two_paths(%out: memref<?xf32>, %n: index, %c: i1) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %r = scf.if %c -> tensor<?xf32> {
    %e = tensor.empty(%n) : tensor<?xf32>
    %a = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %a : tensor<?xf32>
  } else {
    %e = tensor.empty(%n) : tensor<?xf32>
    %b = linalg.fill ins(%two : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %b : tensor<?xf32>
  }
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}

// -----

// One tensor.empty used on both paths (upstream replaces one use of it), and
// a tensor destination.
// CHECK-LABEL: func.func @shared_empty(
// CHECK-SAME:      %[[OUT:[^:]*]]: tensor<?xf32>
// CHECK:         scf.if
// CHECK:           linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]] : tensor<?xf32>)
// CHECK:         } else {
// CHECK:           linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]] : tensor<?xf32>)
// BUFFERS-LABEL: func.func @shared_empty(
// BUFFERS-NOT:     memref.alloc
// BUFFERS-NOT:     memref.copy
// BUFFERS:         return
func.func @shared_empty(%out: tensor<?xf32>, %n: index, %c: i1) -> tensor<?xf32> {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = scf.if %c -> tensor<?xf32> {
    %a = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %a : tensor<?xf32>
  } else {
    %b = linalg.fill ins(%two : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %b : tensor<?xf32>
  }
  %o = bufferization.materialize_in_destination %r in %out : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %o : tensor<?xf32>
}

// -----

// The same with a memref destination, as the shape checks and the threaded
// and serial loops of a dynamic gather build it: still one to_tensor.
// CHECK-LABEL: func.func @shared_empty_memref(
// CHECK-SAME:      %[[OUT:.*]]: memref<?xf32>,
// CHECK:         %[[DEST:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK-NOT:     bufferization.to_tensor
// CHECK:           linalg.fill ins(%{{.*}} : f32) outs(%[[DEST]] : tensor<?xf32>)
// CHECK:           linalg.fill ins(%{{.*}} : f32) outs(%[[DEST]] : tensor<?xf32>)
// BUFFERS-LABEL: func.func @shared_empty_memref(
// BUFFERS-NOT:     memref.alloc
// BUFFERS-NOT:     memref.copy
// BUFFERS:         return
func.func @shared_empty_memref(%out: memref<?xf32>, %n: index, %c: i1) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = scf.if %c -> tensor<?xf32> {
    %a = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %a : tensor<?xf32>
  } else {
    %b = linalg.fill ins(%two : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %b : tensor<?xf32>
  }
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}

// -----

// No destination: the tensor.empty shared by both paths stays one buffer
// (allocated once, before the branch).
// CHECK-LABEL: func.func @no_destination(
// CHECK:         %[[E:.*]] = tensor.empty
// CHECK-NOT:     tensor.empty
// CHECK:           linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?xf32>)
// CHECK:           linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?xf32>)
// BUFFERS-LABEL: func.func @no_destination(
// BUFFERS:         memref.alloc
// BUFFERS-NOT:     memref.alloc
// BUFFERS:         scf.if
func.func @no_destination(%n: index, %c: i1) -> tensor<?xf32> {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = scf.if %c -> tensor<?xf32> {
    %a = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %a : tensor<?xf32>
  } else {
    %b = linalg.fill ins(%two : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %b : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// A destination defined after the result is computed: nothing to replace
// (the copy stays; the result is right either way).
// CHECK-LABEL: func.func @late_destination(
// CHECK:         %[[E:.*]] = tensor.empty
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?xf32>)
// CHECK:         %[[OUT:.*]] = memref.alloc
// CHECK:         bufferization.materialize_in_destination %{{.*}} in restrict writable %[[OUT]]
// BUFFERS-LABEL: func.func @late_destination(
// BUFFERS:         memref.copy
func.func @late_destination(%n: index) -> memref<?xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %out = memref.alloc(%n) : memref<?xf32>
  bufferization.materialize_in_destination %a in restrict writable %out : (tensor<?xf32>, memref<?xf32>) -> ()
  return %out : memref<?xf32>
}
