// gather-codegen on gathers that upstream linalg-fuse-elementwise-ops fused
// into a consumer that reads them transposed: the fused generic's loops
// follow the consumer's result, and `indices` has a permuted map. With
// static sizes that are multiples of the vector size, the loops run in
// tiles of 16x16: 16 contiguous reads of index values along rows of
// indices, 16 gathers, a transpose in registers (4 rounds of 16
// vector.shuffle ops) and 16 contiguous stores; threads share out the rows
// of indices. Otherwise the index values are read across the rows of
// indices (vector.gather). Either way the index check is fused; the remark
// says which and why. Values: test/Integration/Runner/
// transposed-consumers.test.
//
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --linalg-fuse-elementwise-ops --gather-codegen | FileCheck %s
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --linalg-fuse-elementwise-ops --gather-codegen=remarks=true -o /dev/null --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark: --implicit-check-not=warning:

// transpose(gather) * w, 64x128: tiles. The slices of the threads are
// strips of 16 columns of the result (16 rows of indices); in each tile the
// index values are read along rows of indices, w and the result along rows
// of theirs. (32 KiB gathered: within row-block-bytes, one pass.)
// CHECK-LABEL: func.func @tiles
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall (%{{.*}}) in (4)
// CHECK:           tensor.extract_slice {{.*}} [128, 16] [1, 1] : tensor<128x64xf32> to tensor<128x16xf32>
// CHECK:           scf.for
// CHECK-COUNT-16:    vector.transfer_read %arg1{{.*}} : tensor<64x128xi64>, vector<16xi64>
// CHECK-NOT:         vector.transfer_read %arg1
// CHECK-COUNT-64:    vector.shuffle
// CHECK-NOT:         vector.shuffle
// CHECK:             vector.transfer_read %arg2{{.*}} : tensor<128x64xf32>, vector<16xf32>
// CHECK:             arith.mulf {{.*}} : vector<16xf32>
// CHECK:             vector.transfer_write {{.*}} : vector<16xf32>, tensor<128x16xf32>
// CHECK:           memref.atomic_rmw ori
// CHECK:           tensor.parallel_insert_slice {{.*}} [128, 16] [1, 1] : tensor<128x16xf32> into tensor<128x64xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @tiles(%d: tensor<64x128xf32>, %i: tensor<64x128xi64>, %w: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<64x128xf32>, tensor<64x128xi64>
  %e = tensor.empty() : tensor<128x64xf32>
  // REMARK: codegen-transposed.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16, in the order of a transposing consumer (tiles of 16x16 along dimension 0, transposed in registers); threads; no prefetches (the loops follow a transposing consumer); index check fused
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (b, a)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<64x128xf32>, tensor<128x64xf32>) outs(%e : tensor<128x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

// -----

// transpose(gather) * w, 256x512: 512 KiB gathered, over row-block-bytes
// (256 KiB), so the tiles run in blocks of 32 rows of indices (the slices
// of the threads, 32 columns of the result), each in two passes: first
// each of its rows of indices along its length into a scratch tensor of
// [32, 512] (reads of index values, gathers and the fused check), then the
// tiles from it, 16 rows of the scratch transposed in registers, w read
// and the result written along their rows. (64x128 above, within the
// cache, is one pass.)
// CHECK-LABEL: func.func @blocks
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall (%{{.*}}) in (8)
// CHECK:           tensor.extract_slice {{.*}} [512, 32] [1, 1] : tensor<512x256xf32> to tensor<512x32xf32>
// CHECK:           %[[SCRATCH:.*]] = tensor.empty() : tensor<32x512xf32>
// CHECK:           %[[ROWS:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %[[SCRATCH]], %{{.*}} = %{{.*}}) -> (tensor<32x512xf32>, vector<16xi1>)
// CHECK:             scf.for {{.*}} step %c16
// CHECK-NOT:           %arg2
// CHECK:               vector.transfer_read %arg1{{.*}} : tensor<256x512xi64>, vector<16xi64>
// CHECK:               vector.gather %arg0
// CHECK:               arith.ori
// CHECK:               vector.transfer_write {{.*}} : vector<16xf32>, tensor<32x512xf32>
// CHECK:           scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %[[ROWS]]#1) -> (tensor<512x32xf32>, vector<16xi1>)
// CHECK:             scf.for
// CHECK-NOT:           vector.gather
// CHECK-COUNT-16:      vector.transfer_read %[[ROWS]]#0{{.*}} : tensor<32x512xf32>, vector<16xf32>
// CHECK-COUNT-64:      vector.shuffle
// CHECK-NOT:           vector.shuffle
// CHECK:               vector.transfer_read %arg2{{.*}} : tensor<512x256xf32>, vector<16xf32>
// CHECK:               arith.mulf {{.*}} : vector<16xf32>
// CHECK:               vector.transfer_write {{.*}} : vector<16xf32>, tensor<512x32xf32>
// CHECK:           memref.atomic_rmw ori
// CHECK:           tensor.parallel_insert_slice {{.*}} [512, 32] [1, 1] : tensor<512x32xf32> into tensor<512x256xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @blocks(%d: tensor<256x512xf32>, %i: tensor<256x512xi64>, %w: tensor<512x256xf32>) -> tensor<512x256xf32> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<256x512xf32>, tensor<256x512xi64>
  %e = tensor.empty() : tensor<512x256xf32>
  // REMARK: codegen-transposed.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16, in the order of a transposing consumer (tiles of 16x16 along dimension 0, transposed in registers, in blocks of 32 rows of indices gathered first); threads; no prefetches (the loops follow a transposing consumer); index check fused
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (b, a)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<256x512xf32>, tensor<512x256xf32>) outs(%e : tensor<512x256xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<512x256xf32>
  return %r : tensor<512x256xf32>
}

// -----

// Sizes that are no multiples of 16: vectors along the result's rows, the
// index values read across the rows of indices (vector.gather), a scalar
// rest; serial (few elements).
// CHECK-LABEL: func.func @across
// CHECK-NOT:     vector.shuffle
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             vector.gather %arg1{{.*}} : tensor<20x40xi64>, vector<16xindex>, vector<16xi1>, vector<16xi64> into vector<16xi64>
// CHECK:           scf.for
// CHECK:             tensor.extract %arg1
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @across(%d: tensor<30x40xf32>, %i: tensor<20x40xi64>) -> tensor<40x20xf32> {
  %g = onnx.GatherElements %d, %i axis = 0 : tensor<30x40xf32>, tensor<20x40xi64>
  %e = tensor.empty() : tensor<40x20xf32>
  // REMARK: codegen-transposed.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16, in the order of a transposing consumer (indices read across its rows: sizes that are not static multiples of 16); serial (800 elements, under parallel-threshold=8192); no prefetches (the loops follow a transposing consumer); index check fused
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (b, a)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<20x40xf32>) outs(%e : tensor<40x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<40x20xf32>
  return %r : tensor<40x20xf32>
}

// -----

// A body that uses the index value after the read of data (written by
// hand: a gather and a consumer of its index values in one generic) cannot
// be computed in two lane orders: no tiles, and says why.
// CHECK-LABEL: func.func @index_used_after
// CHECK-NOT:     vector.shuffle
// CHECK:         vector.gather %arg1
// CHECK:         return
func.func @index_used_after(%d: tensor<64x64xf32>, %i: tensor<64x64xi64>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : index
  %c63 = arith.constant 63 : index
  %e = tensor.empty() : tensor<64x64xf32>
  // REMARK: codegen-transposed.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16, in the order of a transposing consumer (indices read across its rows: the index value is used after the read of data); serial (4096 elements, under parallel-threshold=8192); no prefetches (the loops follow a transposing consumer); no index check
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (b, a)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%i : tensor<64x64xi64>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: i64, %o: f32):
    %b = linalg.index 0 : index
    %n = arith.index_cast %x : i64 to index
    %s = arith.minui %n, %c63 : index
    %v = tensor.extract %d[%b, %s] : tensor<64x64xf32>
    %f = arith.sitofp %x : i64 to f32
    %y = arith.addf %v, %f : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// An empty transposing consumer: nothing to run, left as is.
// CHECK-LABEL: func.func @empty
// CHECK-NOT:     scf.forall
// CHECK:         return
func.func @empty(%d: tensor<0x4xf32>, %i: tensor<0x4xi64>) -> tensor<4x0xf32> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<0x4xf32>, tensor<0x4xi64>
  %e = tensor.empty() : tensor<4x0xf32>
  // REMARK: codegen-transposed.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: left as is (an empty iteration space)
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (b, a)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<0x4xf32>) outs(%e : tensor<4x0xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x0xf32>
  return %r : tensor<4x0xf32>
}

// -----

// Results in two orders, as a fusion that keeps the gather's own result
// beside its transposing consumer's makes: transpose(gather) * w in the
// loops' order, the gather itself in its own. No loop order writes both
// along their rows: one gather per order (SplitResultOrders.h), the first
// in tiles (with the fused check), the second a plain gather along the
// rows of indices (w is not read there). Values: test/Integration/Runner/
// transposed-consumers.test.
// CHECK-LABEL: func.func @mixed
// CHECK-NOT:     linalg.generic
// CHECK:         %[[R0:.*]] = scf.forall (%{{.*}}) in (4) shared_outs({{.*}}) -> (tensor<128x64xf32>)
// CHECK:           vector.shuffle
// CHECK:           vector.transfer_read %arg2
// CHECK:         %[[R1:.*]] = scf.forall (%[[ROW:.*]]) in (64) shared_outs({{.*}}) -> (tensor<64x128xf32>)
// CHECK-NOT:       %arg2
// CHECK:           vector.transfer_read %arg1[%[[ROW]], %{{.*}}]{{.*}} : tensor<64x128xi64>, vector<16xi64>
// CHECK-NOT:       %arg2
// CHECK:         return %[[R0]], %[[R1]] : tensor<128x64xf32>, tensor<64x128xf32>
func.func @mixed(%d: tensor<64x128xf32>, %i: tensor<64x128xi64>, %w: tensor<128x64xf32>) -> (tensor<128x64xf32>, tensor<64x128xf32>) {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<64x128xf32>, tensor<64x128xi64>
  %e = tensor.empty() : tensor<128x64xf32>
  %e2 = tensor.empty() : tensor<64x128xf32>
  // REMARK: codegen-transposed.mlir:[[# @LINE + 4]]:10: remark: gather-codegen: 2 results in 2 orders: one gather per order, its loops in that order
  // REMARK: codegen-transposed.mlir:[[# @LINE + 3]]:10: remark: gather-codegen: vectors of 16, in the order of a transposing consumer (tiles of 16x16 along dimension 0, transposed in registers); threads; no prefetches (the loops follow a transposing consumer); index check fused
  // REMARK: codegen-transposed.mlir:[[# @LINE + 2]]:10: remark: gather-codegen: vectors of 16; threads; prefetches 4096 B ahead; no index check
  // REMARK-NOT: not fused
  %r:2 = linalg.generic {indexing_maps = [affine_map<(a, b) -> (b, a)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (b, a)>], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<64x128xf32>, tensor<128x64xf32>) outs(%e, %e2 : tensor<128x64xf32>, tensor<64x128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32, %o2: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m, %x : f32, f32
  } -> (tensor<128x64xf32>, tensor<64x128xf32>)
  return %r#0, %r#1 : tensor<128x64xf32>, tensor<64x128xf32>
}

// -----

// The split leaves alone a body that reads an output (and says so); the
// plan then has nothing to plan.
func.func @reads_output(%d: tensor<16x16xf32>, %i: tensor<16x16xi64>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<16x16xf32>, tensor<16x16xi64>
  %e = tensor.empty() : tensor<16x16xf32>
  // REMARK: codegen-transposed.mlir:[[# @LINE + 1]]:10: remark: gather-codegen: results in other orders than the loops', left as is: its body reads an output
  %r:2 = linalg.generic {indexing_maps = [affine_map<(a, b) -> (b, a)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (b, a)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<16x16xf32>) outs(%e, %e : tensor<16x16xf32>, tensor<16x16xf32>) {
  ^bb0(%x: f32, %o: f32, %o2: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s, %x : f32, f32
  } -> (tensor<16x16xf32>, tensor<16x16xf32>)
  return %r#0, %r#1 : tensor<16x16xf32>, tensor<16x16xf32>
}
