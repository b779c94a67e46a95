// RUN: gather-opt %s --onnx-to-llvm='gpu=cuda' | FileCheck %s
// RUN: gather-opt %s --onnx-to-llvm='gpu=cuda' | FileCheck %s --check-prefix=SPLIT

// The PTX in the gpu.binary (gpu-format=isa: PTX text, escaped). Under
// the NVPTX data layout (gather-gpu-data-layout) an i64 index value is one
// 64-bit load; under LLVM's default layout it was two ld.global.b32 plus a
// shift and an or (docs/GPU.md). The data here are i8, so a 32-bit load
// could only be half of an index value.

// CHECK:     gpu.binary @bytes_kernel
// CHECK-SAME:  #nvvm.target<chip = "sm_90", features = "+ptx80">
// CHECK-SAME:  .version 8.0
// CHECK-SAME:  .target sm_90
// CHECK-SAME:  .maxntid 128, 1, 1
// CHECK-SAME:  ld.global.b64
// CHECK-SAME:  atom.global.min.s64
// CHECK-SAME:  ld.global.{{[bu]}}8
// CHECK-SAME:  st.global.{{[bu]}}8
// CHECK-SAME:  ret;

// SPLIT:     gpu.binary @bytes_kernel
// SPLIT-NOT: ld.global.{{[bu]}}32
func.func @bytes(%data: tensor<5x7xi8>, %indices: tensor<5x3xi64>) -> tensor<5x3xi8> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<5x7xi8>, tensor<5x3xi64>
  return %out : tensor<5x3xi8>
}
