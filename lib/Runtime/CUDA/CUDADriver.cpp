//===- CUDADriver.cpp - The CUDA driver, opened at run time ---------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CUDADriver.h"
#include "../RuntimeInternal.h"

#include <dlfcn.h>
#include <link.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

using namespace gather::cuda;

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// The site of this thread's reports (gatherCUDASetReportSite).
static thread_local const GatherReportSite *reportSite = nullptr;

static std::mutex firstErrorMutex;
/// The first message reported; never freed, so that gatherCUDAGetError's
/// pointer stays valid until the process ends.
static const std::string *firstError = nullptr;
static std::atomic<uint64_t> reportCount{0};

void gather::cuda::setReportSite(const GatherReportSite *site) {
  reportSite = site;
}

const char *gather::cuda::getFirstError() {
  std::lock_guard<std::mutex> lock(firstErrorMutex);
  return firstError ? firstError->c_str() : nullptr;
}

uint64_t gather::cuda::getReportCount() { return reportCount.load(); }

void gather::cuda::reportError(const std::string &message) {
  ++reportCount;
  {
    std::lock_guard<std::mutex> lock(firstErrorMutex);
    if (!firstError)
      firstError = new std::string(message);
  }
  gatherReportMessageAt(reportSite, message.c_str());
}

void gather::cuda::reportErrorUnlessReported(const std::string &message) {
  if (!getFirstError())
    reportError(message);
}

/// cuda.h's CUDA_ERROR_STUB_LIBRARY: the toolkit's stub libcuda.so (for
/// linking) was loaded instead of the driver; it names no error.
static constexpr CUresult kStubLibraryError = 34;

/// `CUDA_ERROR_NAME (description)` of `result`, or its number if the driver
/// does not know it.
static std::string describeResult(const Driver &driver, CUresult result) {
  const char *name = nullptr;
  const char *description = nullptr;
  if (driver.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    return "CUDA error " + std::to_string(result) +
           (result == kStubLibraryError
                ? " (CUDA_ERROR_STUB_LIBRARY: this libcuda.so.1 is the CUDA "
                  "toolkit's stub, not a driver)"
                : "");
  std::string text = name;
  if (driver.cuGetErrorString(result, &description) == CUDA_SUCCESS &&
      description)
    text += std::string(" (") + description + ")";
  return text;
}

bool gather::cuda::check(const Driver &driver, CUresult result,
                         const char *call, const char *caller,
                         const std::string &detail) {
  if (result == CUDA_SUCCESS)
    return true;
  reportError(std::string("CUDA: ") + call + " failed in " + caller + detail +
              ": " + describeResult(driver, result));
  return false;
}

//===----------------------------------------------------------------------===//
// Opening the driver
//===----------------------------------------------------------------------===//

static Driver driver;
static std::once_flag driverOnce;
/// Whether the driver is usable (set once, by driverOnce).
static std::atomic<bool> driverUsable{false};

/// `libcuda.so.1 (<its path>)`.
static std::string describeLibrary(void *library) {
  struct link_map *map = nullptr;
  std::string text = kDriverLibraryName;
  if (dlinfo(library, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name &&
      map->l_name[0])
    text += std::string(" (") + map->l_name + ")";
  return text;
}

/// Opens libcuda.so.1, finds every function of CUDADriverFunctions.def and
/// initializes the driver; returns why not, or "" when it has a device.
static std::string openDriver() {
  // RTLD_LOCAL: the driver's symbols stay out of the process's namespace.
  void *library = dlopen(kDriverLibraryName, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    return std::string("cannot load ") + kDriverLibraryName + " (" +
           (why ? why : "unknown reason") + ")";
  }
  // (dlsym's result is a data pointer; the driver's are functions.)
#define GATHER_CUDA_DRIVER_FUNCTION(Name, Symbol, Parameters)                  \
  driver.Name =                                                                \
      reinterpret_cast<decltype(driver.Name)>(dlsym(library, #Symbol));        \
  if (!driver.Name)                                                            \
    return describeLibrary(library) +                                          \
           " is not a CUDA driver: it has no " #Symbol;
#include "CUDADriverFunctions.def"
  CUresult result = driver.cuInit(0);
  if (result != CUDA_SUCCESS)
    return "cuInit failed: " + describeResult(driver, result);
  int count = 0;
  result = driver.cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS)
    return "cuDeviceGetCount failed: " + describeResult(driver, result);
  if (count < 1)
    return "the driver finds no device";
  driver.deviceCount = count;
  return "";
}

const Driver *gather::cuda::getDriver(const char *caller) {
  std::call_once(driverOnce, [caller] {
    std::string why = openDriver();
    driverUsable = why.empty();
    if (!driverUsable)
      reportError("no CUDA driver/device: " + why + " (first needed by " +
                  caller + ")");
  });
  return driverUsable ? &driver : nullptr;
}

bool gather::cuda::isDriverOpen() { return driverUsable; }

//===----------------------------------------------------------------------===//
// Contexts
//===----------------------------------------------------------------------===//

/// The calling thread's default device (mgpuSetDefaultDevice).
static thread_local int32_t defaultDevice = 0;

void gather::cuda::setDefaultDevice(int32_t device) { defaultDevice = device; }

static std::mutex contextsMutex;
/// Each device's primary context, retained at its first use (never
/// released: the process keeps its modules and memory until it ends).
static std::vector<CUcontext> primaryContexts;

/// The primary context of `device`, or null after reporting why not.
static CUcontext getPrimaryContext(const Driver &driver, CUdevice ordinal,
                                   const char *caller) {
  if (ordinal < 0 || ordinal >= driver.deviceCount) {
    reportError("CUDA: " + std::string(caller) + " runs on device " +
                std::to_string(ordinal) +
                " (mgpuSetDefaultDevice), but the driver has " +
                std::to_string(driver.deviceCount) + " device" +
                (driver.deviceCount == 1 ? "" : "s"));
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(contextsMutex);
  primaryContexts.resize(driver.deviceCount, nullptr);
  CUcontext &context = primaryContexts[ordinal];
  if (context)
    return context;
  CUdevice device = 0;
  if (!check(driver, driver.cuDeviceGet(&device, ordinal), "cuDeviceGet",
             caller) ||
      !check(driver, driver.cuDevicePrimaryCtxRetain(&context, device),
             "cuDevicePrimaryCtxRetain", caller))
    context = nullptr;
  return context;
}

/// The primary context of `ordinal` if one was retained, else null (what a
/// release needs: nothing was made in a context never retained).
static CUcontext findPrimaryContext(CUdevice ordinal) {
  std::lock_guard<std::mutex> lock(contextsMutex);
  if (ordinal < 0 || static_cast<size_t>(ordinal) >= primaryContexts.size())
    return nullptr;
  return primaryContexts[ordinal];
}

ScopedContext::ScopedContext(const char *caller, Purpose purpose)
    : caller(caller), purpose(purpose) {
  // Nothing to release from a driver that never opened.
  if (purpose == Purpose::Release && !isDriverOpen())
    return;
  const Driver *opened = getDriver(caller);
  if (!opened)
    return;
  ordinal = defaultDevice;
  CUcontext context = purpose == Purpose::Release
                          ? findPrimaryContext(ordinal)
                          : getPrimaryContext(*opened, ordinal, caller);
  if (!context)
    return;
  // One driver call when the context is current already (the steady state:
  // the first call on a thread without a current context makes it current
  // and leaves it so, as CUDA's runtime API does); a context the host made
  // current is pushed over and restored.
  CUcontext current = nullptr;
  CUresult result = opened->cuCtxGetCurrent(&current);
  if (result == CUDA_SUCCESS && current == context) {
    driver = opened;
    return;
  }
  const char *call = "cuCtxGetCurrent";
  if (result == CUDA_SUCCESS) {
    pushed = current != nullptr;
    call = pushed ? "cuCtxPushCurrent" : "cuCtxSetCurrent";
    result = pushed ? opened->cuCtxPushCurrent(context)
                    : opened->cuCtxSetCurrent(context);
  }
  if (purpose == Purpose::Release && result == CUDA_ERROR_DEINITIALIZED)
    return; // Shutting down: what it held is gone with it.
  if (cuda::check(*opened, result, call, caller))
    driver = opened;
}

ScopedContext::~ScopedContext() {
  if (!driver || !pushed)
    return;
  CUcontext popped = nullptr;
  CUresult result = driver->cuCtxPopCurrent(&popped);
  if (purpose == Purpose::Release)
    (void)checkRelease(result, "cuCtxPopCurrent");
  else
    (void)check(result, "cuCtxPopCurrent");
}
