// narrow-offsets=true, 32-bit lane offsets (data under 2^31 elements,
// static): the reads of `data` gather with i32 offsets, for i32 and i64
// indices alike; i32 indices also get the index rule in i32 (half the
// registers of i64; that part is the default). The code each target gets,
// from LLVM's own llc:
// - Skylake-SP (hardware gathers): one vgatherdps of 16 lanes per vector,
//   no vgatherqps (two of 8 lanes each with 64-bit offsets);
// - Zen 4, Zen 5 and Haswell (scalarized gathers): no vgather at all, and
//   with i32 indices the index rule in 32-bit lanes (vpaddd), none in
//   64-bit ones.
// RUN: gather-translate --onnx-to-llvmir --pipeline-options="narrow-offsets=true num-threads=1 target-cpu=skylake-avx512" %s | llc -O3 | FileCheck %s --check-prefixes=CHECK,HW
// RUN: gather-translate --onnx-to-llvmir --pipeline-options="narrow-offsets=true num-threads=1 target-cpu=znver4" %s | llc -O3 | FileCheck %s --check-prefixes=CHECK,SC
// RUN: gather-translate --onnx-to-llvmir --pipeline-options="narrow-offsets=true num-threads=1 target-cpu=znver5" %s | llc -O3 | FileCheck %s --check-prefixes=CHECK,SC
// RUN: gather-translate --onnx-to-llvmir --pipeline-options="narrow-offsets=true num-threads=1 target-cpu=haswell" %s | llc -O3 | FileCheck %s --check-prefixes=CHECK,SC
// By default (narrow-offsets=false) the offsets are 64-bit everywhere:
// RUN: gather-translate --onnx-to-llvmir --pipeline-options="num-threads=1 target-cpu=skylake-avx512" %s | llc -O3 | FileCheck %s --check-prefix=WIDE
// The plan says so:
// RUN: gather-opt %s --convert-onnx-to-linalg --gather-codegen="remarks=true narrow-offsets=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: gather-opt %s --convert-onnx-to-linalg --gather-codegen="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE-REMARK --implicit-check-not=-bit
// A smaller narrow-limit: 2^16 elements of data are over it.
// RUN: gather-opt %s --convert-onnx-to-linalg --gather-codegen="remarks=true narrow-offsets=true narrow-limit=65535" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT
// The IR of i64 indices: the wrap and the compare see the whole i64 value
// (in `index`), only then the normalized coordinate is truncated to i32,
// the safe select is in 32-bit lanes and the offsets linearized in i32.
// RUN: gather-opt %s --convert-onnx-to-linalg --gather-codegen="narrow-offsets=true parallel=false prefetch-distance=0" --canonicalize --cse | FileCheck %s --check-prefix=IR
// REQUIRES: jit

// CHECK-LABEL: f32_i32:
// HW:          vgatherdps {{.*}}%zmm
// SC:          vpaddd
// SC-NOT:      vpaddq
// CHECK-NOT:   vgatherqps
// SC-NOT:      vgather
// CHECK-LABEL: f32_i64:
// HW:          vgatherdps {{.*}}%zmm
// CHECK-NOT:   vgatherqps
// SC-NOT:      vgather
// WIDE-LABEL:  f32_i64:
// WIDE:        vgatherqps
// WIDE-NOT:    vgatherdps
// WIDE-LABEL:  f32_dynamic:
// WIDE-REMARK-COUNT-3: index check fused{{$}}
// Dynamic sizes: both loops, chosen by the size guard
// (codegen-size-guard.mlir).
// CHECK-LABEL: f32_dynamic:
// HW-DAG:      vgatherdps
// HW-DAG:      vgatherqps
// SC-NOT:      vgather

// LIMIT-COUNT-2: 64-bit offsets (data has over 65535 elements)
// LIMIT: 32-bit offsets if the dynamic sizes allow (at most 65535 elements, checked at run time; else 64-bit)

// IR-LABEL: func.func @f32_i64(
// IR-DAG:     %[[ZERO32:.*]] = arith.constant dense<0> : vector<16xi32>
// IR-DAG:     %[[SIZE:.*]] = arith.constant dense<256> : vector<16xindex>
// IR-DAG:     %[[ZERO:.*]] = arith.constant dense<0> : vector<16xindex>
// IR:         %[[I64:.*]] = vector.transfer_read {{.*}} : tensor<256x256xi64>, vector<16xi64>
// IR:         %[[I:.*]] = arith.index_cast %[[I64]] : vector<16xi64> to vector<16xindex>
// IR:         %[[NEG:.*]] = arith.cmpi slt, %[[I]], %[[ZERO]] : vector<16xindex>
// IR:         %[[WRAPPED:.*]] = arith.addi %[[I]], %[[SIZE]] : vector<16xindex>
// IR:         %[[NORM:.*]] = arith.select %[[NEG]], %[[WRAPPED]], %[[I]] : vector<16xi1>, vector<16xindex>
// IR:         %[[IN:.*]] = arith.cmpi ult, %[[NORM]], %[[SIZE]] : vector<16xindex>
// IR:         %[[NORM32:.*]] = arith.index_cast %[[NORM]] : vector<16xindex> to vector<16xi32>
// IR:         %[[SAFE32:.*]] = arith.select %[[IN]], %[[NORM32]], %[[ZERO32]] : vector<16xi1>, vector<16xi32>
// IR:         vector.gather %{{.*}}[%{{.*}}, %{{.*}}] [%[[SAFE32]]], {{.*}} : tensor<256x256xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// IR:         arith.xori %[[IN]]
// IR-LABEL: func.func @f32_dynamic(

// REMARK: codegen-offsets.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: {{.*}}; 32-bit offsets
func.func @f32_i32(%d: tensor<256x256xf32>, %i: tensor<256x256xi32>) -> tensor<256x256xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xf32>, tensor<256x256xi32>
  return %r : tensor<256x256xf32>
}

// REMARK: codegen-offsets.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: {{.*}}; 32-bit offsets
func.func @f32_i64(%d: tensor<256x256xf32>, %i: tensor<256x256xi64>) -> tensor<256x256xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xf32>, tensor<256x256xi64>
  return %r : tensor<256x256xf32>
}

// REMARK: codegen-offsets.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: {{.*}}; 32-bit offsets if the dynamic sizes allow (at most 2147483647 elements, checked at run time; else 64-bit)
func.func @f32_dynamic(%d: tensor<?x256xf32>, %i: tensor<?x256xi64>) -> tensor<?x256xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<?x256xf32>, tensor<?x256xi64>
  return %r : tensor<?x256xf32>
}
