// The form of vectorized gathers follows the target CPU: hardware gathers
// (vector.gather) where LLVM finds them legal and the CPU has fast-gather
// (Intel Skylake-SP, Ice Lake-SP), scalarized vectors (one tensor.extract per
// lane, vector.from_elements, one vector store) elsewhere (AMD Zen 4/5,
// Haswell, generic x86-64); the gather-form option overrides the choice, and
// target-features can set the tuning bit.
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen=parallel=false --gather-select-form=target-cpu=skylake-avx512 --canonicalize | FileCheck %s --check-prefixes=HW,HW-SKX
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen=parallel=false --gather-select-form=target-cpu=icelake-server --canonicalize | FileCheck %s --check-prefix=HW
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen=parallel=false --gather-select-form=target-cpu=znver4 --canonicalize | FileCheck %s --check-prefixes=SC,SC-ZEN4
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen=parallel=false --gather-select-form=target-cpu=znver5 --canonicalize | FileCheck %s --check-prefix=SC
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen=parallel=false --gather-select-form=target-cpu=haswell --canonicalize | FileCheck %s --check-prefix=SC
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen=parallel=false --gather-select-form=target-cpu=x86-64 --canonicalize | FileCheck %s --check-prefix=SC
// Overrides: the form itself, or the tuning bit.
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen=parallel=false --gather-select-form="target-cpu=znver4 gather-form=hardware" --canonicalize | FileCheck %s --check-prefixes=HW,HW-ALL
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen=parallel=false --gather-select-form="target-cpu=skylake-avx512 gather-form=scalarized" --canonicalize | FileCheck %s --check-prefix=SC
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen=parallel=false --gather-select-form="target-cpu=skylake-avx512 gather-form=scalar" --canonicalize | FileCheck %s --check-prefix=SC
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen=parallel=false --gather-select-form="target-cpu=znver4 target-features=+fast-gather" --canonicalize | FileCheck %s --check-prefix=HW
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen=parallel=false --gather-select-form="target-cpu=haswell target-features=+fast-gather" --canonicalize | FileCheck %s --check-prefix=HW
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen=parallel=false --gather-select-form="target-cpu=skylake-avx512 target-features=-fast-gather" --canonicalize | FileCheck %s --check-prefix=SC

// Invalid targets are errors, not LLVM's warning and generic code.
// RUN: not gather-opt %s --gather-select-form=target-cpu=skylake-avx513 2>&1 | FileCheck %s --check-prefix=BAD-CPU
// In the pipeline, gather-codegen (in-register gathers) reads the target first:
// RUN: not gather-opt %s --onnx-to-llvm=target-cpu=skylake-avx513 2>&1 | FileCheck %s --check-prefix=BAD-CPU-PIPELINE
// RUN: not gather-opt %s --gather-select-form=target-features=avx2 2>&1 | FileCheck %s --check-prefix=BAD-SIGN
// RUN: not gather-opt %s --gather-select-form="target-features=+avx2,,-avx512f" 2>&1 | FileCheck %s --check-prefix=BAD-EMPTY
// RUN: not gather-opt %s --onnx-to-llvm="target-cpu=znver4 target-features=+avx2,+avx9" 2>&1 | FileCheck %s --check-prefix=BAD-FEATURE
// RUN: not gather-opt %s --onnx-to-llvm=gather-form=fast 2>&1 | FileCheck %s --check-prefix=BAD-FORM
// BAD-CPU: error: gather-select-form: target-cpu 'skylake-avx513' is not a CPU of x86_64
// BAD-CPU-PIPELINE: error: gather-codegen: target-cpu 'skylake-avx513' is not a CPU of x86_64
// BAD-SIGN: error: gather-select-form: target-features: 'avx2' is not written +name or -name
// BAD-EMPTY: error: gather-select-form: target-features: '' is not written +name or -name
// BAD-FEATURE: error: gather-codegen: target-features: 'avx9' is not a feature of x86_64
// BAD-FORM: error: invalid options of 'onnx-to-llvm': invalid value 'fast' for option 'gather-form'; valid values: auto, hardware, scalarized, scalar

// f32 data, i64 indices: one gather of 16 lanes per tile.
// HW-LABEL: func.func @f32_i64
// HW:         vector.gather {{.*}} : tensor<64x256xf32>, vector<16xindex>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// HW:         vector.transfer_write {{.*}} : vector<16xf32>, tensor<64x256xf32>
// SC-LABEL: func.func @f32_i64
// SC-SAME:    target_cpu =
// SC-SAME:    target_features = #llvm.target_features<[{{.*}}"+prefer-no-gather"]>
// SC-NOT:     vector.gather
// SC-NOT:     scf.if
// SC-COUNT-16: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<64x256xf32>
// SC:         vector.from_elements {{.*}} : vector<16xf32>
// SC:         vector.transfer_write {{.*}} : vector<16xf32>, tensor<64x256xf32>
// SC:         return
func.func @f32_i64(%d: tensor<64x256xf32>, %i: tensor<64x256xi64>) -> tensor<64x256xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<64x256xf32>, tensor<64x256xi64>
  return %0 : tensor<64x256xf32>
}

// f64 data, i32 indices: legal (AVX-512 or fast AVX2) like f32.
// HW-LABEL: func.func @f64_i32
// HW:         vector.gather {{.*}} into vector<16xf64>
// SC-LABEL: func.func @f64_i32
// SC-NOT:     vector.gather
// SC:         vector.from_elements {{.*}} : vector<16xf64>
func.func @f64_i32(%d: tensor<8x64xf64>, %i: tensor<8x64xi32>) -> tensor<8x64xf64> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<8x64xf64>, tensor<8x64xi32>
  return %0 : tensor<8x64xf64>
}

// i8 data: x86 has no byte gathers (the masked gather is not legal), so
// `auto` scalarizes it even for Skylake-SP; `hardware` keeps it (LLVM then
// scalarizes it itself).
// HW-SKX-LABEL: func.func @i8_i64
// HW-SKX-NOT:     vector.gather
// HW-SKX:         vector.from_elements {{.*}} : vector<16xi8>
// HW-ALL-LABEL: func.func @i8_i64
// HW-ALL:         vector.gather {{.*}} into vector<16xi8>
// SC-ZEN4-LABEL: func.func @i8_i64
// SC-ZEN4-SAME:    target_cpu = "znver4", target_features = #llvm.target_features<["+prefer-no-gather"]>
// SC-ZEN4-NOT:     vector.gather
// SC-ZEN4:         vector.from_elements {{.*}} : vector<16xi8>
func.func @i8_i64(%d: tensor<4x32xi8>, %i: tensor<4x32xi64>) -> tensor<4x32xi8> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4x32xi8>, tensor<4x32xi64>
  return %0 : tensor<4x32xi8>
}
