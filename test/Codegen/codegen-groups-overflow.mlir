// RUN: gather-opt %s --onnx-to-llvm -o /dev/null 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error

// Rows of 2, shorter than a vector: in groups, the two innermost dimensions
// of `indices` are merged, and (2^63 - 1) x 2 has no type. The whole
// pipeline lowers it without groups; it used to build a collapse_shape into
// tensor<1x-2xi64> and crash in expand-strided-metadata.
func.func @c4(%d: tensor<3x9223372036854775807x2xf64>, %i: tensor<1x9223372036854775807x2xi64>) -> tensor<1x9223372036854775807x2xf64> {
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<3x9223372036854775807x2xf64>, tensor<1x9223372036854775807x2xi64>
  return %r : tensor<1x9223372036854775807x2xf64>
}
