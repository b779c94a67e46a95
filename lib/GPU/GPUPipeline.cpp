//===- GPUPipeline.cpp - The passes of a GPU target -----------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/GPU/GPUTarget.h"
#include "gather/GPU/Passes.h"
#include "gather/Support/EnumOptions.h"

#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void gather::addGPUKernelPasses(OpPassManager &pm, const GPUTarget &target) {
  // Each gather: device buffers, copies, one gpu.launch with the index
  // check fused, copies back.
  GPUKernelsPassOptions kernelOptions;
  kernelOptions.memory = target.memory;
  pm.addNestedPass<func::FuncOp>(createGPUKernelsPass(kernelOptions));
  pm.addPass(createGpuKernelOutliningPass());
  // The NVPTX data layout: an i64 index value is one 64-bit load, not two
  // 32-bit ones (docs/GPU.md).
  pm.addPass(createGPUDataLayoutPass());
  GpuNVVMAttachTargetOptions targetOptions;
  targetOptions.chip = target.chip;
  targetOptions.features = target.features;
  pm.addPass(createGpuNVVMAttachTarget(targetOptions));
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createSCFToControlFlowPass());
  device.addPass(createConvertGpuOpsToNVVMOps());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
  // ld.global.nc for data and indices.
  device.addPass(createGPUReadOnlyLoadsPass());
}

void gather::addGPUToLLVMPasses(OpPassManager &pm, const GPUTarget &target) {
  // The host's gpu ops (alloc, memcpy, launch_func, ...) with the rest,
  // then each kernel module serialized into a gpu.binary.
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binaryOptions;
  binaryOptions.compilationTarget =
      stringifyEnumOption(kGPUFormatValues, target.format).str();
  pm.addPass(createGpuModuleToBinaryPass(binaryOptions));
  // Each module loaded at its first launch, not by a global constructor.
  pm.addPass(createGPULoadLazilyPass());
}
