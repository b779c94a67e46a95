// The passes of onnx-to-llvm{gpu=cuda} that differ from the CPU's
// (docs/GPU.md): no codegen stage (gather-codegen, gather-select-form) and
// no OpenMP; stage 6b after bufferization; gpu-to-llvm,
// gpu-module-to-binary and gather-gpu-load-lazily in stage 7. The CPU's list:
// test/Pipelines/pipeline-passes.mlir.
// RUN: gather-opt %s --onnx-to-llvm=gpu=cuda --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefixes=CHECK,ISA --implicit-check-not=gather-codegen --implicit-check-not=gather-select-form --implicit-check-not=openmp --implicit-check-not=convert-to-llvm
// RUN: gather-opt %s --onnx-to-llvm='gpu=cuda gpu-chip=sm_80 gpu-format=fatbin gpu-memory=device' --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefixes=CHECK,FATBIN
// RUN: gather-opt %s --dump-pass-pipeline -o /dev/null --pass-pipeline='builtin.module(gather-pipeline-gpu{gpu=cuda})' 2>&1 \
// RUN: | FileCheck %s --check-prefix=STAGE
// RUN: gather-opt %s --dump-pass-pipeline -o /dev/null --pass-pipeline='builtin.module(gather-pipeline-gpu)' 2>&1 \
// RUN: | FileCheck %s --check-prefix=EMPTY

// CHECK:      convert-onnx-to-linalg{runtime-checks=true},
// CHECK:      one-shot-bufferize{
// CHECK:      gather-check-allocations,
// CHECK-NEXT: func.func(
// ISA-NEXT:     gather-gpu-kernels{elements-per-thread=4 memory=host threads-per-block=128}
// FATBIN-NEXT:  gather-gpu-kernels{elements-per-thread=4 memory=device threads-per-block=128}
// CHECK-NEXT: ),
// CHECK-NEXT: gpu-kernel-outlining{data-layout-str=},
// CHECK-NEXT: gather-gpu-data-layout{data-layout=e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64},
// ISA-NEXT:   nvvm-attach-target{{{.*}} chip=sm_90 {{.*}}features=+ptx80 {{.*}}triple=nvptx64-nvidia-cuda}
// FATBIN-NEXT: nvvm-attach-target{{{.*}} chip=sm_80 {{.*}}features=+ptx80 {{.*}}triple=nvptx64-nvidia-cuda}
// CHECK-NEXT: gpu.module(
// CHECK-NEXT:   convert-scf-to-cf{
// CHECK-NEXT:   convert-gpu-to-nvvm{
// CHECK-NEXT:   canonicalize{
// CHECK-NEXT:   cse,
// CHECK-NEXT:   reconcile-unrealized-casts,
// CHECK-NEXT:   gather-gpu-read-only-loads
// CHECK-NEXT: ),
// CHECK:      convert-onnx-strings-to-llvm,
// CHECK-NEXT: gpu-to-llvm{
// ISA-NEXT:   gpu-module-to-binary{format=isa {{.*}}},
// FATBIN-NEXT: gpu-module-to-binary{format=fatbin {{.*}}},
// CHECK-NEXT: gather-gpu-load-lazily,
// CHECK-NEXT: reconcile-unrealized-casts,
// CHECK-NEXT: gather-internalize-private-symbols,
// CHECK-NEXT: gather-check-constant-sizes,
// CHECK-NEXT: gather-check-lowered{level=llvm}
// CHECK-NEXT: )

// STAGE:      builtin.module(
// STAGE-NEXT:   func.func(
// STAGE-NEXT:     gather-gpu-kernels{
// STAGE:        gpu-kernel-outlining
// EMPTY:      builtin.module(
// EMPTY-NOT:  gpu
