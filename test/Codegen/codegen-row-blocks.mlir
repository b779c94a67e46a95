// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark: --implicit-check-not=warning:
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="remarks=true row-block-bytes=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen --canonicalize --cse 2>/dev/null | FileCheck %s
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="parallel=false vector-size=0" --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefix=SERIAL
// RUN: not gather-opt %s --split-input-file --convert-onnx-to-linalg --gather-codegen="row-block-bytes=-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// Gathers along an outer axis whose rows read more than row-block-bytes
// (default 256 KiB) of `data` from one position of the axis to the next run
// their rows in blocks of the dimension after the axis (RowBlocks,
// docs/CodeShape.md "Gathers along an outer axis"): each block visits every
// position of the axis before the next one.

// BAD: error: gather-codegen: row-block-bytes must be >= 0 (bytes; 0: rows in row-major order), not -1
// OFF-NOT: in blocks

// 8 x 256 f32 per position of dimension 1 (8 KiB): blocks of 32 (256 KiB)
// of its 64. One loop (threads: a 1-D scf.forall) over the 512 rows in the
// order [block of dimension 1, axis, position in the block]: row r is
// (axis (r / 32) % 8, dimension 1 (r / 256) * 32 + r % 32).
// CHECK-LABEL: func.func @blocks
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: scf.forall (%[[ROW:.*]]) in (512)
// CHECK: %[[POS:.*]] = arith.remui %[[ROW]], %[[C32]] : index
// CHECK: %[[REST:.*]] = arith.divui %[[ROW]], %[[C32]] : index
// CHECK: %[[AXIS:.*]] = arith.remui %[[REST]], %[[C8]] : index
// CHECK: %[[BLOCK:.*]] = arith.divui %[[REST]], %[[C8]] : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[BLOCK]], %[[C32]] : index
// CHECK: %[[DIM1:.*]] = arith.addi %[[FIRST]], %[[POS]] : index
// CHECK: tensor.extract_slice %{{.*}}[%[[AXIS]], %[[DIM1]], 0] [1, 1, 256] [1, 1, 1]
// SERIAL-LABEL: func.func @blocks
// SERIAL: scf.for %[[ROW:.*]] = %{{.*}} to %c512 step %c1
// SERIAL: arith.remui %[[ROW]], %c32 : index
func.func @blocks(%d: tensor<8x64x256xf32>, %i: tensor<8x64x256xi64>) -> tensor<8x64x256xf32> {
  // REMARK: codegen-row-blocks.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16, rows in blocks of 32 along dimension 1 (256 KiB of data each); threads; no prefetches (not along the innermost axis); index check fused
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<8x64x256xf32>, tensor<8x64x256xi64>
  return %r : tensor<8x64x256xf32>
}

// -----

// Workload c_axis0 (64 x 256 f32 = 64 KiB per position): blocks of 4.
func.func @c_axis0(%d: tensor<64x128x256xf32>, %i: tensor<64x128x256xi64>) -> tensor<64x128x256xf32> {
  // REMARK: codegen-row-blocks.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16, rows in blocks of 4 along dimension 1 (256 KiB of data each); threads; no prefetches (not along the innermost axis); index check fused
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<64x128x256xf32>, tensor<64x128x256xi64>
  return %r : tensor<64x128x256xf32>
}

// -----

// Rank 4, axis 1 (written -3): dimension 2 in blocks; dimension 0 stays
// outermost. 32 positions of 8 KiB fit, but 32 does not divide 48: blocks
// of 24, its largest divisor up to 32.
func.func @rank4(%d: tensor<2x8x48x256xf32>, %i: tensor<2x8x48x256xi32>) -> tensor<2x8x48x256xf32> {
  // REMARK: codegen-row-blocks.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16, rows in blocks of 24 along dimension 2 (192 KiB of data each); threads; no prefetches (not along the innermost axis); index check fused
  %r = onnx.GatherElements %d, %i axis = -3 : tensor<2x8x48x256xf32>, tensor<2x8x48x256xi32>
  return %r : tensor<2x8x48x256xf32>
}

// -----

// Complex and i1 elements (their bytes: 8 and 1).
func.func @complex(%d: tensor<8x64x256xcomplex<f32>>, %i: tensor<8x64x256xi64>) -> tensor<8x64x256xcomplex<f32>> {
  // REMARK: codegen-row-blocks.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: scalar ({{.*}}), rows in blocks of 16 along dimension 1 (256 KiB of data each); threads; no prefetches ({{.*}}); index check fused
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<8x64x256xcomplex<f32>>, tensor<8x64x256xi64>
  return %r : tensor<8x64x256xcomplex<f32>>
}
func.func @bool(%d: tensor<64x64x256xi1>, %i: tensor<64x64x256xi64>) -> tensor<64x64x256xi1> {
  // REMARK: codegen-row-blocks.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: {{.*}}, rows in blocks of 16 along dimension 1 (256 KiB of data each); threads; no prefetches ({{.*}}); index check fused
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<64x64x256xi1>, tensor<64x64x256xi64>
  return %r : tensor<64x64x256xi1>
}

// -----

// No blocks: rank 2 (the axis is one of the two innermost dimensions), the
// innermost axis, data that fits (16 x 8 KiB = 128 KiB), a position wider
// than half the budget (64 x 4096 f32 = 1 MiB), dynamic shapes.
// CHECK-LABEL: func.func @rank2
// CHECK: scf.forall (%[[R:.*]]) in (1024)
// CHECK: tensor.extract_slice %{{.*}}[%[[R]], 0] [1, 1024] [1, 1]
func.func @rank2(%d: tensor<1024x1024xf32>, %i: tensor<1024x1024xi64>) -> tensor<1024x1024xf32> {
  // REMARK: codegen-row-blocks.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; no prefetches (not along the innermost axis); index check fused
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<1024x1024xf32>, tensor<1024x1024xi64>
  return %r : tensor<1024x1024xf32>
}
func.func @innermost(%d: tensor<64x128x256xf32>, %i: tensor<64x128x256xi64>) -> tensor<64x128x256xf32> {
  // REMARK: codegen-row-blocks.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; prefetches 4096 B ahead; index check fused
  %r = onnx.GatherElements %d, %i axis = 2 : tensor<64x128x256xf32>, tensor<64x128x256xi64>
  return %r : tensor<64x128x256xf32>
}
func.func @fits(%d: tensor<8x16x256xf32>, %i: tensor<8x16x256xi64>) -> tensor<8x16x256xf32> {
  // REMARK: codegen-row-blocks.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; no prefetches (not along the innermost axis); index check fused
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<8x16x256xf32>, tensor<8x16x256xi64>
  return %r : tensor<8x16x256xf32>
}
func.func @wide(%d: tensor<64x4x4096xf32>, %i: tensor<64x4x4096xi64>) -> tensor<64x4x4096xf32> {
  // REMARK: codegen-row-blocks.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; no prefetches (not along the innermost axis); index check fused
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<64x4x4096xf32>, tensor<64x4x4096xi64>
  return %r : tensor<64x4x4096xf32>
}
func.func @dynamic(%d: tensor<?x?x?xf32>, %i: tensor<?x?x?xi64>) -> tensor<?x?x?xf32> {
  // REMARK: codegen-row-blocks.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads from 8192 elements (decided at run time); no prefetches (not along the innermost axis); index check fused
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<?x?x?xf32>, tensor<?x?x?xi64>
  return %r : tensor<?x?x?xf32>
}
