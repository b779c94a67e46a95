// RUN: gather-opt %s --onnx-to-llvm='gpu=cuda' | gather-translate --mlir-to-llvmir | FileCheck %s
// RUN: gather-translate %s --onnx-to-llvmir --pipeline-options='gpu=cuda gpu-chip=sm_80' | FileCheck %s --check-prefix=SM80

// LLVM IR of gpu=cuda: the PTX embedded as a constant, loaded once by a
// constructor (mgpuModuleLoadJIT: the driver compiles PTX), the host's
// copies and launch on one stream, and the index errors reported by the
// CPU's runtime functions after the kernel.

// CHECK-DAG: @llvm.global_ctors = appending global {{.*}} @gather_kernel_load
// CHECK-DAG: @gather_kernel_binary = internal constant [{{[0-9]+}} x i8] c"{{.*}}.target sm_90{{.*}}"
// CHECK:     define {{.*}} @gather(
// CHECK:       %[[S:.*]] = call ptr @mgpuStreamCreate()
// CHECK:       call ptr @mgpuMemAlloc(i64 60, ptr %[[S]], i8 0)
// CHECK:       call ptr @mgpuMemAlloc(i64 120, ptr %[[S]], i8 0)
// CHECK:       call ptr @mgpuMemAlloc(i64 60, ptr %[[S]], i8 0)
// CHECK:       call ptr @mgpuMemAlloc(i64 8, ptr %[[S]], i8 0)
// CHECK:       call void @mgpuMemcpy(
// CHECK:       call ptr @mgpuModuleGetFunction(
// CHECK:       call void @mgpuLaunchKernel(ptr %{{.*}}, i64 1, i64 1, i64 1, i64 128, i64 1, i64 1, i32 0, ptr %[[S]],
// CHECK:       call void @mgpuMemcpy(
// CHECK:       call void @mgpuMemFree(
// CHECK:       call void @mgpuStreamSynchronize(ptr %[[S]])
// CHECK:       call void @mgpuStreamDestroy(ptr %[[S]])
// CHECK:       call void @gatherReportIndexError(
// CHECK:     define internal void @gather_kernel_load()
// CHECK:       call ptr @mgpuModuleLoadJIT(

// SM80: c"{{.*}}.target sm_80{{.*}}"
func.func @gather(%data: tensor<3x5xf32>, %indices: tensor<3x5xi64>) -> tensor<3x5xf32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<3x5xf32>, tensor<3x5xi64>
  return %out : tensor<3x5xf32>
}
