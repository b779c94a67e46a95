// REQUIRES: jit
// Debian's stock mlir-opt and mlir-runner (not gather's tools) with
// GatherPlugin.so: the dialect plugin makes the onnx dialect parse, the pass
// plugin adds gather's passes and the onnx-to-llvm pipeline, and the lowered
// module runs under mlir-runner with gather's runtime in --shared-libs.
// RUN: mlir-opt %s --load-dialect-plugin=%gather_plugin --load-pass-plugin=%gather_plugin \
// RUN:   --pass-pipeline='builtin.module(convert-onnx-to-linalg)' | FileCheck %s --check-prefix=LINALG
// RUN: mlir-opt %s --load-dialect-plugin=%gather_plugin --load-pass-plugin=%gather_plugin \
// RUN:   --pass-pipeline='builtin.module(onnx-to-llvm)' \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_lib_dir/libmlir_runner_utils%shlibext,%mlir_lib_dir/libmlir_c_runner_utils%shlibext,%gather_runtime,%libomp \
// RUN: | FileCheck %s
// gather-runner takes the lowered module (LLVM and OpenMP dialects) as is.
// RUN: gather-opt %s --onnx-to-llvm | gather-runner -e main --entry-point-result=void | FileCheck %s
// Without the plugin, the stock tool does not know the dialect.
// RUN: not mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// A pass plugin alone registers the passes (for IR without onnx ops).
// RUN: mlir-opt %s --load-dialect-plugin=%gather_plugin --pass-pipeline='builtin.module(convert-onnx-to-linalg)' \
// RUN: | mlir-opt --load-pass-plugin=%gather_plugin \
// RUN:   --pass-pipeline='builtin.module(func.func(gather-codegen{narrow-offsets=false parallel=false}))' \
// RUN: | FileCheck %s --check-prefix=PASSONLY

// NOPLUGIN: Dialect `onnx' not found
// LINALG-LABEL: func.func @gather_axis1
// LINALG-NOT: onnx.GatherElements
// LINALG: linalg.generic
// PASSONLY-LABEL: func.func @gather_axis1
// PASSONLY: scf.for
// PASSONLY: vector.gather

func.func private @printMemrefF32(tensor<*xf32> {bufferization.access = "read"}) attributes {llvm.emit_c_interface}

// The spec's three examples (ONNX GatherElements, opset 13), computed at run
// time by functions that take their inputs as arguments (dynamic sizes).
func.func @gather_axis1(%data: tensor<?x?xf32>, %indices: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  return %out : tensor<?x?xf32>
}

func.func @gather_axis0(%data: tensor<?x?xf32>, %indices: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %out = onnx.GatherElements %data, %indices axis = 0 : tensor<?x?xf32>, tensor<?x?xi64>
  return %out : tensor<?x?xf32>
}

func.func @main() {
  %d0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i0 = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %dd0 = tensor.cast %d0 : tensor<2x2xf32> to tensor<?x?xf32>
  %di0 = tensor.cast %i0 : tensor<2x2xi64> to tensor<?x?xi64>
  %o0 = call @gather_axis1(%dd0, %di0) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %u0 = tensor.cast %o0 : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  // CHECK: rank = 2 offset = 0 sizes = [2, 2]
  // CHECK-NEXT{LITERAL}: [[1,   1],
  // CHECK-NEXT{LITERAL}:  [4,   3]]

  %d1 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %dd1 = tensor.cast %d1 : tensor<3x3xf32> to tensor<?x?xf32>
  %i1 = arith.constant dense<[[1, 2, 0], [2, 0, 0]]> : tensor<2x3xi64>
  %di1 = tensor.cast %i1 : tensor<2x3xi64> to tensor<?x?xi64>
  %o1 = call @gather_axis0(%dd1, %di1) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %u1 = tensor.cast %o1 : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  // CHECK: rank = 2 offset = 0 sizes = [2, 3]
  // CHECK-NEXT{LITERAL}: [[4,   8,   3],
  // CHECK-NEXT{LITERAL}:  [7,   2,   3]]

  %i2 = arith.constant dense<[[-1, -2, 0], [-2, 0, 0]]> : tensor<2x3xi64>
  %di2 = tensor.cast %i2 : tensor<2x3xi64> to tensor<?x?xi64>
  %o2 = call @gather_axis0(%dd1, %di2) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %u2 = tensor.cast %o2 : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  // CHECK: rank = 2 offset = 0 sizes = [2, 3]
  // CHECK-NEXT{LITERAL}: [[7,   5,   3],
  // CHECK-NEXT{LITERAL}:  [4,   2,   3]]
  return
}
