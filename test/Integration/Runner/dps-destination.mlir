// REQUIRES: jit
// A gather's result copied into a destination with dynamic sizes
// (destination-passing style: bufferization.materialize_in_destination into a
// memref or a tensor, linalg.copy): the lowering checks that the destination
// has the result's sizes, reports a mismatch and skips the copy, so nothing
// is written past a too-small destination.
//
// Indices 4x4 into a 2x2 view of a 16-float buffer: reported (exit 1).
// RUN: not gather-runner %s -e memref_too_small --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not gather-runner %s -e memref_too_small --entry-point-result=void --pipeline-options="vector-size=0 num-threads=1" 2>&1 | FileCheck %s --check-prefix=SMALL
// Vectorized (rows of 4: one vector) and threaded: the same.
// RUN: not gather-runner %s -e memref_too_small --entry-point-result=void --pipeline-options="vector-size=4 num-threads=2 parallel-threshold=0" 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: {{.*}}dps-destination.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'onnx.GatherElements' op result has size 4 in dimension 0, but its destination has size 2 there
// SMALL-NOT: error
//
// With --on-runtime-error=continue, the buffer behind the view is untouched
// (all -7), every element included.
// RUN: not gather-runner %s -e memref_too_small --entry-point-result=void --on-runtime-error=continue 2>&1 | FileCheck %s --check-prefix=UNTOUCHED
// UNTOUCHED: {{.*}}dps-destination.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'onnx.GatherElements' op result has size 4 in dimension 0, but its destination has size 2 there
// UNTOUCHED: sizes = [16]
// UNTOUCHED-NEXT: [-7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7]
//
// The destination matches in dimension 0 but not 1:
// RUN: not gather-runner %s -e memref_wrong_cols --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=COLS
// COLS: {{.*}}dps-destination.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'onnx.GatherElements' op result has size 4 in dimension 1, but its destination has size 2 there
//
// Tensor destinations (materialize_in_destination, linalg.copy): reported;
// with continue, the destination comes back unchanged.
// RUN: not gather-runner %s -e tensor_too_small --entry-point-result=void --on-runtime-error=continue 2>&1 | FileCheck %s --check-prefix=TENSOR
// TENSOR: {{.*}}dps-destination.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'onnx.GatherElements' op result has size 4 in dimension 0, but its destination has size 2 there
// TENSOR: result 0: tensor<2x2xf32> = {{\[\[}}-7, -7], [-7, -7]]
// RUN: not gather-runner %s -e copy_too_small --entry-point-result=void --on-runtime-error=continue 2>&1 | FileCheck %s --check-prefix=TENSOR
//
// Matching sizes: the gather is written (each row of data reversed), in
// place on every path (no buffer of its own, test/Pipelines/dps-kernel.mlir):
// serial or threaded, scalar or vectorized.
// RUN: gather-runner %s -e memref_fits --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=FITS
// RUN: gather-runner %s -e memref_fits --entry-point-result=void --pipeline-options="vector-size=4 num-threads=2 parallel-threshold=0" 2>&1 | FileCheck %s --check-prefix=FITS
// RUN: gather-runner %s -e memref_fits --entry-point-result=void --pipeline-options="vector-size=4 num-threads=1" 2>&1 | FileCheck %s --check-prefix=FITS
// FITS-NOT: error
// FITS: sizes = [16]
// FITS-NEXT: [4,  3,  2,  1,  8,  6,  4,  2,  12,  9,  6,  3,  16,  12,  8,  4]
// A bad index in a destination that fits: reported (exit 1), whatever the
// code shape.
// RUN: not gather-runner %s -e memref_bad_index --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=BAD-INDEX
// RUN: not gather-runner %s -e memref_bad_index --entry-point-result=void --pipeline-options="vector-size=4 num-threads=2 parallel-threshold=0" 2>&1 | FileCheck %s --check-prefix=BAD-INDEX
// BAD-INDEX: {{.*}}dps-destination.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value 4 at position [2, 1], outside the valid range [-4, 3] for axis 1 of size 4
// BAD-INDEX-NOT: error
// RUN: gather-runner %s -e tensor_fits --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=TENSOR-FITS
// TENSOR-FITS: result 0: tensor<4x4xf32> = {{\[\[}}4, 3, 2, 1], [8, 6, 4, 2], [12, 9, 6, 3], [16, 12, 8, 4]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @kernel(%data: memref<?x?xf32>, %indices: memref<?x?xi64>, %out: memref<?x?xf32>) {
  %d = bufferization.to_tensor %data restrict : memref<?x?xf32> to tensor<?x?xf32>
  %i = bufferization.to_tensor %indices restrict : memref<?x?xi64> to tensor<?x?xi64>
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}

func.func @kernel_tensor(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>, %out: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  %o = bufferization.materialize_in_destination %r in %out : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %o : tensor<?x?xf32>
}

func.func @kernel_copy(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>, %out: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  %o = linalg.copy ins(%r : tensor<?x?xf32>) outs(%out : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %o : tensor<?x?xf32>
}

// data[i][j] = (i + 1) * (j + 1); indices[i][j] = 3 - j.
func.func @inputs() -> (tensor<4x4xf32>, tensor<4x4xi64>) {
  %d = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0], [3.0, 6.0, 9.0, 12.0], [4.0, 8.0, 12.0, 16.0]]> : tensor<4x4xf32>
  %i = arith.constant dense<[[3, 2, 1, 0], [3, 2, 1, 0], [3, 2, 1, 0], [3, 2, 1, 0]]> : tensor<4x4xi64>
  return %d, %i : tensor<4x4xf32>, tensor<4x4xi64>
}

// @run_with on @inputs.
func.func @run(%rows: index, %cols: index) {
  %dt, %it = call @inputs() : () -> (tensor<4x4xf32>, tensor<4x4xi64>)
  call @run_with(%dt, %it, %rows, %cols) : (tensor<4x4xf32>, tensor<4x4xi64>, index, index) -> ()
  return
}

// Calls @kernel with `out` a rows x cols view of a 16-float buffer filled
// with -7, and prints the buffer.
func.func @run_with(%dt: tensor<4x4xf32>, %it: tensor<4x4xi64>, %rows: index, %cols: index) {
  %dm = bufferization.to_buffer %dt read_only : tensor<4x4xf32> to memref<4x4xf32>
  %im = bufferization.to_buffer %it read_only : tensor<4x4xi64> to memref<4x4xi64>
  %d = memref.cast %dm : memref<4x4xf32> to memref<?x?xf32>
  %i = memref.cast %im : memref<4x4xi64> to memref<?x?xi64>
  %buffer = memref.alloc() : memref<16xf32>
  %sentinel = arith.constant -7.0 : f32
  linalg.fill ins(%sentinel : f32) outs(%buffer : memref<16xf32>)
  %out = memref.reinterpret_cast %buffer to offset: [0], sizes: [%rows, %cols], strides: [%cols, 1] : memref<16xf32> to memref<?x?xf32>
  call @kernel(%d, %i, %out) : (memref<?x?xf32>, memref<?x?xi64>, memref<?x?xf32>) -> ()
  %u = memref.cast %buffer : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @memref_too_small() {
  %c2 = arith.constant 2 : index
  call @run(%c2, %c2) : (index, index) -> ()
  return
}

func.func @memref_wrong_cols() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  call @run(%c4, %c2) : (index, index) -> ()
  return
}

func.func @memref_fits() {
  %c4 = arith.constant 4 : index
  call @run(%c4, %c4) : (index, index) -> ()
  return
}

func.func @memref_bad_index() {
  %dt, %it = call @inputs() : () -> (tensor<4x4xf32>, tensor<4x4xi64>)
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %bad = arith.constant 4 : i64
  %ib = tensor.insert %bad into %it[%c2, %c1] : tensor<4x4xi64>
  call @run_with(%dt, %ib, %c4, %c4) : (tensor<4x4xf32>, tensor<4x4xi64>, index, index) -> ()
  return
}

func.func @tensor_out(%rows: index, %cols: index) -> tensor<?x?xf32> {
  %empty = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %sentinel = arith.constant -7.0 : f32
  %out = linalg.fill ins(%sentinel : f32) outs(%empty : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %out : tensor<?x?xf32>
}

func.func @tensor_too_small() -> tensor<2x2xf32> {
  %dt, %it = call @inputs() : () -> (tensor<4x4xf32>, tensor<4x4xi64>)
  %d = tensor.cast %dt : tensor<4x4xf32> to tensor<?x?xf32>
  %i = tensor.cast %it : tensor<4x4xi64> to tensor<?x?xi64>
  %c2 = arith.constant 2 : index
  %out = call @tensor_out(%c2, %c2) : (index, index) -> tensor<?x?xf32>
  %r = call @kernel_tensor(%d, %i, %out) : (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = tensor.cast %r : tensor<?x?xf32> to tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}

func.func @copy_too_small() -> tensor<2x2xf32> {
  %dt, %it = call @inputs() : () -> (tensor<4x4xf32>, tensor<4x4xi64>)
  %d = tensor.cast %dt : tensor<4x4xf32> to tensor<?x?xf32>
  %i = tensor.cast %it : tensor<4x4xi64> to tensor<?x?xi64>
  %c2 = arith.constant 2 : index
  %out = call @tensor_out(%c2, %c2) : (index, index) -> tensor<?x?xf32>
  %r = call @kernel_copy(%d, %i, %out) : (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = tensor.cast %r : tensor<?x?xf32> to tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}

func.func @tensor_fits() -> tensor<4x4xf32> {
  %dt, %it = call @inputs() : () -> (tensor<4x4xf32>, tensor<4x4xi64>)
  %d = tensor.cast %dt : tensor<4x4xf32> to tensor<?x?xf32>
  %i = tensor.cast %it : tensor<4x4xi64> to tensor<?x?xi64>
  %c4 = arith.constant 4 : index
  %out = call @tensor_out(%c4, %c4) : (index, index) -> tensor<?x?xf32>
  %r = call @kernel_copy(%d, %i, %out) : (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = tensor.cast %r : tensor<?x?xf32> to tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
