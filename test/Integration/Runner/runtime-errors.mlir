// REQUIRES: jit
// Invalid inputs that only show at run time: the compiled code reports them
// through gather's runtime and gather-runner exits with status 1 (`not`
// fails on a signal, so a crash or abort fails these tests).
//
// RUN: not gather-runner %s -e index_too_big --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=TOO-BIG
// TOO-BIG-NOT: Unranked Memref
// TOO-BIG: {{.*}}runtime-errors.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value 3 at position [1, 0], outside the valid range [-3, 2] for axis 1 of size 3
// TOO-BIG-NOT: error
//
// RUN: not gather-runner %s -e index_too_negative_i32 --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=TOO-NEG
// TOO-NEG: {{.*}}runtime-errors.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value -4 at position [0, 2], outside the valid range [-3, 2] for axis 0 of size 3
//
// RUN: not gather-runner %s -e index_int64_min --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=MIN
// MIN: {{.*}}runtime-errors.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value -9223372036854775808 at position [1], outside the valid range [-4, 3] for axis 0 of size 4
//
// RUN: not gather-runner %s -e index_int64_max --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=MAX
// MAX: {{.*}}runtime-errors.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value 9223372036854775807 at position [0], outside the valid range [-4, 3] for axis 0 of size 4
//
// RUN: not gather-runner %s -e index_int32_min --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=MIN32
// MIN32: {{.*}}runtime-errors.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value -2147483648 at position [2], outside the valid range [-4, 3] for axis 0 of size 4
// The other end of i32 (the index rule runs in i32 on this static axis):
// RUN: not gather-runner %s -e index_int32_max --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=MAX32
// MAX32: {{.*}}runtime-errors.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value 2147483647 at position [1], outside the valid range [-4, 3] for axis 0 of size 4
//
// RUN: not gather-runner %s -e indices_too_big_off_axis --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE-NOT: Unranked Memref
// SHAPE: {{.*}}runtime-errors.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' has size 3 in dimension 0, larger than size 2 of operand 'data' there; only along the axis (dimension 1) may 'indices' be larger than 'data'
//
// RUN: not gather-runner %s -e empty_axis --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=EMPTY-AXIS
// EMPTY-AXIS: {{.*}}runtime-errors.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value 0 at position [0, 0], outside the valid range [0, -1] for axis 0 of size 0
//
// Valid inputs at the edges run and print (nothing on stderr):
// RUN: gather-runner %s -e valid_edges --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=VALID
// VALID-NOT: error
// VALID: rank = 2 offset = 0 sizes = [2, 3]
// VALID-NEXT{LITERAL}: [[1,   8,   9],
// VALID-NEXT{LITERAL}:  [7,   5,   9]]
// VALID-NEXT: 0
// VALID-NOT: error
//
// With runtime checks off, the same pipeline runs the invalid input without a
// report, but still never reads outside `data` (the index is clamped):
// RUN: gather-opt %s --onnx-to-llvm="runtime-checks=false" | gather-runner -e index_too_big --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: error
// OFF: rank = 2 offset = 0 sizes = [2, 2]

func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

func.func @gather_axis1(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  return %0 : tensor<?x?xf32>
}

func.func @gather_axis0_i32(%d: tensor<3x3xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %0 = onnx.GatherElements %d, %i : tensor<3x3xf32>, tensor<2x3xi32>
  return %0 : tensor<2x3xf32>
}

func.func @gather_1d(%d: tensor<4xf32>, %i: tensor<?xi64>) -> tensor<?xf32> {
  %0 = onnx.GatherElements %d, %i : tensor<4xf32>, tensor<?xi64>
  return %0 : tensor<?xf32>
}

func.func @gather_1d_i32(%d: tensor<4xf32>, %i: tensor<3xi32>) -> tensor<3xf32> {
  %0 = onnx.GatherElements %d, %i : tensor<4xf32>, tensor<3xi32>
  return %0 : tensor<3xf32>
}

func.func @gather_dyn_axis0(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.GatherElements %d, %i : tensor<?x?xf32>, tensor<?x?xi64>
  return %0 : tensor<?x?xf32>
}

func.func @print(%t: tensor<?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @index_too_big() {
  %data = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %indices = arith.constant dense<[[0, 2], [3, -1]]> : tensor<2x2xi64>
  %d = tensor.cast %data : tensor<2x3xf32> to tensor<?x?xf32>
  %i = tensor.cast %indices : tensor<2x2xi64> to tensor<?x?xi64>
  %r = call @gather_axis1(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

func.func @index_too_negative_i32() {
  %data = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %indices = arith.constant dense<[[0, -3, -4], [5, 0, 0]]> : tensor<2x3xi32>
  %r = call @gather_axis0_i32(%data, %indices) : (tensor<3x3xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  %c = tensor.cast %r : tensor<2x3xf32> to tensor<?x?xf32>
  call @print(%c) : (tensor<?x?xf32>) -> ()
  return
}

func.func @index_int64_min() {
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %indices = arith.constant dense<[-4, -9223372036854775808]> : tensor<2xi64>
  %i = tensor.cast %indices : tensor<2xi64> to tensor<?xi64>
  %r = call @gather_1d(%data, %i) : (tensor<4xf32>, tensor<?xi64>) -> tensor<?xf32>
  return
}

func.func @index_int64_max() {
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %indices = arith.constant dense<[9223372036854775807, 0]> : tensor<2xi64>
  %i = tensor.cast %indices : tensor<2xi64> to tensor<?xi64>
  %r = call @gather_1d(%data, %i) : (tensor<4xf32>, tensor<?xi64>) -> tensor<?xf32>
  return
}

func.func @index_int32_min() {
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %indices = arith.constant dense<[3, -4, -2147483648]> : tensor<3xi32>
  %r = call @gather_1d_i32(%data, %indices) : (tensor<4xf32>, tensor<3xi32>) -> tensor<3xf32>
  return
}

func.func @index_int32_max() {
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %indices = arith.constant dense<[-1, 2147483647, 4]> : tensor<3xi32>
  %r = call @gather_1d_i32(%data, %indices) : (tensor<4xf32>, tensor<3xi32>) -> tensor<3xf32>
  return
}

func.func @indices_too_big_off_axis() {
  %data = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %indices = arith.constant dense<[[0, 1], [1, 0], [0, 0]]> : tensor<3x2xi64>
  %d = tensor.cast %data : tensor<2x2xf32> to tensor<?x?xf32>
  %i = tensor.cast %indices : tensor<3x2xi64> to tensor<?x?xi64>
  %r = call @gather_axis1(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

func.func @empty_axis() {
  %data = tensor.empty() : tensor<0x3xf32>
  %indices = arith.constant dense<0> : tensor<1x3xi64>
  %d = tensor.cast %data : tensor<0x3xf32> to tensor<?x?xf32>
  %i = tensor.cast %indices : tensor<1x3xi64> to tensor<?x?xi64>
  %r = call @gather_dyn_axis0(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

func.func @valid_edges() {
  // Indices at exactly -s and s-1, and an empty `indices` on an empty axis.
  %data = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %indices = arith.constant dense<[[-3, 2, -1], [2, -2, 2]]> : tensor<2x3xi64>
  %d = tensor.cast %data : tensor<3x3xf32> to tensor<?x?xf32>
  %i = tensor.cast %indices : tensor<2x3xi64> to tensor<?x?xi64>
  %r = call @gather_dyn_axis0(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  %empty_data = tensor.empty() : tensor<0x3xf32>
  %empty_indices = tensor.empty() : tensor<0x3xi64>
  %ed = tensor.cast %empty_data : tensor<0x3xf32> to tensor<?x?xf32>
  %ei = tensor.cast %empty_indices : tensor<0x3xi64> to tensor<?x?xi64>
  %e = call @gather_dyn_axis0(%ed, %ei) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %e, %c0 : tensor<?x?xf32>
  vector.print %n : index
  return
}
