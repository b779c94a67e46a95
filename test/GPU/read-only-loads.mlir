// RUN: gather-opt %s --pass-pipeline='builtin.module(gpu.module(gather-gpu-read-only-loads))' | FileCheck %s

// gather-gpu-read-only-loads: in a kernel (nvvm.kernel), the plain loads
// through a pointer argument that nothing writes become invariant
// (ld.global.nc). An argument stored to, passed on, or read with a volatile
// or atomic load (a flag something else may set) keeps its loads as they
// are; so do functions that are not kernels.

// CHECK-LABEL: llvm.func @kernel(
// CHECK:         llvm.load %{{.*}} invariant : !llvm.ptr -> f32
// CHECK:         llvm.load %arg1 : !llvm.ptr -> f32
// CHECK:         llvm.load volatile %arg2 : !llvm.ptr -> i32
// CHECK:         llvm.load %arg3 atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK:         llvm.load %arg4 : !llvm.ptr -> f32
// CHECK-LABEL: llvm.func @not_a_kernel(
// CHECK:         llvm.load %arg0 : !llvm.ptr -> f32
gpu.module @m {
  llvm.func @callee(!llvm.ptr)
  llvm.func @kernel(%in: !llvm.ptr, %out: !llvm.ptr, %flag: !llvm.ptr, %atomic: !llvm.ptr, %passed: !llvm.ptr) attributes {nvvm.kernel} {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %p = llvm.getelementptr %in[%c1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %p : !llvm.ptr -> f32
    %w = llvm.load %out : !llvm.ptr -> f32
    %s = llvm.fadd %v, %w : f32
    llvm.store %s, %out : f32, !llvm.ptr
    %f = llvm.load volatile %flag : !llvm.ptr -> i32
    %a = llvm.load %atomic atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
    %x = llvm.load %passed : !llvm.ptr -> f32
    llvm.call @callee(%passed) : (!llvm.ptr) -> ()
    llvm.return
  }
  llvm.func @not_a_kernel(%in: !llvm.ptr) {
    %v = llvm.load %in : !llvm.ptr -> f32
    llvm.return
  }
}
