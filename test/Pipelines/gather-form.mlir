// The onnx-to-llvm pipeline gives vectorized gathers the form chosen for
// the target CPU (gather-select-form, docs/CodeShape.md): LLVM masked
// gathers for Skylake-SP, per-lane scalar loads and one vector store for
// Zen 4 and Haswell; gather-form=scalar vectorizes nothing. An explicit
// target is stamped on every function (the OpenMP outlined ones included,
// and in LLVM IR) with the full feature list it is compiled with.
// RUN: gather-opt %s --onnx-to-llvm="target-cpu=skylake-avx512 num-threads=1" | FileCheck %s --check-prefix=SKX
// RUN: gather-opt %s --onnx-to-llvm="target-cpu=znver4 num-threads=1" | FileCheck %s --check-prefixes=SCALARIZED,ZEN4
// RUN: gather-opt %s --onnx-to-llvm="target-cpu=haswell num-threads=1" | FileCheck %s --check-prefixes=SCALARIZED,HASWELL
// The overrides; without a target-cpu nothing is stamped.
// RUN: gather-opt %s --onnx-to-llvm="gather-form=hardware num-threads=1" | FileCheck %s --check-prefixes=SKX,HOST
// RUN: gather-opt %s --onnx-to-llvm="gather-form=scalarized num-threads=1" | FileCheck %s --check-prefixes=SCALARIZED,HOST
// RUN: gather-opt %s --onnx-to-llvm="gather-form=scalarized vector-size=8 num-threads=1" | FileCheck %s --check-prefix=EIGHT
// RUN: gather-opt %s --onnx-to-llvm="gather-form=scalar vector-size=16 num-threads=1" | FileCheck %s --check-prefix=SCALAR
// LLVM IR for another machine keeps its target.
// RUN: gather-translate --onnx-to-llvmir --pipeline-options="target-cpu=znver4" %s | FileCheck %s --check-prefix=IR-ZEN4
// RUN: gather-translate --onnx-to-llvmir --pipeline-options="target-cpu=skylake-avx512" %s | FileCheck %s --check-prefix=IR-SKX
// RUN: gather-translate --onnx-to-llvmir %s | FileCheck %s --check-prefix=IR-HOST
// RUN: not gather-translate --onnx-to-llvmir --pipeline-options="target-cpu=k8-sse4" %s 2>&1 | FileCheck %s --check-prefix=IR-BAD

// SKX-LABEL: llvm.func @gather(
// SKX:         llvm.intr.masked.gather {{.*}} -> vector<16xf32>
// SKX:         llvm.store {{.*}} : vector<16xf32>, !llvm.ptr
// HOST-NOT:    target_cpu

// SCALARIZED-LABEL: llvm.func @gather(
// ZEN4-SAME:          target_cpu = "znver4", target_features = #llvm.target_features<["+prefer-no-gather"]>
// HASWELL-SAME:       target_cpu = "haswell", target_features = #llvm.target_features<["+prefer-no-gather"]>
// SCALARIZED-NOT:     masked.gather
// SCALARIZED-COUNT-16: llvm.load {{.*}} -> f32
// SCALARIZED-COUNT-16: llvm.insertelement {{.*}} : vector<16xf32>
// SCALARIZED:         llvm.store {{.*}} : vector<16xf32>, !llvm.ptr
// SCALARIZED-NOT:     masked.gather
// ZEN4-LABEL: llvm.func @_mlir_ciface_gather(
// ZEN4-SAME:    target_cpu = "znver4"

// EIGHT-LABEL: llvm.func @gather(
// EIGHT-NOT:     masked.gather
// EIGHT-COUNT-8: llvm.load {{.*}} -> f32
// EIGHT:         llvm.store {{.*}} : vector<8xf32>, !llvm.ptr
// EIGHT-NOT:     masked.gather

// SCALAR-LABEL: llvm.func @gather(
// SCALAR-NOT:     vector<
// SCALAR:         llvm.load {{.*}} -> f32
// SCALAR-NOT:     vector<

// IR-ZEN4: define {{.*}} @gather({{.*}}) #[[ATTR:[0-9]+]]
// IR-ZEN4-NOT: @llvm.masked.gather
// IR-ZEN4: attributes #[[ATTR]] = { "target-cpu"="znver4" "target-features"="+prefer-no-gather" }
// IR-SKX: define {{.*}} @gather({{.*}}) #[[ATTR:[0-9]+]]
// IR-SKX: call <16 x float> @llvm.masked.gather.v16f32
// IR-SKX: attributes #[[ATTR]] = { "target-cpu"="skylake-avx512" }
// IR-HOST-NOT: "target-cpu"
// IR-BAD: error: gather-codegen: target-cpu 'k8-sse4' is not a CPU of x86_64

func.func @gather(%d: tensor<64x256xf32>, %i: tensor<64x256xi64>) -> tensor<64x256xf32> attributes {llvm.emit_c_interface} {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<64x256xf32>, tensor<64x256xi64>
  return %0 : tensor<64x256xf32>
}
