// RUN: gather-opt %s --onnx-to-llvm='gpu=cuda' | gather-translate --mlir-to-llvmir | FileCheck %s
// RUN: gather-translate %s --onnx-to-llvmir --pipeline-options='gpu=cuda gpu-chip=sm_80' | FileCheck %s --check-prefix=SM80

// LLVM IR of gpu=cuda: the PTX embedded as a NUL-terminated constant,
// loaded at the first launch (gatherCUDAGetKernel; gather-gpu-load-lazily),
// not by a global constructor, the host's copies and launch on one stream,
// and the index errors reported by the CPU's runtime functions after the
// kernel. A global destructor unloads the module and forgets the kernel.

// CHECK-NOT: @llvm.global_ctors
// CHECK-DAG: @[[KERNEL:__gather_gpu_gather_kernel_gather_kernel_kernel]] = internal global ptr null
// CHECK-DAG: @[[NAME:__gather_gpu_gather_kernel_gather_kernel_name]] = internal constant [14 x i8] c"gather_kernel\00"
// CHECK-DAG: @[[MODULE:__gather_gpu_gather_kernel_module]] = internal global ptr null
// CHECK-DAG: @[[BINARY:__gather_gpu_gather_kernel_binary]] = internal constant [[[SIZE:[0-9]+]] x i8] c"{{.*}}.target sm_90{{.*}}\00"
// CHECK-DAG: @llvm.global_dtors = appending global {{.*}} @__gather_gpu_unload_modules
// CHECK:     define {{.*}} @gather(
// CHECK:       %[[S:.*]] = call ptr @mgpuStreamCreate()
// CHECK:       call ptr @mgpuMemAlloc(i64 60, ptr %[[S]], i8 0)
// CHECK:       call ptr @mgpuMemAlloc(i64 120, ptr %[[S]], i8 0)
// CHECK:       call ptr @mgpuMemAlloc(i64 60, ptr %[[S]], i8 0)
// CHECK:       call ptr @mgpuMemAlloc(i64 8, ptr %[[S]], i8 0)
// CHECK:       call void @mgpuMemcpy(
// CHECK:       %[[K:.*]] = call ptr @gatherCUDAGetKernel(ptr @[[MODULE]], ptr @[[KERNEL]], ptr @[[BINARY]], i64 [[SIZE]], i32 0, i32 2, ptr @[[NAME]])
// CHECK:       call void @mgpuLaunchKernel(ptr %[[K]], i64 1, i64 1, i64 1, i64 128, i64 1, i64 1, i32 0, ptr %[[S]], ptr %{{.*}}, ptr null, i64 21)
// CHECK:       call void @mgpuMemcpy(
// CHECK:       call void @mgpuMemFree(
// CHECK:       call void @mgpuStreamSynchronize(ptr %[[S]])
// CHECK:       call void @mgpuStreamDestroy(ptr %[[S]])
// CHECK:       call void @gatherReportIndexError(
// CHECK:     define internal void @__gather_gpu_unload_modules()
// CHECK-NEXT:  call void @gatherCUDAUnloadModule(ptr @[[MODULE]])
// CHECK-NEXT:  store ptr null, ptr @[[KERNEL]]

// SM80: c"{{.*}}.target sm_80{{.*}}"
func.func @gather(%data: tensor<3x5xf32>, %indices: tensor<3x5xi64>) -> tensor<3x5xf32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<3x5xf32>, tensor<3x5xi64>
  return %out : tensor<3x5xf32>
}
