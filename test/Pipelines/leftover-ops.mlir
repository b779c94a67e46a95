// A pipeline that cannot lower everything ends with an error naming the first
// op left and its location, and a non-zero exit status.
// RUN: not gather-opt %s --split-input-file --onnx-to-llvm 2>&1 | FileCheck %s

// CHECK: leftover-ops.mlir:[[# @LINE + 3]]:8: error: 'linalg.softmax' op was left by the lowering: it is not in the LLVM dialect, so it cannot be translated to LLVM IR
func.func @softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK: leftover-ops.mlir:[[# @LINE + 2]]:8: error: 'builtin.unrealized_conversion_cast' op was left by the lowering
func.func @cast(%x: i64) -> f32 {
  %0 = builtin.unrealized_conversion_cast %x : i64 to f32
  return %0 : f32
}

// -----

// A vector.mask left by upstream that gather-lower-vector-masks cannot fold
// (a pass-through for a transposed read): an error at it, not wrong lanes.
// CHECK: leftover-ops.mlir:[[# @LINE + 4]]:8: error: gather-lower-vector-masks: cannot fold this mask into 'vector.transfer_read': a pass-through needs a mask of the vector's shape
func.func @masked_read(%b: memref<16x16xf32>, %m: vector<8x4xi1>, %p: vector<4x8xf32>) -> vector<4x8xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %0 = vector.mask %m, %p { vector.transfer_read %b[%c0, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<16x16xf32>, vector<4x8xf32> } : vector<8x4xi1> -> vector<4x8xf32>
  return %0 : vector<4x8xf32>
}
