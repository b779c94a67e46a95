// REQUIRES: jit
// Unranked operands: one of `data` and `indices` may be unranked; the other
// one fixes the rank. The rank is checked at run time.
// RUN: gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s
// RUN: gather-runner %s -e main --entry-point-result=void -O0 2>&1 | FileCheck %s
// RUN: not gather-runner %s -e data_rank_mismatch --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=DATA-RANK
// RUN: not gather-runner %s -e indices_rank_mismatch --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=INDICES-RANK
// RUN: not gather-runner %s -e unranked_index_too_big --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=TOO-BIG

// CHECK-NOT: error
// unranked data, axis 1 (spec test_gather_elements_0):
// CHECK: rank = 2 offset = 0 sizes = [2, 2]
// CHECK-NEXT{LITERAL}: [[1,   1],
// CHECK-NEXT{LITERAL}:  [4,   3]]
// unranked indices, axis -2 (spec test_gather_elements_negative_indices):
// CHECK: rank = 2 offset = 0 sizes = [2, 3]
// CHECK-NEXT{LITERAL}: [[7,   5,   3],
// CHECK-NEXT{LITERAL}:  [4,   2,   3]]
// CHECK-NOT: error

// DATA-RANK: {{.*}}unranked.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'data' must have the rank of operand 'indices' (2), but has rank 1 at run time
// INDICES-RANK: {{.*}}unranked.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' must have the rank of operand 'data' (2), but has rank 3 at run time
// TOO-BIG: {{.*}}unranked.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value 2 at position [0, 1], outside the valid range [-2, 1] for axis 1 of size 2

func.func private @printMemrefF32(tensor<*xf32> {bufferization.access = "read"}) attributes {llvm.emit_c_interface}

func.func @gather_unranked_data(%d: tensor<*xf32>, %i: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<*xf32>, tensor<2x2xi64>
  return %0 : tensor<2x2xf32>
}

func.func @gather_unranked_indices(%d: tensor<3x3xf32>, %i: tensor<*xi32>) -> tensor<*xf32> {
  %0 = onnx.GatherElements %d, %i axis = -2 : tensor<3x3xf32>, tensor<*xi32>
  return %0 : tensor<*xf32>
}

func.func @main() {
  %d0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i0 = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %u0 = tensor.cast %d0 : tensor<2x2xf32> to tensor<*xf32>
  %r0 = call @gather_unranked_data(%u0, %i0) : (tensor<*xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  %p0 = tensor.cast %r0 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  %d1 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %i1 = arith.constant dense<[[-1, -2, 0], [-2, 0, 0]]> : tensor<2x3xi32>
  %u1 = tensor.cast %i1 : tensor<2x3xi32> to tensor<*xi32>
  %r1 = call @gather_unranked_indices(%d1, %u1) : (tensor<3x3xf32>, tensor<*xi32>) -> tensor<*xf32>
  call @printMemrefF32(%r1) : (tensor<*xf32>) -> ()
  return
}

func.func @data_rank_mismatch() {
  %d = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %i = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %u = tensor.cast %d : tensor<2xf32> to tensor<*xf32>
  %r = call @gather_unranked_data(%u, %i) : (tensor<*xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return
}

func.func @indices_rank_mismatch() {
  %d = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %i = arith.constant dense<0> : tensor<1x1x1xi32>
  %u = tensor.cast %i : tensor<1x1x1xi32> to tensor<*xi32>
  %r = call @gather_unranked_indices(%d, %u) : (tensor<3x3xf32>, tensor<*xi32>) -> tensor<*xf32>
  return
}

func.func @unranked_index_too_big() {
  %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i = arith.constant dense<[[0, 2], [1, 0]]> : tensor<2x2xi64>
  %u = tensor.cast %d : tensor<2x2xf32> to tensor<*xf32>
  %r = call @gather_unranked_data(%u, %i) : (tensor<*xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return
}
