// A gather of a splat constant: the canonicalizer folds its read of `data`
// into the splat's value, so the marked linalg.generic holds no
// tensor.extract any more. No gather is left to fuse: gather-codegen
// leaves it as is (an elementwise op, with the index check beside it),
// and says nothing but with remarks=true; no warning of a broken contract.
// RUN: gather-opt %s --split-input-file --onnx-to-llvm -o /dev/null 2>&1 | count 0
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark: --implicit-check-not=warning:
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen | FileCheck %s

// Splat data and splat indices, more than 2^20 elements (not folded at the
// onnx level).
// CHECK-LABEL: func.func @splat_large
// CHECK:         linalg.generic
// CHECK-SAME:      gather.elements
// CHECK-NEXT:    ^bb0(%{{.*}}: i64, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %{{.*}} : f32
func.func @splat_large() -> tensor<1025x1024xf32> {
  %d = arith.constant dense<1.5> : tensor<1025x1024xf32>
  %i = arith.constant dense<3> : tensor<1025x1024xi64>
  // REMARK: codegen-splat-data.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: left as is (no read of data left: it folded into a value)
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<1025x1024xf32>, tensor<1025x1024xi64>
  return %0 : tensor<1025x1024xf32>
}

// -----

// Splat data, indices known at run time only: the index check stays.
// CHECK-LABEL: func.func @splat_data
// CHECK:         linalg.generic
// CHECK-SAME:      gather.elements
// CHECK:         linalg.generic
// CHECK-SAME:      gather.index_check
func.func @splat_data(%i: tensor<4x8xi64>) -> tensor<4x8xf32> {
  %d = arith.constant dense<1.5> : tensor<4x8xf32>
  // REMARK: codegen-splat-data.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: left as is (no read of data left: it folded into a value)
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4x8xf32>, tensor<4x8xi64>
  return %0 : tensor<4x8xf32>
}
