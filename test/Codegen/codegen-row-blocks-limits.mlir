// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="remarks=true" -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark: --implicit-check-not=warning:
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="remarks=true row-block-bytes=1099511627776" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIB --implicit-check-not=remark: --implicit-check-not=warning:

// The plan of rows in blocks (planRowBlocks, docs/CodeShape.md "Gathers
// along an outer axis") at sizes no buffer has, which types still name: the
// lines per position are compared with the budget without multiplying them
// by the size (128 B x (2^63 - 1) exceeds int64_t), and the search for a
// block size that divides the size tries at most kMaxRowBlockCandidates of
// them, so that a 1 TiB budget (blocks of up to 2^33 positions of 128 B)
// costs no 2^33 divisions.

// 256 KiB: 2048 positions fit; the largest divisor of
// 2^63 - 1 = 7^2 x 73 x 127 x 337 x 92737 x 649657 below it is 889 = 7 x 127.
// 1 TiB: no divisor among the 65,536 sizes below 2^33.
// CHECK: codegen-row-blocks-limits.mlir:[[# @LINE + 3]]:8: remark: gather-codegen: vectors of 16, rows in blocks of 889 along dimension 2 (111 KiB of data each); threads;
// TIB: codegen-row-blocks-limits.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: vectors of 16; threads; no prefetches (not along the innermost axis);
func.func @huge(%d: tensor<7x2x9223372036854775807x64xi8>, %i: tensor<7x2x9223372036854775807x64xi32>) -> tensor<7x2x9223372036854775807x64xi8> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<7x2x9223372036854775807x64xi8>, tensor<7x2x9223372036854775807x64xi32>
  return %r : tensor<7x2x9223372036854775807x64xi8>
}

// -----

// The prime 2^61 - 1: blocks of 1 position at 256 KiB (1 divides every
// size); none at 1 TiB.
// CHECK: codegen-row-blocks-limits.mlir:[[# @LINE + 3]]:8: remark: gather-codegen: vectors of 16, rows in blocks of 1 along dimension 1 (128 B of data each); threads;
// TIB: codegen-row-blocks-limits.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: vectors of 16; threads; no prefetches (not along the innermost axis);
func.func @prime(%d: tensor<2x2305843009213693951x64xi8>, %i: tensor<2x2305843009213693951x64xi64>) -> tensor<2x2305843009213693951x64xi8> {
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<2x2305843009213693951x64xi8>, tensor<2x2305843009213693951x64xi64>
  return %r : tensor<2x2305843009213693951x64xi8>
}

// -----

// Rows of 3, shorter than a vector, would go in groups with the two
// innermost dimensions of `indices` merged: (2^63 - 1) x 3 elements have no
// type, so the rows are not grouped (the merged size used to wrap around to
// a wrong static size, or to the dynamic marker, or to a negative one).
// CHECK: codegen-row-blocks-limits.mlir:[[# @LINE + 3]]:8: remark: gather-codegen: {{.*}}not in groups: 9223372036854775807 rows of 3: more elements than int64_t counts
// TIB: codegen-row-blocks-limits.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: {{.*}}not in groups: 9223372036854775807 rows of 3: more elements than int64_t counts
func.func @groups_overflow(%d: tensor<2x9223372036854775807x3xf16>, %i: tensor<2x9223372036854775807x3xi32>) -> tensor<2x9223372036854775807x3xf16> {
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<2x9223372036854775807x3xf16>, tensor<2x9223372036854775807x3xi32>
  return %r : tensor<2x9223372036854775807x3xf16>
}

// -----

// Two rows of 2^63 - 1 elements: threads share out the rows (their count
// is not taken from the element count, which is capped at 2^63 - 1).
// CHECK: codegen-row-blocks-limits.mlir:[[# @LINE + 3]]:8: remark: gather-codegen: {{.*}}; threads;
// TIB: codegen-row-blocks-limits.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: {{.*}}; threads;
func.func @two_huge_rows(%d: tensor<1x2x9223372036854775807xi8>, %i: tensor<1x2x9223372036854775807xi64>) -> tensor<1x2x9223372036854775807xi8> {
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<1x2x9223372036854775807xi8>, tensor<1x2x9223372036854775807xi64>
  return %r : tensor<1x2x9223372036854775807xi8>
}
