// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark: --implicit-check-not=warning:
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="remarks=true vector-size=0 parallel=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCALAR --implicit-check-not=remark: --implicit-check-not=warning:
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="remarks=true" 2>/dev/null | FileCheck %s
// Without remarks=true (the default) the pass says nothing.
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen -o /dev/null 2>&1 | count 0

// The plan of gather-codegen for each gather, as a remark at the gather
// (remarks=true): vectors (or why scalar), groups of short rows, threads
// (or why serial), prefetches (or why none), and the fused index check.

// Vectorized, threaded, prefetching, with the fused check.
// SCALAR: codegen-plan.mlir:[[# @LINE + 3]]:8: remark: gather-codegen: scalar (vector-size=0); serial (parallel=false); prefetches 4096 B ahead; index check fused
func.func @large(%d: tensor<256x256xf32>, %i: tensor<256x256xi64>) -> tensor<256x256xf32> {
  // REMARK: codegen-plan.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; prefetches 4096 B ahead; index check fused
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xf32>, tensor<256x256xi64>
  return %r : tensor<256x256xf32>
}

// -----

// Rows of 10 in groups of 8 rows (5 vectors of 16); no prefetches there.
// SCALAR: codegen-plan.mlir:[[# @LINE + 3]]:8: remark: gather-codegen: scalar (vector-size=0); serial (parallel=false); prefetches 4096 B ahead; index check fused
func.func @short_rows(%d: tensor<4096x1000xf32>, %i: tensor<4096x10xi64>) -> tensor<4096x10xf32> {
  // REMARK: codegen-plan.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16, rows of 10 in groups of 8 (5 vectors); threads; no prefetches (rows in groups); index check fused
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<4096x1000xf32>, tensor<4096x10xi64>
  return %r : tensor<4096x10xf32>
}

// -----

// Dynamic shapes: threads chosen at run time; axis 0 gets no prefetches.
// SCALAR: codegen-plan.mlir:[[# @LINE + 3]]:8: remark: gather-codegen: scalar (vector-size=0); serial (parallel=false); no prefetches (not along the innermost axis); index check fused
func.func @dynamic_axis0(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  // REMARK: codegen-plan.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads from 8192 elements (decided at run time); no prefetches (not along the innermost axis); index check fused
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<?x?xf32>, tensor<?x?xi32>
  return %r : tensor<?x?xf32>
}

// -----

// Small: serial, and no prefetches under 32 KiB. Too few rows for a group.
// SCALAR: codegen-plan.mlir:[[# @LINE + 3]]:8: remark: gather-codegen: scalar (vector-size=0); serial (parallel=false); no prefetches (rows of data under 64 B); index check fused
func.func @tiny(%d: tensor<2x3xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  // REMARK: codegen-plan.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: scalar (rows of 3, shorter than a vector, not in groups: 2 rows, fewer than a group of 16); serial (6 elements, under parallel-threshold=8192); no prefetches (rows of data under 64 B); index check fused
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<2x3xf32>, tensor<2x3xi64>
  return %r : tensor<2x3xf32>
}

// -----

// Elements that are no vector elements stay scalar.
// SCALAR: codegen-plan.mlir:[[# @LINE + 3]]:8: remark: gather-codegen: scalar (vector-size=0); serial (parallel=false); no prefetches (elements that are not whole-byte integers or floats); index check fused
func.func @booleans(%d: tensor<256x256xi1>, %i: tensor<256x256xi64>) -> tensor<256x256xi1> {
  // REMARK: codegen-plan.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: scalar (elements that are not whole-byte integers or floats); threads; no prefetches (elements that are not whole-byte integers or floats); index check fused
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xi1>, tensor<256x256xi64>
  return %r : tensor<256x256xi1>
}

// -----

// Index values known at compile time: no index check. With nothing else to
// do (SCALAR), the generic is left to convert-linalg-to-loops.
// SCALAR: codegen-plan.mlir:[[# @LINE + 4]]:8: remark: gather-codegen: left to convert-linalg-to-loops: scalar (vector-size=0); serial (parallel=false); no prefetches (rows of data under 64 B); no index check
func.func @constant_indices(%d: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %i = arith.constant dense<[[0, 1, 2], [2, 1, 0]]> : tensor<2x3xi64>
  // REMARK: codegen-plan.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: left to convert-linalg-to-loops: scalar (rows of 3, shorter than a vector, not in groups: 2 rows, fewer than a group of 16); serial (6 elements, under parallel-threshold=8192); no prefetches (rows of data under 64 B); no index check
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<2x3xf32>, tensor<2x3xi64>
  return %r : tensor<2x3xf32>
}

// -----

// Unranked data (the rank learned through a cast): its buffer may be a
// strided view cast to memref<*xf32>, so scalar loops (vector.gather
// linearizes its offsets with a contiguous row-major shape) and no
// prefetches.
// SCALAR: codegen-plan.mlir:[[# @LINE + 6]]:8: remark: gather-codegen: scalar (vector-size=0); serial (parallel=false); no prefetches (data is not surely contiguous); index check fused
// CHECK-LABEL: func.func @unranked_data
// CHECK:         tensor.cast %{{.*}} : tensor<*xf32> to tensor<?x?xf32>
// CHECK-NOT:     vector.gather
func.func @unranked_data(%d: tensor<*xf32>, %i: tensor<256x256xi64>) -> tensor<256x256xf32> {
  // REMARK: codegen-plan.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: scalar (data is not surely contiguous); threads; no prefetches (data is not surely contiguous); index check fused
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<*xf32>, tensor<256x256xi64>
  return %r : tensor<256x256xf32>
}

// -----

// Unranked indices: vectors (rows read one by one), but no prefetches and
// no groups of short rows, which read `indices` as one contiguous run.
// SCALAR: codegen-plan.mlir:[[# @LINE + 5]]:8: remark: gather-codegen: left to convert-linalg-to-loops: scalar (vector-size=0); serial (parallel=false); no prefetches (indices is not surely contiguous); no index check
// CHECK-LABEL: func.func @unranked_indices
// CHECK:         vector.gather %arg0
func.func @unranked_indices(%d: tensor<256x256xf32>, %i: tensor<*xi64>) -> tensor<256x256xf32> {
  // REMARK: codegen-plan.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; no prefetches (indices is not surely contiguous); no index check
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xf32>, tensor<*xi64> -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// SCALAR: codegen-plan.mlir:[[# @LINE + 4]]:8: remark: gather-codegen: left to convert-linalg-to-loops: scalar (vector-size=0); serial (parallel=false); no prefetches (indices is not surely contiguous); no index check
// CHECK-LABEL: func.func @unranked_indices_short_rows
func.func @unranked_indices_short_rows(%d: tensor<4096x1000xf32>, %i: tensor<*xi64>) -> tensor<4096x10xf32> {
  // REMARK: codegen-plan.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: scalar (rows of 10, shorter than a vector, not in groups: indices is not surely contiguous); threads; no prefetches (indices is not surely contiguous); no index check
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<4096x1000xf32>, tensor<*xi64> -> tensor<4096x10xf32>
  return %r : tensor<4096x10xf32>
}

// -----

// An empty iteration space is left as it is.
// SCALAR: codegen-plan.mlir:[[# @LINE + 5]]:8: remark: gather-codegen: left as is (an empty iteration space)
// CHECK-LABEL: func.func @empty
// CHECK:         linalg.generic
func.func @empty(%d: tensor<2x3xf32>, %i: tensor<0x3xi64>) -> tensor<0x3xf32> {
  // REMARK: codegen-plan.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: left as is (an empty iteration space)
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<2x3xf32>, tensor<0x3xi64>
  return %r : tensor<0x3xf32>
}

// -----

// Not a gather (no tensor.extract): no plan, no remark (the implicit
// check-nots), left alone.
// CHECK-LABEL: func.func @not_a_gather
// CHECK:         linalg.generic
// CHECK-NOT:     scf.for
func.func @not_a_gather(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %e = tensor.empty() : tensor<256x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
