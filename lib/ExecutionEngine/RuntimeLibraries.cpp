//===- RuntimeLibraries.cpp - Runtime libraries for JIT code --------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/ExecutionEngine/RuntimeLibraries.h"
#include "gather/Runtime/GatherRuntime.h"
#include "gather/RuntimeABI/RuntimeABI.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>
#include <mutex>

using namespace mlir;

bool gather::usesCUDARuntime(ModuleOp module) {
  WalkResult found = module->walk([](Operation *op) {
    if (isa<gpu::BinaryOp, gpu::LaunchFuncOp>(op))
      return WalkResult::interrupt();
    if (auto function = dyn_cast<FunctionOpInterface>(op))
      if (isCUDARuntimeFunctionName(function.getName()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

std::string gather::getRuntimeLibraryPath() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&gatherSetErrorHandler), &info) &&
      info.dli_fname)
    return info.dli_fname;
  return "";
}

std::string gather::findNextToRuntime(llvm::StringRef name) {
  std::string runtime = getRuntimeLibraryPath();
  if (!runtime.empty()) {
    llvm::SmallString<256> path(llvm::sys::path::parent_path(runtime));
    llvm::sys::path::append(path, name);
    if (llvm::sys::fs::exists(path))
      return path.str().str();
  }
  return name.str();
}

llvm::Error gather::loadRuntimeLibraries(ModuleOp module) {
  if (!usesCUDARuntime(module))
    return llvm::Error::success();
  // Loaded once; the outcome is kept for later modules.
  static std::once_flag once;
  static std::string failure;
  std::call_once(once, [] {
    std::string path = findNextToRuntime(kCUDARuntimeLibraryName);
    std::string why;
    if (llvm::sys::DynamicLibrary::LoadLibraryPermanently(path.c_str(), &why))
      failure = "cannot load gather's CUDA runtime '" + path + "': " + why;
  });
  if (failure.empty())
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 failure + " (the module runs on the GPU)");
}
