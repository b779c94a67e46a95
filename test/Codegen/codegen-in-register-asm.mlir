// In-register gathers (docs/CodeShape.md, "In-register gathers"), the code
// each target gets from LLVM's own llc: with AVX-512 (Zen 4, Zen 5,
// Skylake-SP) one 512-bit permute per vector of 16 (two registers for rows
// of 32: vpermt2ps/vpermi2ps), the row read with one (masked when shorter)
// vector load, and neither a gather nor scalar loads of data; with AVX2
// (Haswell, whose index math uses `vpermq $216` everywhere) two 256-bit
// permutes for rows of 8, and the scalarized form
// (one vmovss per lane) for rows of 16, which no AVX2 permute holds.
// RUN: gather-translate --onnx-to-llvmir --pipeline-options="num-threads=1 target-cpu=znver4" %s | llc -O3 | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: gather-translate --onnx-to-llvmir --pipeline-options="num-threads=1 target-cpu=znver5" %s | llc -O3 | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: gather-translate --onnx-to-llvmir --pipeline-options="num-threads=1 target-cpu=skylake-avx512" %s | llc -O3 | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: gather-translate --onnx-to-llvmir --pipeline-options="num-threads=1 target-cpu=haswell" %s | llc -O3 | FileCheck %s --check-prefixes=CHECK,AVX2
// in-register-gathers=false: the forms of before (Zen 4: scalarized):
// RUN: gather-translate --onnx-to-llvmir --pipeline-options="num-threads=1 target-cpu=znver4 in-register-gathers=false" %s | llc -O3 | FileCheck %s --check-prefix=OFF
// REQUIRES: jit

// CHECK-LABEL: f32_rows16:
// AVX512:      vperm{{d|ps}} {{.*}}%zmm
// AVX512-NOT:  vmovss
// AVX2-NOT:    vperm{{d|ps}} 
// AVX2:        vmovss
// CHECK-NOT:   vgather
// CHECK-LABEL: .Lfunc_end0:
// OFF-LABEL:   f32_rows16:
// OFF-NOT:     vperm{{d|ps}} 
// OFF:         vmovss
// OFF-LABEL:   .Lfunc_end0:
func.func @f32_rows16(%d: tensor<1024x16xf32>, %i: tensor<1024x16xi64>) -> tensor<1024x16xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<1024x16xf32>, tensor<1024x16xi64>
  return %r : tensor<1024x16xf32>
}

// CHECK-LABEL: f32_rows10:
// AVX512:      vmovups {{.*}}, %zmm{{[0-9]+}} {%k{{[0-9]}}} {z}
// AVX512:      vperm{{d|ps}} {{.*}}%zmm
// AVX512-NOT:  vmovss
// CHECK-NOT:   vgather
// CHECK-LABEL: .Lfunc_end1:
func.func @f32_rows10(%d: tensor<1024x10xf32>, %i: tensor<1024x32xi64>) -> tensor<1024x32xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<1024x10xf32>, tensor<1024x32xi64>
  return %r : tensor<1024x32xf32>
}

// CHECK-LABEL: i32_rows8:
// AVX512:      vpermd {{.*}}%zmm
// AVX2-COUNT-2: vpermd {{.*}}%ymm
// CHECK-NOT:   vpinsrd
// CHECK-NOT:   vgather
// CHECK-LABEL: .Lfunc_end2:
func.func @i32_rows8(%d: tensor<1024x8xi32>, %i: tensor<1024x16xi32>) -> tensor<1024x16xi32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<1024x8xi32>, tensor<1024x16xi32>
  return %r : tensor<1024x16xi32>
}

// CHECK-LABEL: f32_rows32:
// AVX512:      vperm{{t|i}}2{{d|ps}} {{.*}}%zmm
// AVX512-NOT:  vmovss
// CHECK-NOT:   vgather
// CHECK-LABEL: .Lfunc_end3:
func.func @f32_rows32(%d: tensor<64x16x32xf32>, %i: tensor<64x16x32xi64>) -> tensor<64x16x32xf32> {
  %r = onnx.GatherElements %d, %i axis = 2 : tensor<64x16x32xf32>, tensor<64x16x32xi64>
  return %r : tensor<64x16x32xf32>
}

// CHECK-LABEL: f64_rows8:
// AVX512-COUNT-2: vperm{{q|pd}} {{.*}}%zmm
// AVX512-NOT:  vmovsd
// CHECK-NOT:   vgather
// CHECK-LABEL: .Lfunc_end4:
func.func @f64_rows8(%d: tensor<1024x8xf64>, %i: tensor<1024x16xi64>) -> tensor<1024x16xf64> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<1024x8xf64>, tensor<1024x16xi64>
  return %r : tensor<1024x16xf64>
}

// Rows of 33: too long for two registers; another axis: no permute.
// CHECK-LABEL: rows33:
// CHECK-NOT:   vperm{{d|ps|t2ps|i2ps}} 
// CHECK-LABEL: .Lfunc_end5:
func.func @rows33(%d: tensor<1024x33xf32>, %i: tensor<1024x16xi64>) -> tensor<1024x16xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<1024x33xf32>, tensor<1024x16xi64>
  return %r : tensor<1024x16xf32>
}

// CHECK-LABEL: axis0:
// CHECK-NOT:   vperm{{d|ps|t2ps|i2ps}} 
// CHECK-LABEL: .Lfunc_end6:
func.func @axis0(%d: tensor<16x1024xf32>, %i: tensor<16x1024xi64>) -> tensor<16x1024xf32> {
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<16x1024xf32>, tensor<16x1024xi64>
  return %r : tensor<16x1024xf32>
}
