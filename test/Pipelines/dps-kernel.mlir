// The kernel form for C++ callers (destination-passing style, see
// include/gather/ExecutionEngine/JitCompiler.h): the gather writes straight
// into the caller's `out` buffer, with run-time checks on, vectorized and
// threaded: no heap allocation, no copy per call (the check's per-row flags
// live on the stack; the only malloc is on the cold path that reports a bad
// index), an OpenMP parallel region and hardware gathers (gather-form=hardware:
// the default form depends on the host CPU, test/Pipelines/gather-form.mlir).
// RUN: gather-opt %s --onnx-to-llvm=gather-form=hardware | FileCheck %s --implicit-check-not=llvm.intr.memcpy
// Scalar and single-threaded: no OpenMP, no vectors.
// RUN: gather-opt %s --onnx-to-llvm="vector-size=0 num-threads=1" | FileCheck %s --check-prefix=SCALAR --implicit-check-not=omp. --implicit-check-not=masked.gather --implicit-check-not=llvm.intr.memcpy

// CHECK-LABEL: llvm.func @kernel(
// CHECK-NOT:     llvm.call @malloc
// CHECK:         llvm.alloca %{{.*}} x i1
// CHECK-NOT:     llvm.call @malloc
// CHECK:         omp.parallel
// CHECK:           omp.wsloop
// CHECK:             llvm.intr.masked.gather {{.*}} -> vector<16xf32>
// CHECK-NOT:     llvm.call @malloc
// CHECK:         llvm.call @malloc
// CHECK:         llvm.call @gatherReportIndexError
// CHECK:         llvm.call @free
// CHECK-NOT:     llvm.call @malloc
// CHECK-LABEL: llvm.func @_mlir_ciface_kernel(
// SCALAR-LABEL: llvm.func @kernel(
// SCALAR-NOT:     llvm.call @malloc
// SCALAR:         llvm.call @malloc
// SCALAR:         llvm.call @gatherReportIndexError
func.func @kernel(%data: memref<1024x1024xf32>, %indices: memref<1024x1024xi64>, %out: memref<1024x1024xf32>) attributes {llvm.emit_c_interface} {
  %d = bufferization.to_tensor %data restrict : memref<1024x1024xf32> to tensor<1024x1024xf32>
  %i = bufferization.to_tensor %indices restrict : memref<1024x1024xi64> to tensor<1024x1024xi64>
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<1024x1024xf32>, tensor<1024x1024xi64>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1024x1024xf32>, memref<1024x1024xf32>) -> ()
  return
}
