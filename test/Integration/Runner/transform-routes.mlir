// REQUIRES: jit
// IR that upstream passes tiled or vectorized before onnx-to-llvm (the
// transform-dialect schedules in test/Pipelines/Inputs/transform-schedules.mlir,
// applied after convert-onnx-to-linalg) computes what the scalar pipeline
// computes (the oracle, `gather-form=scalar num-threads=1`, without a
// schedule), and the values computed by hand below: tiles of 2x4 and 3x5 of
// a 4x8 gather (3x5 does not divide: partial tiles, and masked vectors when
// vectorized), a vectorized linalg.matmul after it (vector.multi_reduction,
// vector.contract, masked or not), each under hardware gathers, scalarized
// vectors, one thread and two. The IR of these routes:
// test/Pipelines/transform-routes.mlir.
//
// DEFINE: %{route} = convert-onnx-to-linalg, transform-preload-library{transform-library-paths=%S/../../Pipelines/Inputs/transform-schedules.mlir}, transform-interpreter
//
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="gather-form=scalar num-threads=1" > %t.oracle
// RUN: FileCheck %s < %t.oracle
//
// Tiles (scalar loops on tensor slices in an unmapped scf.forall).
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=tile_2x4}, onnx-to-llvm)" | diff %t.oracle -
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=tile_2x4}, onnx-to-llvm{num-threads=1})" | diff %t.oracle -
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=tile_3x5}, onnx-to-llvm)" | diff %t.oracle -
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=tile_3x5}, onnx-to-llvm{num-threads=1})" | diff %t.oracle -
//
// Vector tiles: vector.gather, transfers, ub.poison; masked for 3x5.
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=vectorize_2x4}, onnx-to-llvm{gather-form=hardware})" | diff %t.oracle -
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=vectorize_2x4}, onnx-to-llvm{gather-form=scalarized num-threads=1})" | diff %t.oracle -
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=vectorize_3x5}, onnx-to-llvm{gather-form=hardware})" | diff %t.oracle -
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=vectorize_3x5}, onnx-to-llvm{gather-form=hardware num-threads=1})" | diff %t.oracle -
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=vectorize_3x5}, onnx-to-llvm{gather-form=scalarized num-threads=2})" | diff %t.oracle -
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=vectorize_3x5}, onnx-to-llvm{gather-form=scalarized num-threads=1})" | diff %t.oracle -
//
// The matmul after the gather, vectorized.
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=matmul_reduction}, onnx-to-llvm)" | diff %t.oracle -
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=matmul_contract}, onnx-to-llvm{num-threads=1})" | diff %t.oracle -
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=matmul_reduction_masked}, onnx-to-llvm{num-threads=1})" | diff %t.oracle -
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=matmul_contract_masked}, onnx-to-llvm)" | diff %t.oracle -
//
// Both, in masked vector tiles.
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=all_masked}, onnx-to-llvm{gather-form=hardware num-threads=2})" | diff %t.oracle -
// RUN: gather-runner %s -e main --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=all_masked}, onnx-to-llvm{gather-form=scalarized num-threads=1})" | diff %t.oracle -
//
// An index out of range is still reported (the check is not tiled).
// RUN: not gather-runner %s -e bad --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=all_masked}, onnx-to-llvm)" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gather-runner %s -e bad --entry-point-result=void --pass-pipeline="builtin.module(%{route}{entry-point=vectorize_3x5}, onnx-to-llvm{gather-form=scalarized num-threads=1})" 2>&1 | FileCheck %s --check-prefix=BAD

// data[r][c] = 10 r + c, so the gather gives 10 r + (the index, plus 8 if
// negative); the matmul sums those rows times w's columns (1..8; 0 1 0 1
// ...; -1 0 1 0 ...), e.g. row 0: [0,7,7,3,0,2,5,5] . [1..8] = 134.
// CHECK:      result 0: tensor<4x8xf32> = {{\[\[}}0, 7, 7, 3, 0, 2, 5, 5], [11, 11, 16, 16, 14, 10, 13, 17], [27, 26, 25, 24, 23, 22, 21, 20], [37, 36, 35, 34, 33, 32, 31, 30]]
// CHECK-NEXT: result 1: tensor<4x3xf32> = {{\[\[}}134, 17, 12], [502, 54, 4], [804, 92, -4], [1164, 132, -4]]

// BAD: 'onnx.GatherElements' op operand 'indices' holds value 8 at position [2, 4], outside the valid range [-8, 7] for axis 1 of size 8
// BAD-NOT: holds value

func.func @kernel(%d: tensor<4x8xf32>, %i: tensor<4x8xi64>, %w: tensor<8x3xf32>) -> (tensor<4x8xf32>, tensor<4x3xf32>) {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<4x8xf32>, tensor<4x8xi64>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = linalg.matmul ins(%g, %w : tensor<4x8xf32>, tensor<8x3xf32>) outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %g, %m : tensor<4x8xf32>, tensor<4x3xf32>
}

func.func @main() -> (tensor<4x8xf32>, tensor<4x3xf32>) {
  %d = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0], [20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0], [30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0]]> : tensor<4x8xf32>
  %i = arith.constant dense<[[0, 7, -1, 3, -8, 2, 5, -3], [1, 1, -2, 6, 4, 0, -5, 7], [7, 6, 5, 4, 3, 2, 1, 0], [-1, -2, -3, -4, -5, -6, -7, -8]]> : tensor<4x8xi64>
  %w = arith.constant dense<[[1.0, 0.0, -1.0], [2.0, 1.0, 0.0], [3.0, 0.0, 1.0], [4.0, 1.0, 0.0], [5.0, 0.0, -1.0], [6.0, 1.0, 0.0], [7.0, 0.0, 1.0], [8.0, 1.0, 0.0]]> : tensor<8x3xf32>
  %g, %m = func.call @kernel(%d, %i, %w) : (tensor<4x8xf32>, tensor<4x8xi64>, tensor<8x3xf32>) -> (tensor<4x8xf32>, tensor<4x3xf32>)
  return %g, %m : tensor<4x8xf32>, tensor<4x3xf32>
}

func.func @bad() -> (tensor<4x8xf32>, tensor<4x3xf32>) {
  %d = arith.constant dense<1.0> : tensor<4x8xf32>
  %i = arith.constant dense<[[0, 7, -1, 3, -8, 2, 5, -3], [1, 1, -2, 6, 4, 0, -5, 7], [7, 6, 5, 4, 8, 2, 1, 0], [-1, -2, -3, -4, -5, -6, -7, -8]]> : tensor<4x8xi64>
  %w = arith.constant dense<1.0> : tensor<8x3xf32>
  %g, %m = func.call @kernel(%d, %i, %w) : (tensor<4x8xf32>, tensor<4x8xi64>, tensor<8x3xf32>) -> (tensor<4x8xf32>, tensor<4x3xf32>)
  return %g, %m : tensor<4x8xf32>, tensor<4x3xf32>
}
