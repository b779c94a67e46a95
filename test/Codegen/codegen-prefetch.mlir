// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen --canonicalize --cse --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="vector-size=0 parallel=false" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=SCALAR
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="prefetch-distance=8192" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=FAR
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="prefetch-distance=0" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=OFF
// RUN: not gather-opt %s --gather-codegen="prefetch-distance=-1" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gather-opt %s --onnx-to-llvm="prefetch-distance=-64" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: gather-codegen: prefetch-distance must be >= 0 (bytes; 0: no prefetches)
// BAD-NOT: error

// OFF-NOT: bufferization.to_buffer
// OFF-NOT: memref.prefetch

// Rows of 4 KiB along the gathered (innermost) axis, 64 x 1024 f32 and
// i64 indices: each vector iteration (row %ROW, element %J) prefetches the
// data line 4096 bytes (one row, 1024 elements) ahead and the two lines of
// index values (16 x 8 bytes) 4096 bytes (512 elements) ahead, on the
// buffers viewed as 1-D, clamped to their last element (65535).
// CHECK-LABEL: func.func @rows_4k
// CHECK-DAG:     %[[LAST:.*]] = arith.constant 65535 : index
// CHECK-DAG:     %[[D:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<64x1024xf32> to memref<64x1024xf32>
// CHECK-DAG:     %[[DATA:.*]] = memref.collapse_shape %[[D]] {{\[\[}}0, 1]] : memref<64x1024xf32> into memref<65536xf32>
// CHECK-DAG:     %[[I:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<64x1024xi64> to memref<64x1024xi64>
// CHECK-DAG:     %[[IDX:.*]] = memref.collapse_shape %[[I]] {{\[\[}}0, 1]] : memref<64x1024xi64> into memref<65536xi64>
// CHECK:         scf.forall (%[[ROW:.*]]) in (64)
// CHECK:           scf.for %[[J:.*]] = %c0 to %c1024 step %c16
// CHECK:             %[[START:.*]] = arith.muli %[[ROW]], %c1024 : index
// CHECK:             %[[HERE:.*]] = arith.addi %[[J]], %[[START]] : index
// CHECK:             %[[AHEAD:.*]] = arith.addi %[[HERE]], %c1024 : index
// CHECK:             %[[AT:.*]] = arith.minsi %[[AHEAD]], %[[LAST]] : index
// CHECK:             memref.prefetch %[[DATA]][%[[AT]]], read, locality<3>, data : memref<65536xf32>
// CHECK:             %[[IAHEAD:.*]] = arith.addi %[[HERE]], %c512 : index
// CHECK:             %[[IAT:.*]] = arith.minsi %[[IAHEAD]], %[[LAST]] : index
// CHECK:             memref.prefetch %[[IDX]][%[[IAT]]], read, locality<3>, data : memref<65536xi64>
// CHECK:             %[[IAHEAD2:.*]] = arith.addi %[[HERE]], %c520 : index
// CHECK:             %[[IAT2:.*]] = arith.minsi %[[IAHEAD2]], %[[LAST]] : index
// CHECK:             memref.prefetch %[[IDX]][%[[IAT2]]], read, locality<3>, data : memref<65536xi64>
// CHECK-NOT:         memref.prefetch
// CHECK:             vector.gather
// CHECK-NOT:         memref.prefetch
// CHECK:             scf.yield
// With 8192 bytes: two rows (2048 elements) of data, 1024 index values.
// FAR-LABEL: func.func @rows_4k
// FAR:         scf.for
// FAR:           arith.addi %{{.*}}, %c2048 : index
// FAR:           memref.prefetch {{.*}} : memref<65536xf32>
// FAR:           arith.addi %{{.*}}, %c1024 : index
// FAR:           memref.prefetch {{.*}} : memref<65536xi64>
// The scalar form: one scf.if per 8 elements (a line of i64 index values)
// prefetches the 8 x 4 bytes of data (one line) and the index line.
// SCALAR-LABEL: func.func @rows_4k
// SCALAR:         scf.for %[[J:.*]] = %c0 to %c1024 step %c1
// SCALAR:           %[[REM:.*]] = arith.remui %[[J]], %c8 : index
// SCALAR:           %[[FIRST:.*]] = arith.cmpi eq, %[[REM]], %c0 : index
// SCALAR:           scf.if %[[FIRST]] {
// SCALAR:             memref.prefetch {{.*}} : memref<65536xf32>
// SCALAR-NEXT:        arith.addi
// SCALAR-NEXT:        arith.minsi
// SCALAR-NEXT:        memref.prefetch {{.*}} : memref<65536xi64>
// SCALAR-NEXT:      }
// SCALAR:           tensor.extract
func.func @rows_4k(%d: tensor<64x1024xf32>, %i: tensor<64x1024xi64>) -> tensor<64x1024xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<64x1024xf32>, tensor<64x1024xi64>
  return %0 : tensor<64x1024xf32>
}

// -----

// Rank 3, rows of 1 KiB (256 f32), i32 indices: the data prefetch goes 4
// rows (1024 elements) ahead; one line of 16 i32 index values, 1024 values
// ahead (the same position: CSE shares it). The row's position in the 1-D
// views is linearized from both outer coordinates.
// CHECK-LABEL: func.func @rows_1k_rank3
// CHECK:         scf.forall (%[[A:.*]], %[[B:.*]]) in (4, 16)
// CHECK:           scf.for
// CHECK:             arith.muli %[[A]], %c4096 : index
// CHECK:             arith.muli %[[B]], %c256 : index
// CHECK:             %[[AHEAD:.*]] = arith.addi %{{.*}}, %c1024 : index
// CHECK:             %[[AT:.*]] = arith.minsi %[[AHEAD]], %c16383 : index
// CHECK:             memref.prefetch %{{.*}}[%[[AT]]], read, locality<3>, data : memref<16384xf32>
// CHECK-NEXT:        memref.prefetch %{{.*}}[%[[AT]]], read, locality<3>, data : memref<16384xi32>
// CHECK-NOT:         memref.prefetch
// CHECK:             vector.gather
// FAR-LABEL: func.func @rows_1k_rank3
// FAR:         arith.addi %{{.*}}, %c2048 : index
// FAR:         memref.prefetch {{.*}} : memref<16384xf32>
// FAR-NEXT:    memref.prefetch {{.*}} : memref<16384xi32>
// SCALAR-LABEL: func.func @rows_1k_rank3
// SCALAR:         arith.remui %{{.*}}, %c16 : index
func.func @rows_1k_rank3(%d: tensor<4x16x256xf32>, %i: tensor<4x16x256xi32>) -> tensor<4x16x256xf32> {
  %0 = onnx.GatherElements %d, %i axis = 2 : tensor<4x16x256xf32>, tensor<4x16x256xi32>
  return %0 : tensor<4x16x256xf32>
}

// -----

// Dynamic sizes: the distance in rows is computed at run time
// (ceil(1024 elements / row length) rows), in both the threaded and the
// serial loops.
// CHECK-LABEL: func.func @dynamic
// CHECK:         bufferization.to_buffer %{{.*}} read_only : tensor<?x?xf32> to memref<?x?xf32>
// CHECK:         arith.ceildivui %c1024, %{{.*}} : index
// CHECK:         scf.if
// CHECK:           scf.forall
// CHECK:             memref.prefetch {{.*}} : memref<?xf32>
// CHECK:         } else {
// CHECK:             memref.prefetch {{.*}} : memref<?xf32>
func.func @dynamic(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  return %0 : tensor<?x?xf32>
}

// -----

// Rows of exactly one cache line (16 f32): prefetches, the data 64 rows
// (1024 elements) ahead.
// CHECK-LABEL: func.func @rows_64b
// CHECK:         scf.forall
// CHECK:           arith.addi %{{.*}}, %c1024 : index
// CHECK:           memref.prefetch {{.*}} : memref<65536xf32>
func.func @rows_64b(%d: tensor<4096x16xf32>, %i: tensor<4096x16xi64>) -> tensor<4096x16xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4096x16xf32>, tensor<4096x16xi64>
  return %0 : tensor<4096x16xf32>
}

// -----

// Rows of 10 f32 (40 bytes, less than a cache line): no prefetches.
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT:     memref.prefetch
// CHECK:         return
// SCALAR-LABEL: func.func @short_rows
// SCALAR-NOT:     memref.prefetch
// SCALAR:         return
func.func @short_rows(%d: tensor<4096x10xf32>, %i: tensor<4096x10xi64>) -> tensor<4096x10xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4096x10xf32>, tensor<4096x10xi64>
  return %0 : tensor<4096x10xf32>
}

// -----

// Along another axis than the innermost (the rows of data are chosen by the
// index values): no prefetches.
// CHECK-LABEL: func.func @axis0
// CHECK-NOT:     memref.prefetch
// CHECK:         return
// SCALAR-LABEL: func.func @axis0
// SCALAR-NOT:     memref.prefetch
// SCALAR:         return
func.func @axis0(%d: tensor<256x256xf32>, %i: tensor<256x256xi64>) -> tensor<256x256xf32> {
  %0 = onnx.GatherElements %d, %i axis = 0 : tensor<256x256xf32>, tensor<256x256xi64>
  return %0 : tensor<256x256xf32>
}

// -----

// Data and indices of 8 + 16 KiB (under 32 KiB) stay in the L1 cache: no
// prefetches.
// CHECK-LABEL: func.func @small
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @small(%d: tensor<8x256xf32>, %i: tensor<8x256xi64>) -> tensor<8x256xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<8x256xf32>, tensor<8x256xi64>
  return %0 : tensor<8x256xf32>
}

// -----

// Rank 1: no rows to run ahead on: no prefetches.
// CHECK-LABEL: func.func @rank1
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @rank1(%d: tensor<65536xf32>, %i: tensor<65536xi64>) -> tensor<65536xf32> {
  %0 = onnx.GatherElements %d, %i axis = 0 : tensor<65536xf32>, tensor<65536xi64>
  return %0 : tensor<65536xf32>
}
