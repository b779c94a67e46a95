//===- GatherCUDARuntime.h - The CUDA runtime of compiled code --*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libgather_cuda_runtime.so: the `mgpu*` functions that host code lowered by
// MLIR 22 calls (CUDARuntimeFunctions.def, the one table of them), over the
// CUDA driver API, which it opens at run time (dlopen("libcuda.so.1")) at
// its first call: it builds and loads with no CUDA toolkit and no driver,
// and links only libgather_runtime and the C/C++ libraries (no LLVM, no
// MLIR). gather's JIT (gather-runner, compileAndJit) loads it when a module
// calls these functions; programs compiled ahead of time link it
// (`-lgather_cuda_runtime -lgather_runtime`; docs/GPU.md).
//
// Errors. Every driver call is checked. A failure is reported as one
// run-time error through gather's error handlers (GatherRuntime.h: the
// kernel's, if gatherCUDASetReportSite gave one, else the process's), in
// the compiler's form, e.g.
//   error: no CUDA driver/device: cannot load libcuda.so.1 (...) (first
//   needed by mgpuModuleLoadJIT)
//   model.mlir:3:8: error: CUDA: cuMemAlloc failed in mgpuMemAlloc of 4096
//   bytes: CUDA_ERROR_OUT_OF_MEMORY (out of memory)
// The default handler prints it and ends the process with exit status 1 (no
// signal, no abort). When a host's handler returns, the function returns its
// error value (a null handle or pointer; nothing done), gatherCUDAGetError
// keeps the first message, and later calls go on: the driver is opened once
// per process (std::call_once), so a missing driver or device is reported
// once and every later call returns its error value at once. A copy or set
// on a null pointer (left by a failed allocation) is skipped; a launch is
// not (a fault on the device comes back as the driver's error at the next
// synchronization).
//
// Teardown never turns success into failure: the calls that release
// (mgpuModuleUnload, mgpuStreamDestroy, mgpuEventDestroy, mgpuMemFree,
// mgpuMemHostUnregisterMemRef, gatherCUDAUnloadModule) do nothing and
// report nothing when the driver was never opened, and accept
// CUDA_ERROR_DEINITIALIZED (the driver shutting down at process exit,
// before global destructors run) as success.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIME_GATHERCUDARUNTIME_H
#define GATHER_RUNTIME_GATHERCUDARUNTIME_H

#include "gather/Runtime/GatherRuntime.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The functions MLIR's lowering calls (one declaration per row of the
/// table).
#define GATHER_CUDA_RUNTIME_FUNCTION(Name, ResultType, Parameters)             \
  ResultType Name Parameters;
#include "gather/Runtime/CUDARuntimeFunctions.def"

/// How gatherCUDAGetKernel loads a module's bytes.
enum GatherCUDABinaryFormat {
  /// NUL-terminated PTX text (gpu-format isa), compiled by the driver
  /// (mgpuModuleLoadJIT).
  GATHER_CUDA_BINARY_PTX = 0,
  /// A cubin or fatbin (gpu-format bin, fatbin) (mgpuModuleLoad).
  GATHER_CUDA_BINARY_IMAGE = 1
};

/// The kernel `name` of a module, loaded at the first call: code compiled
/// by onnx-to-llvm{gpu=cuda} calls this at each launch (the pass
/// gather-gpu-load-lazily) instead of loading its modules in a global
/// constructor, so that a missing driver is an error of the first GPU call,
/// reported to the handler the host installed, not the end of the process
/// before `main`. `*module` and `*kernel` are the caller's slots (null
/// until loaded; kept for later calls); `binary` holds `size` bytes of
/// `format` (GatherCUDABinaryFormat; PTX must end with a NUL within
/// `size`), loaded at `optLevel` for PTX. Safe from several threads (first
/// calls that race may each load; one module is kept), and from the error
/// handler: no lock is held while it reports. A kernel is used only with
/// its module: after gatherCUDAUnloadModule the next call loads again.
/// Returns the kernel, or null after reporting why not (every call that
/// cannot give one reports).
void *gatherCUDAGetKernel(void **module, void **kernel, const void *binary,
                          int64_t size, int32_t format, int32_t optLevel,
                          const char *name);

/// Unloads the module in `*module` if one was loaded, and sets it to null
/// (the compiled code's global destructor; teardown, see above).
void gatherCUDAUnloadModule(void **module);

/// Opens the driver and checks that it has a device, once per process
/// (what the first call of any function above does). Returns 0 if it has;
/// otherwise reports "no CUDA driver/device: <reason>" (the first time) and
/// returns 1 when the handler returns.
int gatherCUDAInit(void);

/// The number of CUDA devices (>= 1), or -1 after gatherCUDAInit failed.
int32_t gatherCUDAGetDeviceCount(void);

/// Writes a description of `device` into `buffer` (`size` bytes,
/// NUL-terminated, truncated if needed), e.g. "NVIDIA H200, sm_90, 143167 MiB,
/// driver 13.0". Returns 0, or 1 after reporting why not.
int gatherCUDADescribeDevice(int32_t device, char *buffer, size_t size);

/// Makes the errors of this runtime's later calls on this thread reports of
/// `site` (GatherReportSite in GatherRuntime.h: a compiled module's site,
/// whose location starts the message and whose module's error handler gets
/// it); null: no site (`error: ...`, the process's handler). Host code that
/// knows which op its GPU calls come from sets it before them.
void gatherCUDASetReportSite(const GatherReportSite *site);

/// The message of the first error this runtime reported in the process, or
/// null if none; valid until the process ends.
const char *gatherCUDAGetError(void);

/// Kernel timing, for benchmarks. With `enable` non-zero, every later
/// mgpuLaunchKernel of the process records a timing event before and after
/// its kernel on the kernel's stream; with 0 (the default) it records none.
void gatherCUDATimeKernels(int enable);

/// The GPU time of the kernels launched (while timing) since the last call,
/// in milliseconds (cuEventElapsedTime of each launch's events, summed):
/// waits for the last of them. Returns -1 after reporting a failure.
double gatherCUDAGetKernelMilliseconds(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // GATHER_RUNTIME_GATHERCUDARUNTIME_H
