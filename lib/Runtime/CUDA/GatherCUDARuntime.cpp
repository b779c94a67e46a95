//===- GatherCUDARuntime.cpp - MLIR's mgpu* functions over the driver -----===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The functions of CUDARuntimeFunctions.def (their declarations in
// GatherCUDARuntime.h make any difference from the table a compile error)
// and gather's own gatherCUDA* functions. Each takes the primary context of
// the thread's default device for the duration of the call and checks every
// driver call (CUDADriver.h); on a failure it returns its error value.
//
//===----------------------------------------------------------------------===//

#include "gather/Runtime/GatherCUDARuntime.h"
#include "CUDADriver.h"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

using namespace gather::cuda;

/// ` of <n> bytes`, the detail of a failed memory call.
static std::string ofBytes(uint64_t bytes) {
  return " of " + std::to_string(bytes) + " bytes";
}

static CUdeviceptr toDevicePointer(const void *pointer) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(pointer));
}

/// No detail for a failed call's message.
static std::string noDetail() { return ""; }

/// The shape of most functions here: one driver call, `call(driver)`, in
/// the primary context of the thread's device (ScopedContext, on behalf of
/// `caller`), checked as `name` with `detail()` (called only on a failure:
/// no string is built on the way that works). Whether the context was had
/// and the call succeeded; every failure is reported.
template <typename Call, typename Detail = std::string (*)()>
static bool callInContext(const char *caller, const char *name, Call &&call,
                          Detail detail = noDetail) {
  ScopedContext context(caller);
  if (!context)
    return false;
  CUresult result = call(*context);
  return result == CUDA_SUCCESS || context.check(result, name, detail());
}

/// callInContext for a call that releases (ScopedContext::Purpose::Release):
/// nothing happens without an open driver, and a driver shutting down is no
/// error.
template <typename Call, typename Detail = std::string (*)()>
static void releaseInContext(const char *caller, const char *name, Call &&call,
                             Detail detail = noDetail) {
  ScopedContext context(caller, ScopedContext::Purpose::Release);
  if (!context)
    return;
  CUresult result = call(*context);
  if (result != CUDA_SUCCESS)
    (void)context.checkRelease(result, name, detail());
}

//===----------------------------------------------------------------------===//
// Kernel timing (gatherCUDATimeKernels)
//===----------------------------------------------------------------------===//

namespace {
/// The timing events of the kernels launched since the last
/// gatherCUDAGetKernelMilliseconds: (before, after) per launch.
struct KernelTimes {
  std::atomic<bool> enabled{false};
  std::mutex mutex;
  std::vector<std::pair<CUevent, CUevent>> launches;
};
} // namespace

static KernelTimes &getKernelTimes() {
  static auto *times = new KernelTimes();
  return *times;
}

/// A timing event recorded on `stream` in `context`, or null (reported).
static CUevent recordTimingEvent(ScopedContext &context, CUstream stream) {
  CUevent event = nullptr;
  if (!context.check(context->cuEventCreate(&event, 0), "cuEventCreate",
                     " (a timing event)"))
    return nullptr;
  if (!context.check(context->cuEventRecord(event, stream), "cuEventRecord",
                     " (a timing event)")) {
    (void)context->cuEventDestroy(event);
    return nullptr;
  }
  return event;
}

extern "C" void gatherCUDATimeKernels(int enable) {
  getKernelTimes().enabled = enable != 0;
}

extern "C" double gatherCUDAGetKernelMilliseconds(void) {
  KernelTimes &times = getKernelTimes();
  std::vector<std::pair<CUevent, CUevent>> launches;
  {
    std::lock_guard<std::mutex> lock(times.mutex);
    launches.swap(times.launches);
  }
  if (launches.empty())
    return 0;
  ScopedContext context("gatherCUDAGetKernelMilliseconds");
  if (!context)
    return -1;
  double total = 0;
  bool ok = true;
  for (auto [before, after] : launches) {
    float milliseconds = 0;
    ok =
        ok &&
        context.check(context->cuEventSynchronize(after), "cuEventSynchronize",
                      " (a timing event)") &&
        context.check(context->cuEventElapsedTime(&milliseconds, before, after),
                      "cuEventElapsedTime");
    total += milliseconds;
    (void)context->cuEventDestroy(before);
    (void)context->cuEventDestroy(after);
  }
  return ok ? total : -1;
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

extern "C" void *mgpuModuleLoad(const void *data, uint64_t size) {
  CUmodule module = nullptr;
  bool loaded = callInContext(
      "mgpuModuleLoad", "cuModuleLoadData",
      [&](const Driver &driver) {
        return driver.cuModuleLoadData(&module, data);
      },
      [&] { return " of a " + std::to_string(size) + "-byte binary"; });
  return loaded ? module : nullptr;
}

extern "C" void *mgpuModuleLoadJIT(const void *data, int32_t optLevel) {
  ScopedContext context("mgpuModuleLoadJIT");
  if (!context)
    return nullptr;
  // The driver's PTX compiler writes what it rejects into the log.
  char log[8192] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUmodule module = nullptr;
  CUresult result =
      context->cuModuleLoadDataEx(&module, data, 3, options, values);
  log[sizeof(log) - 1] = 0;
  if (result != CUDA_SUCCESS &&
      !context.check(result, "cuModuleLoadDataEx",
                     std::string(" (PTX at optimization level ") +
                         std::to_string(optLevel) + ")" +
                         (log[0] ? std::string("; its log: ") + log : "")))
    return nullptr;
  return module;
}

extern "C" void mgpuModuleUnload(void *module) {
  if (!module)
    return;
  releaseInContext(
      "mgpuModuleUnload", "cuModuleUnload", [&](const Driver &driver) {
        return driver.cuModuleUnload(static_cast<CUmodule>(module));
      });
}

extern "C" void *mgpuModuleGetFunction(void *module, const char *name) {
  auto kernel = [&] {
    return std::string(" of kernel '") + (name ? name : "") + "'";
  };
  if (!module) {
    reportErrorUnlessReported("CUDA: mgpuModuleGetFunction" + kernel() +
                              " has no module (it did not load)");
    return nullptr;
  }
  CUfunction function = nullptr;
  bool found = callInContext(
      "mgpuModuleGetFunction", "cuModuleGetFunction",
      [&](const Driver &driver) {
        return driver.cuModuleGetFunction(&function,
                                          static_cast<CUmodule>(module), name);
      },
      kernel);
  return found ? function : nullptr;
}

extern "C" void mgpuLaunchKernel(void *function, int64_t gridX, int64_t gridY,
                                 int64_t gridZ, int64_t blockX, int64_t blockY,
                                 int64_t blockZ, int32_t sharedMemoryBytes,
                                 void *stream, void **params, void **extra,
                                 int64_t /*paramsCount*/) {
  // The launch's shape, for messages only (no string per launch).
  auto shape = [&] {
    return " of " + std::to_string(gridX) + "x" + std::to_string(gridY) + "x" +
           std::to_string(gridZ) + " blocks of " + std::to_string(blockX) +
           "x" + std::to_string(blockY) + "x" + std::to_string(blockZ) +
           " threads";
  };
  if (!function) {
    reportErrorUnlessReported("CUDA: mgpuLaunchKernel" + shape() +
                              " has no kernel (its module did not load)");
    return;
  }
  for (int64_t size : {gridX, gridY, gridZ, blockX, blockY, blockZ})
    if (size < 1 || size > UINT32_MAX) {
      reportError("CUDA: mgpuLaunchKernel" + shape() +
                  ": every size must be in [1, 4294967295]");
      return;
    }
  if (sharedMemoryBytes < 0) {
    reportError("CUDA: mgpuLaunchKernel" + shape() + " with " +
                std::to_string(sharedMemoryBytes) + " bytes of shared memory");
    return;
  }
  ScopedContext context("mgpuLaunchKernel");
  if (!context)
    return;
  auto *kernel = static_cast<CUfunction>(function);
  if (sharedMemoryBytes > 0) {
    // Beyond 48 KiB a kernel must opt in, up to the device's limit.
    CUdevice device = 0;
    int limit = 0;
    if (!context.check(context->cuDeviceGet(&device, context.getOrdinal()),
                       "cuDeviceGet") ||
        !context.check(
            context->cuDeviceGetAttribute(
                &limit, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                device),
            "cuDeviceGetAttribute"))
      return;
    if (sharedMemoryBytes > limit) {
      reportError("CUDA: mgpuLaunchKernel" + shape() + " requests " +
                  std::to_string(sharedMemoryBytes) +
                  " bytes of shared memory; the device allows " +
                  std::to_string(limit));
      return;
    }
    if (!context.check(context->cuFuncSetAttribute(
                           kernel,
                           CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                           sharedMemoryBytes),
                       "cuFuncSetAttribute", shape()))
      return;
  }
  KernelTimes &times = getKernelTimes();
  CUevent before = nullptr;
  if (times.enabled &&
      !(before = recordTimingEvent(context, static_cast<CUstream>(stream))))
    return;
  CUresult result = context->cuLaunchKernel(
      kernel, static_cast<unsigned>(gridX), static_cast<unsigned>(gridY),
      static_cast<unsigned>(gridZ), static_cast<unsigned>(blockX),
      static_cast<unsigned>(blockY), static_cast<unsigned>(blockZ),
      static_cast<unsigned>(sharedMemoryBytes), static_cast<CUstream>(stream),
      params, extra);
  bool launched = result == CUDA_SUCCESS ||
                  context.check(result, "cuLaunchKernel", shape());
  if (!before)
    return;
  CUevent after =
      launched ? recordTimingEvent(context, static_cast<CUstream>(stream))
               : nullptr;
  if (!after) {
    (void)context->cuEventDestroy(before);
    return;
  }
  std::lock_guard<std::mutex> lock(times.mutex);
  times.launches.emplace_back(before, after);
}

extern "C" void *gatherCUDAGetKernel(void **module, void **kernel,
                                     const void *binary, int64_t size,
                                     int32_t format, int32_t optLevel,
                                     const char *name) {
  uint64_t reportsBefore = getReportCount();
  auto failed = [&](const char *why) -> void * {
    // Every call that gives no kernel reports, once: the load's own report
    // if it made one, otherwise this (with why the driver is missing, when
    // it did not open).
    if (getReportCount() == reportsBefore)
      reportError(std::string("CUDA: kernel '") + (name ? name : "") +
                  "' not launched: " + why +
                  (!isDriverOpen() && getFirstError()
                       ? std::string(" (") + getFirstError() + ")"
                       : ""));
    return nullptr;
  };
  if (!module || !kernel || !binary || !name || size <= 0)
    return failed("gatherCUDAGetKernel has a null slot, binary or name, or "
                  "no bytes");
  if (format != GATHER_CUDA_BINARY_PTX && format != GATHER_CUDA_BINARY_IMAGE)
    return failed("its module has an unknown format");
  if (format == GATHER_CUDA_BINARY_PTX &&
      static_cast<const char *>(binary)[size - 1] != 0)
    return failed("its PTX does not end with a NUL within its size");
  // The slots are read and written atomically and no lock is held while a
  // load reports (a handler may exit, and the destructor unload, or call
  // here again): two threads that both find no module load one each, and
  // the one that loses keeps the winner's and unloads its own. A kernel is
  // kept only with its module: after gatherCUDAUnloadModule both load again.
  void *loaded = __atomic_load_n(module, __ATOMIC_ACQUIRE);
  if (void *found = __atomic_load_n(kernel, __ATOMIC_ACQUIRE); found && loaded)
    return found;
  if (!loaded) {
    void *mine = format == GATHER_CUDA_BINARY_PTX
                     ? mgpuModuleLoadJIT(binary, optLevel)
                     : mgpuModuleLoad(binary, static_cast<uint64_t>(size));
    if (!mine)
      return failed("its module did not load");
    void *expected = nullptr;
    if (__atomic_compare_exchange_n(module, &expected, mine, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      loaded = mine;
    } else {
      mgpuModuleUnload(mine);
      loaded = expected;
    }
  }
  void *function = mgpuModuleGetFunction(loaded, name);
  if (!function)
    return failed("its module has no such kernel");
  __atomic_store_n(kernel, function, __ATOMIC_RELEASE);
  return function;
}

extern "C" void gatherCUDAUnloadModule(void **module) {
  if (!module)
    return;
  mgpuModuleUnload(__atomic_exchange_n(module, nullptr, __ATOMIC_ACQ_REL));
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

namespace {
/// The streams mgpuStreamCreate made, and those mgpuStreamDestroy gave back
/// for the next mgpuStreamCreate on the same device: a gather call creates
/// and destroys a stream, and a driver call pair per call is what the pool
/// saves. A stream given back may still run work; work queued on it later
/// runs after that (stream order), so reuse is safe. Pooled streams are
/// never destroyed (the process keeps them, as it keeps the primary
/// contexts); a stream the pool did not make is destroyed as the driver's.
struct StreamPool {
  std::mutex mutex;
  /// The device of each stream the pool made.
  std::unordered_map<CUstream, int32_t> device;
  /// Per device, the streams given back.
  std::vector<std::vector<CUstream>> free;
  /// The streams given back (a second give-back is ignored).
  std::unordered_set<CUstream> isFree;
};
} // namespace

static StreamPool &getStreamPool() {
  static auto *pool = new StreamPool();
  return *pool;
}

extern "C" void *mgpuStreamCreate(void) {
  ScopedContext context("mgpuStreamCreate");
  if (!context)
    return nullptr;
  StreamPool &pool = getStreamPool();
  auto ordinal = static_cast<size_t>(context.getOrdinal());
  {
    std::lock_guard<std::mutex> lock(pool.mutex);
    if (ordinal < pool.free.size() && !pool.free[ordinal].empty()) {
      CUstream stream = pool.free[ordinal].back();
      pool.free[ordinal].pop_back();
      pool.isFree.erase(stream);
      return stream;
    }
  }
  CUstream stream = nullptr;
  CUresult result = context->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
  if (result != CUDA_SUCCESS && !context.check(result, "cuStreamCreate"))
    return nullptr;
  std::lock_guard<std::mutex> lock(pool.mutex);
  pool.device[stream] = context.getOrdinal();
  return stream;
}

extern "C" void mgpuStreamSynchronize(void *stream) {
  (void)callInContext("mgpuStreamSynchronize", "cuStreamSynchronize",
                      [&](const Driver &driver) {
                        return driver.cuStreamSynchronize(
                            static_cast<CUstream>(stream));
                      });
}

extern "C" void mgpuStreamDestroy(void *stream) {
  if (!stream)
    return;
  // A stream the pool made goes back to its device's pool (no driver call;
  // a second give-back is ignored); another is the driver's to destroy.
  StreamPool &pool = getStreamPool();
  {
    std::lock_guard<std::mutex> lock(pool.mutex);
    auto made = pool.device.find(static_cast<CUstream>(stream));
    if (made != pool.device.end()) {
      if (pool.isFree.insert(made->first).second) {
        auto ordinal = static_cast<size_t>(made->second);
        if (pool.free.size() <= ordinal)
          pool.free.resize(ordinal + 1);
        pool.free[ordinal].push_back(made->first);
      }
      return;
    }
  }
  releaseInContext(
      "mgpuStreamDestroy", "cuStreamDestroy", [&](const Driver &driver) {
        return driver.cuStreamDestroy(static_cast<CUstream>(stream));
      });
}

extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {
  (void)callInContext(
      "mgpuStreamWaitEvent", "cuStreamWaitEvent", [&](const Driver &driver) {
        return driver.cuStreamWaitEvent(static_cast<CUstream>(stream),
                                        static_cast<CUevent>(event), 0);
      });
}

extern "C" void *mgpuEventCreate(void) {
  CUevent event = nullptr;
  bool created = callInContext(
      "mgpuEventCreate", "cuEventCreate", [&](const Driver &driver) {
        return driver.cuEventCreate(&event, CU_EVENT_DISABLE_TIMING);
      });
  return created ? event : nullptr;
}

extern "C" void mgpuEventDestroy(void *event) {
  if (!event)
    return;
  releaseInContext("mgpuEventDestroy", "cuEventDestroy",
                   [&](const Driver &driver) {
                     return driver.cuEventDestroy(static_cast<CUevent>(event));
                   });
}

extern "C" void mgpuEventSynchronize(void *event) {
  (void)callInContext(
      "mgpuEventSynchronize", "cuEventSynchronize", [&](const Driver &driver) {
        return driver.cuEventSynchronize(static_cast<CUevent>(event));
      });
}

extern "C" void mgpuEventRecord(void *event, void *stream) {
  (void)callInContext(
      "mgpuEventRecord", "cuEventRecord", [&](const Driver &driver) {
        return driver.cuEventRecord(static_cast<CUevent>(event),
                                    static_cast<CUstream>(stream));
      });
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// cuda.h's CUDA_ERROR_NOT_SUPPORTED: a device without memory pools.
static constexpr CUresult kNotSupported = 801;

extern "C" void *mgpuMemAlloc(uint64_t bytes, void *stream,
                              uint8_t isHostShared) {
  if (bytes == 0)
    return nullptr;
  CUdeviceptr pointer = 0;
  // On a stream: stream-ordered, from the device's memory pool (no device
  // synchronization, memory reused across calls); a device without pools
  // falls back to cuMemAlloc.
  bool ordered = stream && !isHostShared;
  bool allocated = callInContext(
      "mgpuMemAlloc",
      isHostShared ? "cuMemAllocManaged"
                   : (ordered ? "cuMemAllocAsync" : "cuMemAlloc"),
      [&](const Driver &driver) {
        if (isHostShared)
          return driver.cuMemAllocManaged(&pointer, bytes,
                                          CU_MEM_ATTACH_GLOBAL);
        if (ordered) {
          CUresult result = driver.cuMemAllocAsync(
              &pointer, bytes, static_cast<CUstream>(stream));
          if (result != kNotSupported)
            return result;
        }
        return driver.cuMemAlloc(&pointer, bytes);
      },
      [&] { return ofBytes(bytes); });
  if (!allocated)
    return nullptr;
  return reinterpret_cast<void *>(static_cast<uintptr_t>(pointer));
}

extern "C" void mgpuMemFree(void *pointer, void *stream) {
  if (!pointer)
    return;
  // On a stream: stream-ordered, back to the pool once the stream's work
  // before it is done. Without one (a host freeing what a call returned):
  // cuMemFree, which frees either kind.
  releaseInContext("mgpuMemFree", stream ? "cuMemFreeAsync" : "cuMemFree",
                   [&](const Driver &driver) {
                     if (stream) {
                       CUresult result =
                           driver.cuMemFreeAsync(toDevicePointer(pointer),
                                                 static_cast<CUstream>(stream));
                       if (result != kNotSupported)
                         return result;
                     }
                     return driver.cuMemFree(toDevicePointer(pointer));
                   });
}

/// Whether `pointer`, the memory of a `bytes`-byte copy or set by
/// `caller`, is not null; otherwise reports it unless an error was reported
/// before (an allocation that failed: the host's handler went on).
static bool checkNotNull(const void *pointer, const char *caller,
                         uint64_t bytes) {
  if (pointer)
    return true;
  reportErrorUnlessReported(std::string("CUDA: ") + caller + ofBytes(bytes) +
                            " with a null pointer");
  return false;
}

extern "C" void mgpuMemcpy(void *destination, const void *source,
                           uint64_t bytes, void *stream) {
  if (bytes == 0 || !checkNotNull(destination, "mgpuMemcpy", bytes) ||
      !checkNotNull(source, "mgpuMemcpy", bytes))
    return;
  (void)callInContext(
      "mgpuMemcpy", "cuMemcpyAsync",
      [&](const Driver &driver) {
        return driver.cuMemcpyAsync(toDevicePointer(destination),
                                    toDevicePointer(source), bytes,
                                    static_cast<CUstream>(stream));
      },
      [&] { return ofBytes(bytes); });
}

/// mgpuMemset32 and mgpuMemset16: `count` elements of `value` at
/// `destination`, by the driver function `select(driver)` named `name`.
template <typename Element, typename Select>
static void setMemory(const char *caller, const char *name, Select select,
                      void *destination, Element value, uint64_t count,
                      void *stream) {
  uint64_t bytes = count * sizeof(Element);
  if (count == 0 || !checkNotNull(destination, caller, bytes))
    return;
  (void)callInContext(
      caller, name,
      [&](const Driver &driver) {
        return select(driver)(toDevicePointer(destination), value, count,
                              static_cast<CUstream>(stream));
      },
      [&] { return ofBytes(bytes); });
}

extern "C" void mgpuMemset32(void *destination, uint32_t value, uint64_t count,
                             void *stream) {
  setMemory(
      "mgpuMemset32", "cuMemsetD32Async",
      [](const Driver &driver) { return driver.cuMemsetD32Async; }, destination,
      value, count, stream);
}

extern "C" void mgpuMemset16(void *destination, uint16_t value, uint64_t count,
                             void *stream) {
  setMemory(
      "mgpuMemset16", "cuMemsetD16Async",
      [](const Driver &driver) { return driver.cuMemsetD16Async; }, destination,
      value, count, stream);
}

namespace {
/// The start of a ranked memref descriptor, as MLIR lowers one: allocated
/// and aligned pointers, offset, then sizes[rank] and strides[rank].
struct MemRefDescriptor {
  void *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1]; // (2 * rank in the caller's descriptor.)
};
} // namespace

/// The host memory of the dense memref `descriptor` and its size in bytes;
/// false after reporting if it is not dense.
static bool getDenseMemory(const char *caller, int64_t rank,
                           const void *descriptor, int64_t elementSizeBytes,
                           void *&start, uint64_t &bytes) {
  const auto *memref = static_cast<const MemRefDescriptor *>(descriptor);
  const int64_t *sizes = memref->sizesAndStrides;
  const int64_t *strides = sizes + rank;
  int64_t elements = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (sizes[d] > 1 && strides[d] != elements) {
      reportError(std::string("CUDA: ") + caller +
                  ": the memref is not dense (dimension " + std::to_string(d) +
                  " has stride " + std::to_string(strides[d]) + ", not " +
                  std::to_string(elements) + ")");
      return false;
    }
    elements *= sizes[d];
  }
  start = memref->aligned + memref->offset * elementSizeBytes;
  bytes = static_cast<uint64_t>(elements) * elementSizeBytes;
  return true;
}

extern "C" void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                          int64_t elementSizeBytes) {
  void *start = nullptr;
  uint64_t bytes = 0;
  if (!getDenseMemory("mgpuMemHostRegisterMemRef", rank, descriptor,
                      elementSizeBytes, start, bytes) ||
      bytes == 0)
    return;
  (void)callInContext(
      "mgpuMemHostRegisterMemRef", "cuMemHostRegister",
      [&](const Driver &driver) {
        return driver.cuMemHostRegister(start, bytes, 0);
      },
      [&] { return ofBytes(bytes); });
}

extern "C" void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                            int64_t elementSizeBytes) {
  void *start = nullptr;
  uint64_t bytes = 0;
  if (!getDenseMemory("mgpuMemHostUnregisterMemRef", rank, descriptor,
                      elementSizeBytes, start, bytes) ||
      bytes == 0)
    return;
  releaseInContext(
      "mgpuMemHostUnregisterMemRef", "cuMemHostUnregister",
      [&](const Driver &driver) { return driver.cuMemHostUnregister(start); },
      [&] { return ofBytes(bytes); });
}

extern "C" void mgpuSetDefaultDevice(int32_t device) {
  setDefaultDevice(device);
}

//===----------------------------------------------------------------------===//
// gather's own functions
//===----------------------------------------------------------------------===//

extern "C" int gatherCUDAInit(void) {
  return getDriver("gatherCUDAInit") ? 0 : 1;
}

extern "C" int32_t gatherCUDAGetDeviceCount(void) {
  const Driver *driver = getDriver("gatherCUDAGetDeviceCount");
  return driver ? driver->deviceCount : -1;
}

extern "C" int gatherCUDADescribeDevice(int32_t ordinal, char *buffer,
                                        size_t size) {
  const char *caller = "gatherCUDADescribeDevice";
  const Driver *driver = getDriver(caller);
  if (!driver)
    return 1;
  if (ordinal < 0 || ordinal >= driver->deviceCount) {
    reportError("CUDA: " + std::string(caller) + ": no device " +
                std::to_string(ordinal) + " (the driver has " +
                std::to_string(driver->deviceCount) + ")");
    return 1;
  }
  CUdevice device = 0;
  char name[256] = {0};
  int major = 0, minor = 0, version = 0;
  size_t memory = 0;
  if (!check(*driver, driver->cuDeviceGet(&device, ordinal), "cuDeviceGet",
             caller) ||
      !check(*driver, driver->cuDeviceGetName(name, sizeof(name) - 1, device),
             "cuDeviceGetName", caller) ||
      !check(*driver,
             driver->cuDeviceGetAttribute(
                 &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
             "cuDeviceGetAttribute", caller) ||
      !check(*driver,
             driver->cuDeviceGetAttribute(
                 &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
             "cuDeviceGetAttribute", caller) ||
      !check(*driver, driver->cuDeviceTotalMem(&memory, device),
             "cuDeviceTotalMem", caller) ||
      !check(*driver, driver->cuDriverGetVersion(&version),
             "cuDriverGetVersion", caller))
    return 1;
  if (buffer && size > 0)
    std::snprintf(buffer, size, "%s, sm_%d%d, %zu MiB, driver %d.%d", name,
                  major, minor, memory >> 20, version / 1000,
                  (version % 1000) / 10);
  return 0;
}

extern "C" void gatherCUDASetReportSite(const GatherReportSite *site) {
  setReportSite(site);
}

extern "C" const char *gatherCUDAGetError(void) { return getFirstError(); }
