//===- CUDADriver.h - The CUDA driver API, opened at run time ---*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libgather_cuda_runtime's view of the CUDA driver: the types and constants
// of cuda.h it uses (their values are the driver's ABI), the driver's
// functions (CUDADriverFunctions.def) found with dlopen/dlsym once per
// process, the checks of their results and the errors they report, and the
// primary context of each device.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_RUNTIME_CUDA_CUDADRIVER_H
#define GATHER_LIB_RUNTIME_CUDA_CUDADRIVER_H

#include "gather/Runtime/GatherRuntime.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace gather::cuda {

// cuda.h's types.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUjit_option = int;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

// cuda.h's constants.
inline constexpr CUresult CUDA_SUCCESS = 0;
/// The driver is shutting down (at process exit, before global destructors
/// may run).
inline constexpr CUresult CUDA_ERROR_DEINITIALIZED = 4;
inline constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
inline constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;
inline constexpr unsigned CU_MEM_ATTACH_GLOBAL = 0x1;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
inline constexpr CUjit_option CU_JIT_OPTIMIZATION_LEVEL = 7;
inline constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

/// The driver's functions, found in libcuda.so.1.
struct Driver {
#define GATHER_CUDA_DRIVER_FUNCTION(Name, Symbol, Parameters)                  \
  CUresult(*Name) Parameters = nullptr;
#include "CUDADriverFunctions.def"
  /// cuDeviceGetCount's, >= 1.
  int deviceCount = 0;
};

/// The name of the shared library of the CUDA driver.
inline constexpr const char *kDriverLibraryName = "libcuda.so.1";

/// The driver, opened and initialized (cuInit) the first time any thread
/// calls this; null if it cannot be, or has no device. The first call that
/// fails reports "no CUDA driver/device: <reason> (first needed by
/// <caller>)"; later calls return null at once.
const Driver *getDriver(const char *caller);

/// Whether an earlier getDriver opened the driver (never opens it).
bool isDriverOpen();

/// Reports `message` (`CUDA: ...`, or the message of a missing driver) as a
/// run-time error, from the calling thread's site (setReportSite).
void reportError(const std::string &message);

/// Reports `message` unless an error was reported before (a null handle
/// after a failure reported already is no news).
void reportErrorUnlessReported(const std::string &message);

/// How many errors this runtime reported in the process.
uint64_t getReportCount();

/// Whether `result` is CUDA_SUCCESS; otherwise reports "CUDA: <call> failed
/// in <caller><detail>: <CUDA_ERROR_NAME> (<description>)".
bool check(const Driver &driver, CUresult result, const char *call,
           const char *caller, const std::string &detail = "");

/// The primary context of the calling thread's default device (0 unless
/// mgpuSetDefaultDevice says otherwise) current on this thread while alive,
/// as CUDA's runtime API does (made current and left so on a thread with
/// none; pushed over another and popped at the end): false (after reporting
/// why) when there is no driver, no such device, or the context cannot be had.
///
/// For a call that releases (Purpose::Release: unload, destroy, free), a
/// driver that was never opened and a driver shutting down
/// (CUDA_ERROR_DEINITIALIZED, at process exit) are no error: the context
/// is false without a report, and checkRelease accepts the shutdown.
class ScopedContext {
public:
  enum class Purpose { Work, Release };
  explicit ScopedContext(const char *caller, Purpose purpose = Purpose::Work);
  ~ScopedContext();
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;

  explicit operator bool() const { return driver != nullptr; }
  const Driver &operator*() const { return *driver; }
  const Driver *operator->() const { return driver; }
  /// The ordinal of the device (the thread's default device).
  int32_t getOrdinal() const { return ordinal; }
  const char *getCaller() const { return caller; }

  /// check() with this call's driver and caller.
  bool check(CUresult result, const char *call,
             const std::string &detail = "") const {
    return cuda::check(*driver, result, call, caller, detail);
  }

  /// check() of a call that releases: CUDA_ERROR_DEINITIALIZED is success.
  bool checkRelease(CUresult result, const char *call,
                    const std::string &detail = "") const {
    return result == CUDA_ERROR_DEINITIALIZED ||
           cuda::check(*driver, result, call, caller, detail);
  }

private:
  const Driver *driver = nullptr;
  const char *caller;
  int32_t ordinal = 0;
  Purpose purpose;
  /// Whether the context was pushed over another (popped at the end).
  bool pushed = false;
};

/// The calling thread's default device (mgpuSetDefaultDevice).
void setDefaultDevice(int32_t device);

/// The site of this thread's later reports (gatherCUDASetReportSite).
void setReportSite(const GatherReportSite *site);

/// The first message reported (reportError), or null.
const char *getFirstError();

} // namespace gather::cuda

#endif // GATHER_LIB_RUNTIME_CUDA_CUDADRIVER_H
