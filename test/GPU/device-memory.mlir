// RUN: gather-opt %s --split-input-file --pass-pipeline='builtin.module(gather-pipeline-onnx-preprocessing{gpu=cuda},gather-pipeline-onnx-to-linalg{gpu=cuda},gather-pipeline-bufferization{gpu=cuda},func.func(gather-gpu-kernels{memory=device}),canonicalize,cse)' | FileCheck %s
// RUN: gather-opt %s --onnx-to-llvm='gpu=cuda gpu-memory=device' | gather-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM
// RUN: gather-opt %s --onnx-to-llvm='gpu=cuda' | gather-translate --mlir-to-llvmir | FileCheck %s --check-prefix=COPIES

// gpu-memory=device (docs/GPU.md, "Buffers on the device"): the kernel reads
// the arguments' buffers and writes the result in place; the result the
// function allocates is a gpu.alloc; only the fused check's position is
// copied. The report reads a host copy of the indices made inside its
// scf.if (only when a position was recorded).

// CHECK-LABEL: func.func @static_i64(
// CHECK-SAME:      %[[DATA:.*]]: memref<3x4xf32>, %[[IDX:.*]]: memref<2x4xi64>) -> memref<2x4xf32>
// CHECK:         %[[W:.*]] = gpu.wait async
// CHECK:         %[[OUT:.*]], %[[T:.*]] = gpu.alloc async [%[[W]]] () : memref<2x4xf32>
// CHECK:         gpu.wait [%[[T]]]
// CHECK-NOT:     memref.alloc(
// CHECK-DAG:     %[[D1:.*]] = memref.collapse_shape %[[DATA]] {{\[\[}}0, 1]] : memref<3x4xf32> into memref<12xf32>
// CHECK-DAG:     %[[I1:.*]] = memref.collapse_shape %[[IDX]] {{\[\[}}0, 1]] : memref<2x4xi64> into memref<8xi64>
// CHECK-DAG:     %[[O1:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1]] : memref<2x4xf32> into memref<8xf32>
// CHECK:         %[[POS:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xi64>
// CHECK-NOT:     gpu.alloc
// CHECK:         gpu.memcpy async [%{{.*}}] %[[POS]], %{{.*}} : memref<?xi64>, memref<1xi64>
// CHECK-NOT:     gpu.memcpy
// CHECK:         gpu.launch async
// CHECK:           memref.load %[[I1]][%{{.*}}] : memref<8xi64>
// CHECK:           memref.load %[[D1]][%{{.*}}] : memref<12xf32>
// CHECK:           memref.atomic_rmw mins %{{.*}}, %[[POS]]
// CHECK:           memref.store %{{.*}}, %[[O1]][%{{.*}}] : memref<8xf32>
// CHECK:           gpu.terminator
// CHECK:         gpu.memcpy async [%{{.*}}] %{{.*}}, %[[POS]] : memref<1xi64>, memref<?xi64>
// CHECK-NEXT:    gpu.dealloc async [%{{.*}}] %[[POS]]
// CHECK-NEXT:    gpu.wait
// CHECK-NOT:     gpu.memcpy
// CHECK:         scf.if
// CHECK-NEXT:      %[[HOST:.*]] = memref.alloc() : memref<2x4xi64>
// CHECK-NEXT:      %[[W2:.*]] = gpu.wait async
// CHECK-NEXT:      %[[C:.*]] = gpu.memcpy async [%[[W2]]] %[[HOST]], %[[IDX]] : memref<2x4xi64>, memref<2x4xi64>
// CHECK-NEXT:      gpu.wait [%[[C]]]
// CHECK:           memref.load %[[HOST]][
// CHECK:           func.call @gatherReportIndexError
// CHECK:           memref.dealloc %[[HOST]] : memref<2x4xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[OUT]] : memref<2x4xf32>

// LLVM-LABEL: define {{.*}} @static_i64(
// LLVM:         call ptr @mgpuMemAlloc(i64 32,
// LLVM:         call ptr @mgpuMemAlloc(i64 8,
// LLVM-NOT:     call ptr @mgpuMemAlloc(
// LLVM:         call void @mgpuMemcpy(ptr %{{.*}}, ptr %{{.*}}, i64 8,
// LLVM-NOT:     call void @mgpuMemcpy(
// LLVM:         call void @mgpuLaunchKernel(
// LLVM-NOT:     call ptr @mgpuMemAlloc(
// LLVM:         call void @mgpuMemcpy(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}},
// LLVM:         call void @mgpuMemFree(
// LLVM-NOT:     call void @mgpuMemFree(
// LLVM:         call void @mgpuStreamDestroy(
// Only in the report:
// LLVM:         call ptr @malloc(i64 64)
// LLVM:         call void @mgpuMemcpy(ptr %{{.*}}, ptr %{{.*}}, i64 64,
// LLVM:         call void @gatherReportIndexError(

// Host mode: device buffers for the three operands and the copies.
// COPIES-LABEL: define {{.*}} @static_i64(
// COPIES:       call ptr @mgpuMemAlloc(i64 48,
// COPIES:       call ptr @mgpuMemAlloc(i64 64,
// COPIES:       call ptr @mgpuMemAlloc(i64 32,
// COPIES:       call ptr @mgpuMemAlloc(i64 8,
// COPIES:       call void @mgpuMemcpy(ptr %{{.*}}, ptr %{{.*}}, i64 48,
// COPIES:       call void @mgpuMemcpy(ptr %{{.*}}, ptr %{{.*}}, i64 64,
func.func @static_i64(%data: tensor<3x4xf32>, %indices: tensor<2x4xi64>) -> tensor<2x4xf32> {
  %out = onnx.GatherElements %data, %indices axis = 0 : tensor<3x4xf32>, tensor<2x4xi64>
  return %out : tensor<2x4xf32>
}

// -----

// Two gathers: the first's result, allocated on the device, feeds the
// second and is freed there (gpu.dealloc, no memref.dealloc).
// CHECK-LABEL: func.func @chain(
// CHECK-COUNT-2: gpu.alloc async [%{{.*}}] () : memref<3x4xf32>
// CHECK-NOT:     gpu.memcpy async [%{{.*}}] %{{.*}}, %{{.*}} : memref<?xf32>
// CHECK:         gpu.dealloc async [%{{.*}}] %{{.*}} : memref<3x4xf32>
// CHECK-NOT:     memref.dealloc %{{.*}} : memref<3x4xf32>
// CHECK:         return
func.func @chain(%data: tensor<3x4xf32>, %indices: tensor<3x4xi64>) -> tensor<3x4xf32> {
  %0 = onnx.GatherElements %data, %indices axis = 0 : tensor<3x4xf32>, tensor<3x4xi64>
  %1 = onnx.GatherElements %0, %indices axis = 1 : tensor<3x4xf32>, tensor<3x4xi64>
  return %1 : tensor<3x4xf32>
}

// -----

// Dynamic shapes: the branch for data with an empty axis (every index out
// of range, checked on the host) reads a host copy of the indices and
// returns its host-filled result copied to the device; the report copies
// the indices inside its scf.if.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:      %{{.*}}: memref<?x?xf32>, %[[IDX:.*]]: memref<?x?xi32>)
// CHECK:         scf.if %{{.*}} -> (memref<?x?xf32>, i1) {
// CHECK:           gpu.alloc async [%{{.*}}] (%{{.*}}, %{{.*}}) : memref<?x?xf32>
// CHECK:           gpu.launch
// CHECK:         } else {
// CHECK:           %[[HOSTIDX:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xi32>
// CHECK:           gpu.memcpy async [%{{.*}}] %[[HOSTIDX]], %[[IDX]]
// CHECK:           %[[FILLED:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK:           linalg.fill ins(%{{.*}} : f32) outs(%[[FILLED]] : memref<?x?xf32>)
// CHECK:           linalg.generic {{.*}} ins(%[[HOSTIDX]] : memref<?x?xi32>)
// CHECK:           memref.dealloc %[[HOSTIDX]] :
// CHECK:           %[[DEV:.*]], %[[T:.*]] = gpu.alloc async [%{{.*}}] (%{{.*}}, %{{.*}}) : memref<?x?xf32>
// CHECK-NEXT:      gpu.memcpy async [%[[T]]] %[[DEV]], %[[FILLED]]
// CHECK-NEXT:      gpu.wait
// CHECK-NEXT:      memref.dealloc %[[FILLED]]
// CHECK-NEXT:      scf.yield %[[DEV]], %{{.*}} : memref<?x?xf32>, i1
// CHECK:         scf.if
// CHECK:           %[[REPORT:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xi32>
// CHECK:           gpu.memcpy async [%{{.*}}] %[[REPORT]], %[[IDX]]
// CHECK:           memref.load %[[REPORT]][
// CHECK:           memref.dealloc %[[REPORT]] :
func.func @dynamic(%data: tensor<?x?xf32>, %indices: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %out = onnx.GatherElements %data, %indices axis = -1 : tensor<?x?xf32>, tensor<?x?xi32>
  return %out : tensor<?x?xf32>
}

// -----

// Constant operands are host memory (a global) in either mode: they are
// copied to a device buffer for the kernel and freed after it (the kernel
// read the host address before).
// CHECK-LABEL: func.func @constant_indices(
// CHECK-SAME:      %[[DATA:.*]]: memref<4x6xf32>) -> memref<4x3xf32>
// CHECK:         %[[G:.*]] = memref.get_global @{{.*}} : memref<4x3xi64>
// CHECK:         %[[G1:.*]] = memref.collapse_shape %[[G]] {{\[\[}}0, 1]] : memref<4x3xi64> into memref<12xi64>
// CHECK:         %[[DI:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xi64>
// CHECK:         gpu.memcpy async [%{{.*}}] %[[DI]], %[[G1]] : memref<?xi64>, memref<12xi64>
// CHECK:         gpu.launch async
// CHECK:           memref.load %[[DI]][%{{.*}}] : memref<?xi64>
// CHECK:           gpu.terminator
// CHECK:         gpu.dealloc async [%{{.*}}] %[[DI]] : memref<?xi64>
func.func @constant_indices(%d: tensor<4x6xf32>) -> tensor<4x3xf32> {
  %i = arith.constant dense<[[5, 4, 3], [0, 1, 2], [-1, -6, 2], [3, 3, 3]]> : tensor<4x3xi64>
  %o = onnx.GatherElements %d, %i axis = 1 : tensor<4x6xf32>, tensor<4x3xi64>
  return %o : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @constant_data(
// CHECK-SAME:      %[[IDX:.*]]: memref<2x2xi64>) -> memref<2x2xf32>
// CHECK:         %[[G:.*]] = memref.get_global @{{.*}} : memref<2x3xf32>
// CHECK:         %[[G1:.*]] = memref.collapse_shape %[[G]] {{\[\[}}0, 1]] : memref<2x3xf32> into memref<6xf32>
// CHECK:         %[[DD:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xf32>
// CHECK:         gpu.memcpy async [%{{.*}}] %[[DD]], %[[G1]] : memref<?xf32>, memref<6xf32>
// CHECK:         gpu.launch async
// CHECK:           memref.load %[[DD]][%{{.*}}] : memref<?xf32>
// CHECK:           gpu.terminator
// CHECK:         gpu.dealloc async [%{{.*}}] %[[DD]] : memref<?xf32>
func.func @constant_data(%i: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %d = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %o = onnx.GatherElements %d, %i axis = 1 : tensor<2x3xf32>, tensor<2x2xi64>
  return %o : tensor<2x2xf32>
}
