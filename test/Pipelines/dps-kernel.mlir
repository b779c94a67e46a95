// The kernel form for C++ callers (destination-passing style, see
// include/gather/ExecutionEngine/JitCompiler.h): the gather writes straight
// into the caller's `out` buffer, with run-time checks on, vectorized and
// threaded: no heap allocation, no copy per call (the check's per-row flags
// live on the stack), an OpenMP parallel region and hardware-style gathers.
// RUN: gather-opt %s --onnx-to-llvm | FileCheck %s --implicit-check-not=malloc --implicit-check-not=llvm.intr.memcpy --implicit-check-not="llvm.call @free"
// Scalar and single-threaded: no OpenMP, no vectors, still no allocation.
// RUN: gather-opt %s --onnx-to-llvm="vector-size=0 num-threads=1" | FileCheck %s --check-prefix=SCALAR --implicit-check-not=malloc --implicit-check-not=omp. --implicit-check-not=masked.gather

// CHECK-LABEL: llvm.func @kernel(
// CHECK:         llvm.alloca %{{.*}} x i1
// CHECK:         omp.parallel
// CHECK:           omp.wsloop
// CHECK:             llvm.intr.masked.gather {{.*}} -> vector<16xf32>
// CHECK:         llvm.call @gatherReportIndexError
// CHECK-LABEL: llvm.func @_mlir_ciface_kernel(
// SCALAR-LABEL: llvm.func @kernel(
// SCALAR:         llvm.call @gatherReportIndexError
func.func @kernel(%data: memref<1024x1024xf32>, %indices: memref<1024x1024xi64>, %out: memref<1024x1024xf32>) attributes {llvm.emit_c_interface} {
  %d = bufferization.to_tensor %data restrict : memref<1024x1024xf32> to tensor<1024x1024xf32>
  %i = bufferization.to_tensor %indices restrict : memref<1024x1024xi64> to tensor<1024x1024xi64>
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<1024x1024xf32>, tensor<1024x1024xi64>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1024x1024xf32>, memref<1024x1024xf32>) -> ()
  return
}
