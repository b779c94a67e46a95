//===- GPUTarget.h - The GPU a pipeline compiles for ------------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one seam between the onnx-to-llvm pipeline and its GPU targets: the
// pipeline chooses a GPUTarget once from its options (or none: the CPU) and
// its stages hand it to the two functions below, which add what the target
// needs. A second GPU target (docs/GPU.md, "Adding a target") is a value of
// GPUKind, its chips and features here, and its passes behind these two
// functions, in lib/GPU.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_GPU_GPUTARGET_H
#define GATHER_GPU_GPUTARGET_H

#include "gather/GPU/GPUOptions.h"

#include "mlir/Pass/PassManager.h"

#include <string>

namespace gather {

/// The GPU code is for: the kind, its chip and features, what the binary
/// embeds and where the entry points' buffers live.
struct GPUTarget {
  GPUKind kind = GPUKind::CUDA;
  std::string chip;
  std::string features;
  GPUFormat format = GPUFormat::Isa;
  GPUMemory memory = GPUMemory::Host;
};

/// The ptx features of NVVM targets (`+ptx80`: sm_90 needs PTX ISA 7.8 or
/// later).
inline constexpr llvm::StringLiteral kGPUFeatures = "+ptx80";

/// The chips of NVVM targets (`gpu-chip`): the architectures that PTX ISA
/// 8.0 (kGPUFeatures) targets and LLVM 22's NVPTX backend knows. Older ones
/// (sm_20 ... sm_37) are gone from the CUDA 12 toolkits and drivers; newer
/// ones (sm_100, sm_120) need a later PTX ISA.
inline constexpr llvm::StringLiteral kGPUChips[] = {
    "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72",
    "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"};

/// Stage 6b, after bufferization: each gather a kernel with its index check
/// fused, the kernels outlined into device modules and lowered to the
/// target's dialect (NVVM).
void addGPUKernelPasses(mlir::OpPassManager &pm, const GPUTarget &target);

/// The GPU part of stage 7, instead of convert-to-llvm: the host's GPU ops
/// to runtime calls, each device module serialized, and the modules loaded
/// at their first launch (gather-gpu-load-lazily).
void addGPUToLLVMPasses(mlir::OpPassManager &pm, const GPUTarget &target);

} // namespace gather

#endif // GATHER_GPU_GPUTARGET_H
