// RUN: gather-opt %s --onnx-to-llvm | FileCheck %s
// RUN: gather-opt %s --pass-pipeline="builtin.module(onnx-to-llvm)" | FileCheck %s

// The whole pipeline leaves only the LLVM dialect: no onnx, linalg, tensor,
// memref, scf, cf, arith or bufferization op and no unresolved cast.

// CHECK-LABEL: llvm.func @gather_static
// CHECK:         llvm.load
// CHECK:         llvm.store
// CHECK-LABEL: llvm.func @gather_dynamic
// CHECK:         llvm.call @malloc
// CHECK:         llvm.load
// CHECK:         llvm.store
// CHECK-NOT:   onnx.
// CHECK-NOT:   unrealized_conversion_cast
// CHECK-NOT:   {{linalg|tensor|memref|scf|cf|arith|bufferization|func}}.

func.func @gather_static(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<3x3xf32>, tensor<2x3xi64>
  return %0 : tensor<2x3xf32>
}

func.func @gather_dynamic(%data: tensor<?x?x?xi32>, %indices: tensor<?x?x?xi32>) -> tensor<?x?x?xi32> {
  %0 = onnx.GatherElements %data, %indices axis = -2 : tensor<?x?x?xi32>, tensor<?x?x?xi32>
  return %0 : tensor<?x?x?xi32>
}
