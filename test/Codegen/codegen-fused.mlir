// gather-codegen after upstream fusion: linalg-fuse-elementwise-ops merges
// elementwise consumers into the gather's generic (a second input, a
// transposed one, an op after the read of data) and puts the fused generic,
// without the `gather.elements` marker, after the index check. The gather
// keeps its vectors, threads, prefetches and fused check; what the pass does
// not handle gets a remark saying why.
//
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --linalg-fuse-elementwise-ops --gather-codegen | FileCheck %s
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --linalg-fuse-elementwise-ops --gather-codegen=remarks=true -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark: --implicit-check-not=warning:
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --linalg-fuse-elementwise-ops --gather-codegen=unfused-remarks=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: remark

// gather * w: w read contiguously next to the index values; one threaded
// loop nest, the check an atomic flag in it (no generic left).
// CHECK-LABEL: func.func @mul
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall
// CHECK:           memref.prefetch
// CHECK:           vector.transfer_read %arg1
// CHECK:           vector.transfer_read %arg2
// CHECK:           vector.gather %arg0
// CHECK:           arith.mulf {{.*}} : vector<16xf32>
// CHECK:           vector.transfer_write
// CHECK:           memref.atomic_rmw ori
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @mul(%d: tensor<256x256xf32>, %i: tensor<256x256xi64>, %w: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xf32>, tensor<256x256xi64>
  %e = tensor.empty() : tensor<256x256xf32>
  // REMARK: codegen-fused.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; prefetches 4096 B ahead; index check fused
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// A kernel on buffers: w's `restrict` bufferization.to_tensor comes after
// the check and its error report (a call); it moves above the check (no
// other access may write its buffer), and the check is fused.
// CHECK-LABEL: func.func @mul_buffers
// CHECK:         bufferization.to_tensor %arg2 restrict
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall
// CHECK:           vector.transfer_read
// CHECK:           vector.transfer_read
// CHECK:           arith.mulf {{.*}} : vector<16xf32>
// CHECK:           memref.atomic_rmw ori
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @mul_buffers(%data: memref<256x256xf32>, %indices: memref<256x256xi64>, %weights: memref<256x256xf32>, %out: memref<256x256xf32>) {
  %d = bufferization.to_tensor %data restrict : memref<256x256xf32> to tensor<256x256xf32>
  %i = bufferization.to_tensor %indices restrict : memref<256x256xi64> to tensor<256x256xi64>
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xf32>, tensor<256x256xi64>
  %w = bufferization.to_tensor %weights restrict : memref<256x256xf32> to tensor<256x256xf32>
  %e = tensor.empty() : tensor<256x256xf32>
  // REMARK: codegen-fused.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; prefetches 4096 B ahead; index check fused
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<256x256xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<256x256xf32>, memref<256x256xf32>) -> ()
  return
}

// -----

// The same without `restrict`: the to_tensor reads w's buffer, which the
// error report's call before it might write; it stays, and the check is not
// fused (its own loop before the gather's).
// CHECK-LABEL: func.func @mul_buffer_not_restrict
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "reduction"]
// CHECK:         bufferization.to_tensor %arg2 :
// CHECK:         scf.forall
// CHECK-NOT:       memref.atomic_rmw
// CHECK:         return
func.func @mul_buffer_not_restrict(%data: memref<256x256xf32>, %indices: memref<256x256xi64>, %weights: memref<256x256xf32>, %out: memref<256x256xf32>) {
  %d = bufferization.to_tensor %data restrict : memref<256x256xf32> to tensor<256x256xf32>
  %i = bufferization.to_tensor %indices restrict : memref<256x256xi64> to tensor<256x256xi64>
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xf32>, tensor<256x256xi64>
  %w = bufferization.to_tensor %weights : memref<256x256xf32> to tensor<256x256xf32>
  %e = tensor.empty() : tensor<256x256xf32>
  // REMARK: codegen-fused.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; prefetches 4096 B ahead; index check not fused (the check is before the gather, above an op that the gather uses and that cannot move above it (memory effects other than reads, or a read after a write))
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<256x256xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<256x256xf32>, memref<256x256xf32>) -> ()
  return
}

// -----

// relu(gather): the consumer's op after the read of data, on vectors.
// CHECK-LABEL: func.func @relu
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall
// CHECK:           vector.gather %arg0
// CHECK:           arith.maximumf {{.*}} : vector<16xf32>
// CHECK:           memref.atomic_rmw ori
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @relu(%d: tensor<256x256xf32>, %i: tensor<256x256xi64>) -> tensor<256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xf32>, tensor<256x256xi64>
  // REMARK: codegen-fused.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; prefetches 4096 B ahead; index check fused
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// gather + transpose(w) and a row vector b broadcast over the rows: the
// transposed w read with a vector.gather along its columns, b contiguously.
// CHECK-LABEL: func.func @transposed
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall
// CHECK:           vector.transfer_read %arg1
// CHECK-DAG:       vector.gather %arg2[%[[COL:.*]], %[[ROW:.*]]] [
// CHECK-DAG:       vector.transfer_read %arg3[%[[COL]]]
// CHECK:           vector.gather %arg0
// CHECK:           arith.addf {{.*}} : vector<16xf32>
// CHECK:           arith.mulf {{.*}} : vector<16xf32>
// CHECK:           memref.atomic_rmw ori
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @transposed(%d: tensor<128x128xf32>, %i: tensor<128x128xi64>, %w: tensor<128x128xf32>, %b: tensor<128xf32>) -> tensor<128x128xf32> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<128x128xf32>, tensor<128x128xi64>
  %e = tensor.empty() : tensor<128x128xf32>
  // REMARK: codegen-fused.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; prefetches 4096 B ahead; index check fused
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (b, a)>, affine_map<(a, b) -> (b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%g, %w, %b : tensor<128x128xf32>, tensor<128x128xf32>, tensor<128xf32>) outs(%e : tensor<128x128xf32>) {
  ^bb0(%a: f32, %x: f32, %y: f32, %o: f32):
    %s = arith.addf %a, %x : f32
    %m = arith.mulf %s, %y : f32
    linalg.yield %m : f32
  } -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// Two results (x * w and x + w): both written by the same vector iteration
// (one read of the index values, one vector.gather), the check fused.
// CHECK-LABEL: func.func @two_results
// CHECK-NOT:     linalg.generic
// CHECK:         scf.for {{.*}} -> (tensor<64x64xf32>, tensor<64x64xf32>, i1)
// CHECK:           scf.for {{.*}} -> (tensor<64x64xf32>, tensor<64x64xf32>, vector<16xi1>)
// CHECK:             vector.transfer_read %arg1
// CHECK:             vector.transfer_read %arg2
// CHECK:             vector.gather %arg0
// CHECK-NOT:         vector.gather
// CHECK:             %[[M:.*]] = arith.mulf {{.*}} : vector<16xf32>
// CHECK:             %[[S:.*]] = arith.addf {{.*}} : vector<16xf32>
// CHECK:             vector.transfer_write %[[M]]
// CHECK:             vector.transfer_write %[[S]]
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @two_results(%d: tensor<64x64xf32>, %i: tensor<64x64xi64>, %w: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<64x64xf32>, tensor<64x64xi64>
  %e = tensor.empty() : tensor<64x64xf32>
  // REMARK: codegen-fused.mlir:[[# @LINE + 1]]:10: remark: gather-codegen: vectors of 16; serial (4096 elements, under parallel-threshold=8192); prefetches 4096 B ahead; index check fused
  %r:2 = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e, %e : tensor<64x64xf32>, tensor<64x64xf32>) {
  ^bb0(%a: f32, %x: f32, %o: f32, %o2: f32):
    %m = arith.mulf %a, %x : f32
    %s = arith.addf %a, %x : f32
    linalg.yield %m, %s : f32, f32
  } -> (tensor<64x64xf32>, tensor<64x64xf32>)
  return %r#0, %r#1 : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// The gathered value itself and x * w, with threads: one scf.forall with
// both results shared, a slice of each per row.
// CHECK-LABEL: func.func @value_and_product
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall {{.*}} shared_outs(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<256x256xf32>, tensor<256x256xf32>)
// CHECK:           %[[X:.*]] = vector.gather %arg0
// CHECK:           %[[M:.*]] = arith.mulf %[[X]], {{.*}} : vector<16xf32>
// CHECK:           vector.transfer_write %[[X]]
// CHECK:           vector.transfer_write %[[M]]
// CHECK:           memref.atomic_rmw ori
// CHECK:           tensor.parallel_insert_slice
// CHECK:           tensor.parallel_insert_slice
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @value_and_product(%d: tensor<256x256xf32>, %i: tensor<256x256xi64>, %w: tensor<256x256xf32>) -> (tensor<256x256xf32>, tensor<256x256xf32>) {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xf32>, tensor<256x256xi64>
  %e = tensor.empty() : tensor<256x256xf32>
  // REMARK: codegen-fused.mlir:[[# @LINE + 1]]:10: remark: gather-codegen: vectors of 16; threads; prefetches 4096 B ahead; index check fused
  %r:2 = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e, %e : tensor<256x256xf32>, tensor<256x256xf32>) {
  ^bb0(%a: f32, %x: f32, %o: f32, %o2: f32):
    %m = arith.mulf %a, %x : f32
    linalg.yield %a, %m : f32, f32
  } -> (tensor<256x256xf32>, tensor<256x256xf32>)
  return %r#0, %r#1 : tensor<256x256xf32>, tensor<256x256xf32>
}

// -----

// Rows of 10 in groups, with an f32 and an i32 result: each result's group
// slice collapsed, written by the same 5 vectors, expanded back.
// CHECK-LABEL: func.func @groups_two_types
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall {{.*}} -> (tensor<1024x10xf32>, tensor<1024x10xi32>)
// CHECK-COUNT-5:   vector.transfer_write {{.*}} : vector<16xi32>, tensor<80xi32>
// CHECK:           tensor.expand_shape {{.*}} into tensor<8x10xf32>
// CHECK:           tensor.expand_shape {{.*}} into tensor<8x10xi32>
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @groups_two_types(%d: tensor<1024x10xf32>, %i: tensor<1024x10xi64>) -> (tensor<1024x10xf32>, tensor<1024x10xi32>) {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<1024x10xf32>, tensor<1024x10xi64>
  %e = tensor.empty() : tensor<1024x10xf32>
  %e2 = tensor.empty() : tensor<1024x10xi32>
  // REMARK: codegen-fused.mlir:[[# @LINE + 1]]:10: remark: gather-codegen: vectors of 16, rows of 10 in groups of 8 (5 vectors); threads; no prefetches (rows in groups); index check fused
  %r:2 = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<1024x10xf32>) outs(%e, %e2 : tensor<1024x10xf32>, tensor<1024x10xi32>) {
  ^bb0(%a: f32, %o: f32, %o2: i32):
    %t = arith.fptosi %a : f32 to i32
    linalg.yield %a, %t : f32, i32
  } -> (tensor<1024x10xf32>, tensor<1024x10xi32>)
  return %r#0, %r#1 : tensor<1024x10xf32>, tensor<1024x10xi32>
}

// -----

// A second result written transposed: one gather per order of the results
// (SplitResultOrders.h; docs/CodeShape.md "Results in several orders"): the
// product along the rows of indices with the check fused, then the gather
// in the order of its transposed result, in tiles. No generic is left.
// CHECK-LABEL: func.func @transposed_result
// CHECK-NOT:     linalg.generic
// CHECK:         scf.for
// CHECK:           arith.mulf {{.*}} : vector<16xf32>
// CHECK:         scf.for
// CHECK:           vector.shuffle
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @transposed_result(%d: tensor<64x64xf32>, %i: tensor<64x64xi64>, %w: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<64x64xf32>, tensor<64x64xi64>
  %e = tensor.empty() : tensor<64x64xf32>
  // REMARK: codegen-fused.mlir:[[# @LINE + 3]]:10: remark: gather-codegen: 2 results in 2 orders: one gather per order, its loops in that order
  // REMARK: codegen-fused.mlir:[[# @LINE + 2]]:10: remark: gather-codegen: vectors of 16; serial (4096 elements, under parallel-threshold=8192); prefetches 4096 B ahead; index check fused
  // REMARK: codegen-fused.mlir:[[# @LINE + 1]]:10: remark: gather-codegen: vectors of 16, in the order of a transposing consumer (tiles of 16x16 along dimension 0, transposed in registers); serial (4096 elements, under parallel-threshold=8192); no prefetches (the loops follow a transposing consumer); no index check
  %r:2 = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (b, a)>], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e, %e : tensor<64x64xf32>, tensor<64x64xf32>) {
  ^bb0(%a: f32, %x: f32, %o: f32, %o2: f32):
    %m = arith.mulf %a, %x : f32
    linalg.yield %m, %a : f32, f32
  } -> (tensor<64x64xf32>, tensor<64x64xf32>)
  return %r#0, %r#1 : tensor<64x64xf32>, tensor<64x64xf32>
}
