// RUN: gather-opt %s --onnx-to-llvm='gpu=cuda' | FileCheck %s
// RUN: gather-opt %s --onnx-to-llvm='gpu=cuda' | FileCheck %s --check-prefix=SPLIT

// The PTX of the kernel module (gpu-format=isa: PTX text, escaped, in the
// constant that gather-gpu-load-lazily makes of the gpu.binary). Under
// the NVPTX data layout (gather-gpu-data-layout) an i64 index value is one
// 64-bit load; under LLVM's default layout it was two ld.global.b32 plus a
// shift and an or (docs/GPU.md). The data here are i8, so a 32-bit load
// could only be half of an index value. Each thread's four index loads,
// then its four data loads, come before any store or atomic (memory-level
// parallelism), and both are read-only loads (ld.global.nc,
// gather-gpu-read-only-loads).

// CHECK:     llvm.mlir.global internal constant @__gather_gpu_bytes_kernel_binary(
// CHECK-SAME:  .version 8.0
// CHECK-SAME:  .target sm_90
// CHECK-SAME:  .maxntid 128, 1, 1
// CHECK-SAME:  ld.global.nc.b64
// CHECK-SAME:  ld.global.nc.b64
// CHECK-SAME:  ld.global.nc.b64
// CHECK-SAME:  ld.global.nc.b64
// CHECK-SAME:  ld.global.nc.{{[bu]}}8
// CHECK-SAME:  ld.global.nc.{{[bu]}}8
// CHECK-SAME:  ld.global.nc.{{[bu]}}8
// CHECK-SAME:  ld.global.nc.{{[bu]}}8
// CHECK-SAME:  atom.global.min.s64
// CHECK-SAME:  st.global.{{[bu]}}8
// CHECK-SAME:  ret;

// SPLIT:     @__gather_gpu_bytes_kernel_binary(
// SPLIT-NOT: ld.global.{{[bu]}}32
func.func @bytes(%data: tensor<5x7xi8>, %indices: tensor<5x3xi64>) -> tensor<5x3xi8> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<5x7xi8>, tensor<5x3xi64>
  return %out : tensor<5x3xi8>
}
