//===- RuntimeLibraries.h - Runtime libraries for JIT code ------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime libraries that JIT-compiled code may call but that the hosts
// (gather-runner, the kernel API) do not link: they are loaded into the
// process, where the ExecutionEngine resolves symbols, only when a module
// needs them. Today: libgather_cuda_runtime (GatherCUDARuntime.h), which a
// host that never runs GPU code neither loads nor lets open libcuda.so.1.
// (libgather_runtime, libomp and libgather_mpi_runtime are linked into the
// hosts: JitCompiler.h.)
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_EXECUTIONENGINE_RUNTIMELIBRARIES_H
#define GATHER_EXECUTIONENGINE_RUNTIMELIBRARIES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace gather {

/// Whether `module` (in any dialects on its way to LLVM IR) calls
/// libgather_cuda_runtime: it declares one of its functions
/// (isCUDARuntimeFunctionName in gather/RuntimeABI/RuntimeABI.h), or holds a
/// gpu.binary or gpu.launch_func, whose translation to LLVM IR calls them.
bool usesCUDARuntime(mlir::ModuleOp module);

/// The path of the libgather_runtime.so this process uses (dladdr of one of
/// its functions), or "" if the loader does not say.
std::string getRuntimeLibraryPath();

/// `name` (e.g. kCUDARuntimeLibraryName) in the directory of
/// getRuntimeLibraryPath() if it is there; else `name` alone (the loader's
/// search path). gather's runtime libraries are installed side by side.
std::string findNextToRuntime(llvm::StringRef name);

/// Loads into the process, once, the runtime libraries `module` needs
/// (usesCUDARuntime: libgather_cuda_runtime.so, looked up in the directory
/// of the libgather_runtime.so this process uses, then on the loader's
/// path); nothing for a module that needs none. Fails with a message naming
/// the library and why it cannot be loaded. Thread-safe.
llvm::Error loadRuntimeLibraries(mlir::ModuleOp module);

} // namespace gather

#endif // GATHER_EXECUTIONENGINE_RUNTIMELIBRARIES_H
