// RUN: rm -rf %t && mkdir -p %t
// RUN: gather-opt %s --onnx-to-llvm='gpu=cuda' -o %t/isa.mlir
// RUN: python3 %S/Inputs/extract-ptx.py %t/isa.mlir %t/kernel > %t/files
// RUN: python3 %S/Inputs/check-load-order.py %t/kernel*.ptx | FileCheck %s

// Memory-level parallelism in the PTX (docs/GPU.md): in every kernel each
// thread issues its four index loads, then its four data loads, all
// read-only (ld.global.nc), before any store or atomic: i64 and i32
// indices, the first and the last axis, static and dynamic shapes (whose
// modules hold a kernel with 32-bit offsets and one with 64-bit offsets).

// CHECK-DAG: i64_axis0_kernel: 8 loads (nc), then 8 stores/atomics
// CHECK-DAG: i32_last_kernel: 8 loads (nc), then 8 stores/atomics
// CHECK-DAG: unchecked_kernel: 8 loads (nc), then 4 stores/atomics
// CHECK-DAG: dynamic_i64_kernel: 8 loads (nc), then 8 stores/atomics
// CHECK-DAG: dynamic_i64_kernel: 8 loads (nc), then 8 stores/atomics
// CHECK-DAG: dynamic_i32_axis0_kernel: 8 loads (nc), then 8 stores/atomics
// CHECK-DAG: dynamic_i32_axis0_kernel: 8 loads (nc), then 8 stores/atomics
// CHECK-NOT: not read-only
// CHECK-NOT: after a store

func.func @i64_axis0(%d: tensor<300x40xf32>, %i: tensor<200x40xi64>) -> tensor<200x40xf32> {
  %o = onnx.GatherElements %d, %i axis = 0 : tensor<300x40xf32>, tensor<200x40xi64>
  return %o : tensor<200x40xf32>
}
func.func @i32_last(%d: tensor<8x3x50xf16>, %i: tensor<8x3x20xi32>) -> tensor<8x3x20xf16> {
  %o = onnx.GatherElements %d, %i axis = -1 : tensor<8x3x50xf16>, tensor<8x3x20xi32>
  return %o : tensor<8x3x20xf16>
}
// Indices known to be in range: no check, no atomic.
func.func @unchecked(%d: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %i = arith.constant dense<1> : tensor<4x6xi64>
  %o = onnx.GatherElements %d, %i axis = 1 : tensor<4x6xi32>, tensor<4x6xi64>
  return %o : tensor<4x6xi32>
}
func.func @dynamic_i64(%d: tensor<?x?xf64>, %i: tensor<?x?xi64>) -> tensor<?x?xf64> {
  %o = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf64>, tensor<?x?xi64>
  return %o : tensor<?x?xf64>
}
func.func @dynamic_i32_axis0(%d: tensor<?x?xi8>, %i: tensor<?x?xi32>) -> tensor<?x?xi8> {
  %o = onnx.GatherElements %d, %i axis = 0 : tensor<?x?xi8>, tensor<?x?xi32>
  return %o : tensor<?x?xi8>
}
