//===- Passes.h - GPU passes of gather --------------------------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Declares every pass in include/gather/GPU/Passes.td (one create<Name>()
// per def, with its options struct) and registerGatherGPUPasses() for
// tools. The pipeline that runs them: onnx-to-llvm{gpu=cuda}
// (gather/Pipelines/Pipelines.h, docs/GPU.md).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_GPU_PASSES_H
#define GATHER_GPU_PASSES_H

#include "gather/GPU/GPUOptions.h"
#include "gather/Support/PassOptions.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/StringRef.h"

namespace gather {

/// The data layout LLVM 22's NVPTX backend gives `nvptx64-nvidia-cuda`
/// (NVPTXTargetMachine); gather-gpu-data-layout puts it on device modules.
inline constexpr llvm::StringLiteral kNVPTX64DataLayout =
    "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64";

#define GEN_PASS_DECL
#include "gather/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/GPU/Passes.h.inc"

} // namespace gather

#endif // GATHER_GPU_PASSES_H
