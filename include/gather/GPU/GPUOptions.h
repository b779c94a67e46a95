//===- GPUOptions.h - The values of the GPU options -------------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The values of onnx-to-llvm{gpu, gpu-format, gpu-memory} and of
// gather-gpu-kernels{memory}: one table each (gather/Support/EnumOptions.h;
// docs/GPU.md).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_GPU_GPUOPTIONS_H
#define GATHER_GPU_GPUOPTIONS_H

#include "gather/Support/EnumOptions.h"

namespace gather {

/// The GPU the gathers run on.
enum class GPUKind { None, CUDA };

/// The values of onnx-to-llvm{gpu}.
inline constexpr EnumOptionValue<GPUKind> kGPUKindValues[] = {
    {GPUKind::None, "none", "the CPU"},
    {GPUKind::CUDA, "cuda", "NVIDIA, through the CUDA driver"},
};

/// What a GPU binary embeds (gpu-module-to-binary{format}).
enum class GPUFormat { Isa, Bin, Fatbin };

/// The values of onnx-to-llvm{gpu-format}.
inline constexpr EnumOptionValue<GPUFormat> kGPUFormatValues[] = {
    {GPUFormat::Isa, "isa", "PTX, compiled by the driver"},
    {GPUFormat::Bin, "bin", "a cubin (needs ptxas)"},
    {GPUFormat::Fatbin, "fatbin", "a fatbin (needs ptxas)"},
};

/// Where the buffers of a function's gathers live.
enum class GPUMemory {
  /// On the host: copied in and out around each kernel.
  Host,
  /// On the device already: used as they are.
  Device,
};

/// The values of onnx-to-llvm{gpu-memory} and gather-gpu-kernels{memory}.
inline constexpr EnumOptionValue<GPUMemory> kGPUMemoryValues[] = {
    {GPUMemory::Host, "host", "copied in and out around each kernel"},
    {GPUMemory::Device, "device", "already on the GPU: no copies"},
};

} // namespace gather

#endif // GATHER_GPU_GPUOPTIONS_H
