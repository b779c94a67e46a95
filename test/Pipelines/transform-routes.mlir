// IR that upstream passes tiled or vectorized before onnx-to-llvm (the
// transform-dialect schedules in Inputs/transform-schedules.mlir, applied
// after convert-onnx-to-linalg) is lowered to the LLVM dialect: scf.forall
// without a thread mapping, vector.transfer_read/write, vector.gather,
// ub.poison, vector.multi_reduction, vector.contract and vector.mask around
// any of them (tiles of 3x5 on a 4x8 gather, vector sizes 4x4x8 on a 4x3x8
// matmul). The values these routes compute:
// test/Integration/Runner/transform-routes.mlir.
//
// DEFINE: %{route} = convert-onnx-to-linalg, transform-preload-library{transform-library-paths=%S/Inputs/transform-schedules.mlir}, transform-interpreter
// DEFINE: %{llvm-only} = --implicit-check-not='{{ (onnx|linalg|tensor|bufferization|memref|scf|cf|affine|arith|vector|ub)\.}}' --implicit-check-not=func.func --implicit-check-not=unrealized_conversion_cast
//
// RUN: gather-opt %s --pass-pipeline="builtin.module(%{route}{entry-point=tile_3x5}, onnx-to-llvm)" | FileCheck %s --check-prefix=LLVM %{llvm-only}
// RUN: gather-opt %s --pass-pipeline="builtin.module(%{route}{entry-point=tile_3x5}, onnx-to-llvm{num-threads=1})" | FileCheck %s --check-prefix=LLVM %{llvm-only}
// RUN: gather-opt %s --pass-pipeline="builtin.module(%{route}{entry-point=vectorize_2x4}, onnx-to-llvm)" | FileCheck %s --check-prefix=LLVM %{llvm-only}
// RUN: gather-opt %s --pass-pipeline="builtin.module(%{route}{entry-point=vectorize_3x5}, onnx-to-llvm{gather-form=hardware})" | FileCheck %s --check-prefixes=LLVM,LLVM-HW %{llvm-only}
// RUN: gather-opt %s --pass-pipeline="builtin.module(%{route}{entry-point=vectorize_3x5}, onnx-to-llvm{gather-form=scalarized num-threads=1})" | FileCheck %s --check-prefix=LLVM %{llvm-only}
// RUN: gather-opt %s --pass-pipeline="builtin.module(%{route}{entry-point=matmul_reduction}, onnx-to-llvm)" | FileCheck %s --check-prefix=LLVM %{llvm-only}
// RUN: gather-opt %s --pass-pipeline="builtin.module(%{route}{entry-point=matmul_contract}, onnx-to-llvm)" | FileCheck %s --check-prefix=LLVM %{llvm-only}
// RUN: gather-opt %s --pass-pipeline="builtin.module(%{route}{entry-point=matmul_reduction_masked}, onnx-to-llvm)" | FileCheck %s --check-prefix=LLVM %{llvm-only}
// RUN: gather-opt %s --pass-pipeline="builtin.module(%{route}{entry-point=matmul_contract_masked}, onnx-to-llvm)" | FileCheck %s --check-prefix=LLVM %{llvm-only}
// RUN: gather-opt %s --pass-pipeline="builtin.module(%{route}{entry-point=all_masked}, onnx-to-llvm{gather-form=hardware})" | FileCheck %s --check-prefixes=LLVM,LLVM-HW %{llvm-only}
// LLVM:        llvm.func @kernel(
// LLVM-HW:       llvm.intr.masked.gather
// LLVM:          llvm.return
//
// After the codegen stage, the vector.mask ops of the 3x5 tiles are folded
// into the masks of the ops they wrapped: the tile's mask disables the
// lanes past the shape, in the read of the indices, the gather (whose
// padded index lanes are never loaded) and the write.
// RUN: gather-opt %s --pass-pipeline="builtin.module(%{route}{entry-point=vectorize_3x5}, gather-pipeline-codegen{gather-form=hardware})" | FileCheck %s --check-prefix=HW
// RUN: gather-opt %s --pass-pipeline="builtin.module(%{route}{entry-point=vectorize_3x5}, gather-pipeline-codegen{gather-form=scalarized})" | FileCheck %s --check-prefix=SC
// HW-LABEL: func.func @kernel
// HW-NOT:     vector.mask
// HW:         scf.forall (%{{.*}}, %{{.*}}) in (2, 2)
// HW:           %[[ROWS:.*]] = affine.min
// HW:           %[[COLS:.*]] = affine.min
// HW:           %[[MASK:.*]] = vector.create_mask %[[ROWS]], %[[COLS]] : vector<3x5xi1>
// HW:           vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %[[MASK]] {{.*}} : tensor<?x?xi64>, vector<3x5xi64>
// HW:           vector.gather %{{.*}}[%{{.*}}, %{{.*}}] [%{{.*}}], %[[MASK]], %{{.*}} : tensor<4x8xf32>, vector<3x5xindex>, vector<3x5xi1>, vector<3x5xf32> into vector<3x5xf32>
// HW:           vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}], %[[MASK]] {{.*}} : vector<3x5xf32>, tensor<?x?xf32>
// HW-NOT:     vector.mask
// HW:         return
// Scalarized: one load per lane, under its bit of the mask.
// SC-LABEL: func.func @kernel
// SC-NOT:     vector.mask
// SC-NOT:     vector.gather
// SC:         %[[MASK:.*]] = vector.create_mask {{.*}} : vector<3x5xi1>
// SC-COUNT-15: %[[LANE:.*]] = vector.extract %[[MASK]][{{[0-2]}}, {{[0-4]}}] : i1 from vector<3x5xi1>
// SC-NEXT:      vector.extract
// SC-NEXT:      scf.if %[[LANE]] -> (vector<5xf32>) {
// SC-NEXT:        tensor.extract %{{.*}} : tensor<4x8xf32>
// SC-NOT:     vector.gather
// SC-NOT:     vector.mask
// SC:         return

func.func @kernel(%d: tensor<4x8xf32>, %i: tensor<4x8xi64>, %w: tensor<8x3xf32>) -> (tensor<4x8xf32>, tensor<4x3xf32>) {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<4x8xf32>, tensor<4x8xi64>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = linalg.matmul ins(%g, %w : tensor<4x8xf32>, tensor<8x3xf32>) outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %g, %m : tensor<4x8xf32>, tensor<4x3xf32>
}
