// RUN: gather-opt %s --pass-pipeline='builtin.module(gather-pipeline-onnx-preprocessing{gpu=cuda},gather-pipeline-onnx-to-linalg{gpu=cuda},gather-pipeline-bufferization{gpu=cuda},func.func(gather-gpu-kernels),canonicalize,cse)' | FileCheck %s
// RUN: gather-opt %s --onnx-to-llvm=gpu=cuda | gather-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// A host buffer with a strided layout (a slice of `data`) is copied into a
// contiguous one before it goes to the device, with a linalg.copy (loops
// in the module: no call into MLIR's runtime libraries), freed afterwards.

// CHECK-LABEL: func.func @slice
// CHECK:         %[[VIEW:.*]] = memref.subview %arg0[0, 1] [4, 3] [1, 2] : memref<4x6xf32> to memref<4x3xf32, strided<[6, 2], offset: 1>>
// CHECK:         %[[COPY:.*]] = memref.alloc() : memref<4x3xf32>
// CHECK:         linalg.copy ins(%[[VIEW]] : memref<4x3xf32, strided<[6, 2], offset: 1>>) outs(%[[COPY]] : memref<4x3xf32>)
// CHECK:         %[[FLAT:.*]] = memref.collapse_shape %[[COPY]] {{\[\[}}0, 1]] : memref<4x3xf32> into memref<12xf32>
// CHECK:         gpu.memcpy async [%{{.*}}] %{{.*}}, %[[FLAT]] : memref<?xf32>, memref<12xf32>
// CHECK:         gpu.launch
// CHECK:         gpu.wait [
// CHECK:         memref.dealloc %[[COPY]] : memref<4x3xf32>

// LLVM-LABEL: define {{.*}} @slice(
// LLVM-NOT:     memrefCopy
// LLVM:         call void @mgpuLaunchKernel(
func.func @slice(%data: tensor<4x6xf32>, %indices: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %s = tensor.extract_slice %data[0, 1] [4, 3] [1, 2] : tensor<4x6xf32> to tensor<4x3xf32>
  %out = onnx.GatherElements %s, %indices axis = 0 : tensor<4x3xf32>, tensor<2x3xi64>
  return %out : tensor<2x3xf32>
}
