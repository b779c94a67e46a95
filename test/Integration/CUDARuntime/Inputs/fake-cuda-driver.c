// A stand-in for the CUDA driver (libcuda.so.1) for the tests of gather's
// CUDA runtime on machines without a GPU: every function of the runtime's
// table (lib/Runtime/CUDA/CUDADriverFunctions.def) succeeds without doing
// anything, except where the environment variable GATHER_FAKE_CUDA says:
//   no-device       cuInit fails with CUDA_ERROR_NO_DEVICE
//   zero-devices    cuDeviceGetCount finds no device
//   bad-ptx         cuModuleLoadDataEx rejects the PTX (with a JIT log)
//   out-of-memory   cuMemAlloc fails with CUDA_ERROR_OUT_OF_MEMORY
//   launch-fails    cuLaunchKernel fails with CUDA_ERROR_LAUNCH_FAILED
//   first-bad-0     every copy of 8 bytes (the fused check's first bad
//                   position) reads 0, as if a kernel had found position 0
//                   out of range
//   deinit-at-exit  as the real driver may at process exit: the driver shuts
//                   down (an atexit handler registered by cuInit, so before
//                   the program's destructors) and every later call fails
//                   with CUDA_ERROR_DEINITIALIZED
//   context-deinit-at-exit
//                   the same for the context calls only (cuCtxGetCurrent,
//                   cuCtxSetCurrent, cuCtxPushCurrent, cuCtxPopCurrent,
//                   cuDevicePrimaryCtxRetain)
// With GATHER_FAKE_CUDA_TRACE set, each allocation, copy, module load and
// unload and launch is printed to standard error ("fake-cuda: cuMemcpyAsync
// 64 bytes"); with GATHER_FAKE_CUDA_TRACE=all, every driver call too
// ("fake-cuda-call: cuCtxPushCurrent_v2"), for counting them.
// Build: clang -shared -fPIC fake-cuda-driver.c -o DIR/libcuda.so.1, then
// run with LD_LIBRARY_PATH=DIR.
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
enum {
  SUCCESS = 0,
  INVALID_VALUE = 1,
  OUT_OF_MEMORY = 2,
  DEINITIALIZED = 4,
  NO_DEVICE = 100,
  INVALID_PTX = 218,
  LAUNCH_FAILED = 719
};

static int mode(const char *name) {
  const char *value = getenv("GATHER_FAKE_CUDA");
  return value && strcmp(value, name) == 0;
}

/// Whether the process is exiting and the driver shut down (deinit-at-exit,
/// or for a context call, context-deinit-at-exit).
static int exiting = 0;
static void shutDown(void) { exiting = 1; }
static int isShutDown(int contextCall) {
  return exiting && (mode("deinit-at-exit") ||
                     (contextCall && mode("context-deinit-at-exit")));
}
/// The start of every driver function: its name traced (GATHER_FAKE_CUDA_TRACE
/// =all), and CUDA_ERROR_DEINITIALIZED once shut down.
#define ENTER(contextCall)                                                     \
  traceCall(__func__);                                                         \
  if (isShutDown(contextCall))                                                 \
  return DEINITIALIZED

static void traceCall(const char *function) {
  const char *value = getenv("GATHER_FAKE_CUDA_TRACE");
  if (value && strcmp(value, "all") == 0)
    fprintf(stderr, "fake-cuda-call: %s\n", function);
}

static void trace(const char *call, size_t bytes) {
  if (getenv("GATHER_FAKE_CUDA_TRACE"))
    fprintf(stderr, "fake-cuda: %s %zu bytes\n", call, bytes);
}

static const char *errorName(CUresult error, int description) {
  switch (error) {
  case SUCCESS:
    return description ? "no error" : "CUDA_SUCCESS";
  case INVALID_VALUE:
    return description ? "invalid argument" : "CUDA_ERROR_INVALID_VALUE";
  case OUT_OF_MEMORY:
    return description ? "out of memory" : "CUDA_ERROR_OUT_OF_MEMORY";
  case DEINITIALIZED:
    return description ? "driver shutting down" : "CUDA_ERROR_DEINITIALIZED";
  case NO_DEVICE:
    return description ? "no CUDA-capable device is detected"
                       : "CUDA_ERROR_NO_DEVICE";
  case INVALID_PTX:
    return description ? "a PTX JIT compilation failed"
                       : "CUDA_ERROR_INVALID_PTX";
  case LAUNCH_FAILED:
    return description ? "unspecified launch failure"
                       : "CUDA_ERROR_LAUNCH_FAILED";
  default:
    return NULL;
  }
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  *name = errorName(error, 0);
  return *name ? SUCCESS : INVALID_VALUE;
}
CUresult cuGetErrorString(CUresult error, const char **text) {
  *text = errorName(error, 1);
  return *text ? SUCCESS : INVALID_VALUE;
}
CUresult cuInit(unsigned flags) {
  (void)flags;
  if (mode("deinit-at-exit") || mode("context-deinit-at-exit"))
    atexit(shutDown);
  return mode("no-device") ? NO_DEVICE : SUCCESS;
}
CUresult cuDriverGetVersion(int *version) {
  ENTER(0);
  *version = 13000;
  return SUCCESS;
}
CUresult cuDeviceGetCount(int *count) {
  ENTER(0);
  *count = mode("zero-devices") ? 0 : 1;
  return SUCCESS;
}
CUresult cuDeviceGet(int *device, int ordinal) {
  ENTER(0);
  *device = ordinal;
  return SUCCESS;
}
CUresult cuDeviceGetName(char *name, int size, int device) {
  ENTER(0);
  (void)device;
  strncpy(name, "Fake GPU", (size_t)size);
  return SUCCESS;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  ENTER(0);
  (void)device;
  *value = attribute == 75 ? 9 : attribute == 97 ? 232448 : 0;
  return SUCCESS;
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, int device) {
  ENTER(0);
  (void)device;
  *bytes = (size_t)1 << 30;
  return SUCCESS;
}

static int context;
CUresult cuDevicePrimaryCtxRetain(void **result, int device) {
  ENTER(1);
  (void)device;
  *result = &context;
  return SUCCESS;
}
/// The calling thread's current context.
static _Thread_local void *currentContext;
CUresult cuCtxGetCurrent(void **current) {
  ENTER(1);
  *current = currentContext;
  return SUCCESS;
}
CUresult cuCtxSetCurrent(void *current) {
  ENTER(1);
  currentContext = current;
  return SUCCESS;
}
/// The contexts pushed over, as the driver's per-thread stack.
static _Thread_local void *pushedOver[16];
static _Thread_local int pushedCount;
CUresult cuCtxPushCurrent_v2(void *current) {
  ENTER(1);
  if (pushedCount == 16)
    return INVALID_VALUE;
  pushedOver[pushedCount++] = currentContext;
  currentContext = current;
  return SUCCESS;
}
CUresult cuCtxPopCurrent_v2(void **current) {
  ENTER(1);
  if (pushedCount == 0)
    return INVALID_VALUE;
  *current = currentContext;
  currentContext = pushedOver[--pushedCount];
  return SUCCESS;
}

static int module, function, stream, event;
CUresult cuModuleLoadData(void **result, const void *image) {
  ENTER(0);
  (void)image;
  trace("cuModuleLoadData", 0);
  *result = &module;
  return SUCCESS;
}
CUresult cuModuleLoadDataEx(void **result, const void *image, unsigned count,
                            int *options, void **values) {
  ENTER(0);
  (void)image;
  trace("cuModuleLoadDataEx", 0);
  if (!mode("bad-ptx")) {
    *result = &module;
    return SUCCESS;
  }
  for (unsigned i = 0; i < count; ++i)
    if (options[i] == 5) // CU_JIT_ERROR_LOG_BUFFER
      strcpy((char *)values[i], "ptxas fatal: fake PTX error");
  return INVALID_PTX;
}
CUresult cuModuleUnload(void *unloaded) {
  ENTER(0);
  (void)unloaded;
  trace("cuModuleUnload", 0);
  return SUCCESS;
}
CUresult cuModuleGetFunction(void **result, void *from, const char *name) {
  ENTER(0);
  (void)from;
  (void)name;
  *result = &function;
  return SUCCESS;
}
CUresult cuFuncSetAttribute(void *kernel, int attribute, int value) {
  ENTER(0);
  (void)kernel;
  (void)attribute;
  (void)value;
  return SUCCESS;
}
CUresult cuLaunchKernel(void *kernel, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *on, void **params, void **extra) {
  ENTER(0);
  (void)kernel, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz;
  (void)smem, (void)on, (void)params, (void)extra;
  trace("cuLaunchKernel", 0);
  return mode("launch-fails") ? LAUNCH_FAILED : SUCCESS;
}

CUresult cuStreamCreate(void **result, unsigned flags) {
  ENTER(0);
  (void)flags;
  // A handle of its own per stream, as the driver's.
  static char streams[1024];
  static int created;
  *result = created < 1024 ? &streams[created++] : (void *)&stream;
  return SUCCESS;
}
CUresult cuStreamDestroy_v2(void *destroyed) {
  ENTER(0);
  (void)destroyed;
  return SUCCESS;
}
CUresult cuStreamSynchronize(void *synchronized) {
  ENTER(0);
  (void)synchronized;
  return SUCCESS;
}
CUresult cuStreamWaitEvent(void *waiting, void *on, unsigned flags) {
  ENTER(0);
  (void)waiting, (void)on, (void)flags;
  return SUCCESS;
}
CUresult cuEventCreate(void **result, unsigned flags) {
  ENTER(0);
  (void)flags;
  *result = &event;
  return SUCCESS;
}
CUresult cuEventDestroy_v2(void *destroyed) {
  ENTER(0);
  (void)destroyed;
  return SUCCESS;
}
CUresult cuEventSynchronize(void *synchronized) {
  ENTER(0);
  (void)synchronized;
  return SUCCESS;
}
CUresult cuEventRecord(void *recorded, void *on) {
  ENTER(0);
  (void)recorded, (void)on;
  return SUCCESS;
}
/* Every timed kernel takes 0.25 ms here. */
CUresult cuEventElapsedTime(float *milliseconds, void *start, void *end) {
  ENTER(0);
  (void)start, (void)end;
  *milliseconds = 0.25f;
  return SUCCESS;
}

// Device memory is host memory here (the host may read it; kernels do not run).
CUresult cuMemAlloc_v2(unsigned long long *pointer, size_t bytes) {
  ENTER(0);
  if (mode("out-of-memory"))
    return OUT_OF_MEMORY;
  trace("cuMemAlloc", bytes);
  *pointer = (unsigned long long)(size_t)malloc(bytes);
  return SUCCESS;
}
CUresult cuMemAllocManaged(unsigned long long *pointer, size_t bytes,
                           unsigned flags) {
  ENTER(0);
  (void)flags;
  return cuMemAlloc_v2(pointer, bytes);
}
CUresult cuMemAllocAsync(unsigned long long *pointer, size_t bytes, void *on) {
  ENTER(0);
  (void)on;
  if (mode("out-of-memory"))
    return OUT_OF_MEMORY;
  trace("cuMemAllocAsync", bytes);
  *pointer = (unsigned long long)(size_t)malloc(bytes);
  return SUCCESS;
}
CUresult cuMemFreeAsync(unsigned long long pointer, void *on) {
  ENTER(0);
  (void)on;
  free((void *)(size_t)pointer);
  return SUCCESS;
}
CUresult cuMemFree_v2(unsigned long long pointer) {
  ENTER(0);
  free((void *)(size_t)pointer);
  return SUCCESS;
}
CUresult cuMemcpyAsync(unsigned long long to, unsigned long long from,
                       size_t bytes, void *on) {
  ENTER(0);
  (void)on;
  trace("cuMemcpyAsync", bytes);
  if (bytes == 8 && mode("first-bad-0"))
    memset((void *)(size_t)to, 0, bytes);
  else
    memcpy((void *)(size_t)to, (const void *)(size_t)from, bytes);
  return SUCCESS;
}
CUresult cuMemsetD32Async(unsigned long long to, unsigned value, size_t count,
                          void *on) {
  ENTER(0);
  (void)on;
  for (size_t i = 0; i < count; ++i)
    ((unsigned *)(size_t)to)[i] = value;
  return SUCCESS;
}
CUresult cuMemsetD16Async(unsigned long long to, unsigned short value,
                          size_t count, void *on) {
  ENTER(0);
  (void)on;
  for (size_t i = 0; i < count; ++i)
    ((unsigned short *)(size_t)to)[i] = value;
  return SUCCESS;
}
CUresult cuMemHostRegister_v2(void *pointer, size_t bytes, unsigned flags) {
  ENTER(0);
  (void)pointer, (void)bytes, (void)flags;
  return SUCCESS;
}
CUresult cuMemHostUnregister(void *pointer) {
  ENTER(0);
  (void)pointer;
  return SUCCESS;
}
