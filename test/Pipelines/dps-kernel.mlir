// The kernel form for C++ callers (destination-passing style, see
// include/gather/ExecutionEngine/JitCompiler.h): the gather writes straight
// into the caller's `out` buffer, with run-time checks on, vectorized and
// threaded: no heap allocation, no copy per call (the check's one flag, set
// by the rows that find a bad value, lives on the stack; the only malloc is
// on the cold path that reports a bad index), an OpenMP parallel region and
// hardware gathers (gather-form=hardware: the default form depends on the
// host CPU, test/Pipelines/gather-form.mlir).
// RUN: gather-opt %s --onnx-to-llvm=gather-form=hardware | FileCheck %s --implicit-check-not=llvm.intr.memcpy
// Scalar and single-threaded: no OpenMP, no vectors.
// RUN: gather-opt %s --onnx-to-llvm="vector-size=0 num-threads=1" | FileCheck %s --check-prefix=SCALAR --implicit-check-not=omp. --implicit-check-not=masked.gather --implicit-check-not=llvm.intr.memcpy
// With dynamic sizes too (@kernel_dynamic): the destination's sizes are
// checked first (scf.if around the gather), and the result, built on several
// paths (threaded or serial loops; a zero fill when data's axis is empty), is
// computed in `out` on every one of them: right after bufferization, no
// buffer of the result's type and no copy.
// RUN: gather-opt %s --onnx-to-llvm --mlir-print-ir-after=convert-bufferization-to-memref -o /dev/null 2>&1 | FileCheck %s --check-prefixes=BUFFERS,THREADS
// RUN: gather-opt %s --onnx-to-llvm="vector-size=0 num-threads=1" --mlir-print-ir-after=convert-bufferization-to-memref -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUFFERS

// CHECK-LABEL: llvm.func @kernel(
// CHECK-NOT:     llvm.call @malloc
// CHECK:         llvm.alloca %{{.*}} x i8
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
// CHECK-LABEL: llvm.func @kernel_dynamic(
// CHECK:         llvm.call @gatherReportDestinationShapeError
// CHECK-NOT:     llvm.call @malloc
// CHECK:         omp.parallel
// CHECK:           llvm.intr.masked.gather {{.*}} -> vector<16xf32>
// CHECK-NOT:     llvm.call @malloc
// CHECK:         llvm.intr.masked.gather {{.*}} -> vector<16xf32>
// CHECK-LABEL: llvm.func @_mlir_ciface_kernel_dynamic(
// SCALAR-LABEL: llvm.func @kernel(
// SCALAR-NOT:     llvm.call @malloc
// SCALAR:         llvm.call @malloc
// SCALAR:         llvm.call @gatherReportIndexError
// SCALAR-LABEL: llvm.func @kernel_dynamic(
// BUFFERS-LABEL: func.func @kernel_dynamic(
// BUFFERS-NOT:     memref.alloc{{.*}}xf32>
// BUFFERS-NOT:     memref.copy
// THREADS:         scf.forall
// BUFFERS-NOT:     memref.alloc{{.*}}xf32>
// BUFFERS-NOT:     memref.copy
// BUFFERS:         linalg.fill ins(%{{.*}} : f32) outs(%arg2 : memref<?x?xf32>)
// BUFFERS-NOT:     memref.alloc{{.*}}xf32>
// BUFFERS-NOT:     memref.copy
// BUFFERS:         return
func.func @kernel(%data: memref<1024x1024xf32>, %indices: memref<1024x1024xi64>, %out: memref<1024x1024xf32>) attributes {llvm.emit_c_interface} {
  %d = bufferization.to_tensor %data restrict : memref<1024x1024xf32> to tensor<1024x1024xf32>
  %i = bufferization.to_tensor %indices restrict : memref<1024x1024xi64> to tensor<1024x1024xi64>
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<1024x1024xf32>, tensor<1024x1024xi64>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1024x1024xf32>, memref<1024x1024xf32>) -> ()
  return
}

func.func @kernel_dynamic(%data: memref<?x?xf32>, %indices: memref<?x?xi64>, %out: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
  %d = bufferization.to_tensor %data restrict : memref<?x?xf32> to tensor<?x?xf32>
  %i = bufferization.to_tensor %indices restrict : memref<?x?xi64> to tensor<?x?xi64>
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
