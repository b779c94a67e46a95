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
