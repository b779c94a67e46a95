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
// With GATHER_FAKE_CUDA_TRACE set, each allocation, copy and launch is
// printed to standard error ("fake-cuda: cuMemcpyAsync 64 bytes").
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
  NO_DEVICE = 100,
  INVALID_PTX = 218,
  LAUNCH_FAILED = 719
};

static int mode(const char *name) {
  const char *value = getenv("GATHER_FAKE_CUDA");
  return value && strcmp(value, name) == 0;
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
  return mode("no-device") ? NO_DEVICE : SUCCESS;
}
CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return SUCCESS;
}
CUresult cuDeviceGetCount(int *count) {
  *count = mode("zero-devices") ? 0 : 1;
  return SUCCESS;
}
CUresult cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return SUCCESS;
}
CUresult cuDeviceGetName(char *name, int size, int device) {
  (void)device;
  strncpy(name, "Fake GPU", (size_t)size);
  return SUCCESS;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  *value = attribute == 75 ? 9 : attribute == 97 ? 232448 : 0;
  return SUCCESS;
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, int device) {
  (void)device;
  *bytes = (size_t)1 << 30;
  return SUCCESS;
}

static int context;
CUresult cuDevicePrimaryCtxRetain(void **result, int device) {
  (void)device;
  *result = &context;
  return SUCCESS;
}
CUresult cuCtxPushCurrent_v2(void *current) {
  (void)current;
  return SUCCESS;
}
CUresult cuCtxPopCurrent_v2(void **current) {
  *current = &context;
  return SUCCESS;
}

static int module, function, stream, event;
CUresult cuModuleLoadData(void **result, const void *image) {
  (void)image;
  *result = &module;
  return SUCCESS;
}
CUresult cuModuleLoadDataEx(void **result, const void *image, unsigned count,
                            int *options, void **values) {
  (void)image;
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
  (void)unloaded;
  return SUCCESS;
}
CUresult cuModuleGetFunction(void **result, void *from, const char *name) {
  (void)from;
  (void)name;
  *result = &function;
  return SUCCESS;
}
CUresult cuFuncSetAttribute(void *kernel, int attribute, int value) {
  (void)kernel;
  (void)attribute;
  (void)value;
  return SUCCESS;
}
CUresult cuLaunchKernel(void *kernel, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *on, void **params, void **extra) {
  (void)kernel, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz;
  (void)smem, (void)on, (void)params, (void)extra;
  trace("cuLaunchKernel", 0);
  return mode("launch-fails") ? LAUNCH_FAILED : SUCCESS;
}

CUresult cuStreamCreate(void **result, unsigned flags) {
  (void)flags;
  *result = &stream;
  return SUCCESS;
}
CUresult cuStreamDestroy_v2(void *destroyed) {
  (void)destroyed;
  return SUCCESS;
}
CUresult cuStreamSynchronize(void *synchronized) {
  (void)synchronized;
  return SUCCESS;
}
CUresult cuStreamWaitEvent(void *waiting, void *on, unsigned flags) {
  (void)waiting, (void)on, (void)flags;
  return SUCCESS;
}
CUresult cuEventCreate(void **result, unsigned flags) {
  (void)flags;
  *result = &event;
  return SUCCESS;
}
CUresult cuEventDestroy_v2(void *destroyed) {
  (void)destroyed;
  return SUCCESS;
}
CUresult cuEventSynchronize(void *synchronized) {
  (void)synchronized;
  return SUCCESS;
}
CUresult cuEventRecord(void *recorded, void *on) {
  (void)recorded, (void)on;
  return SUCCESS;
}
/* Every timed kernel takes 0.25 ms here. */
CUresult cuEventElapsedTime(float *milliseconds, void *start, void *end) {
  (void)start, (void)end;
  *milliseconds = 0.25f;
  return SUCCESS;
}

// Device memory is host memory here (the host may read it; kernels do not run).
CUresult cuMemAlloc_v2(unsigned long long *pointer, size_t bytes) {
  if (mode("out-of-memory"))
    return OUT_OF_MEMORY;
  trace("cuMemAlloc", bytes);
  *pointer = (unsigned long long)(size_t)malloc(bytes);
  return SUCCESS;
}
CUresult cuMemAllocManaged(unsigned long long *pointer, size_t bytes,
                           unsigned flags) {
  (void)flags;
  return cuMemAlloc_v2(pointer, bytes);
}
CUresult cuMemFree_v2(unsigned long long pointer) {
  free((void *)(size_t)pointer);
  return SUCCESS;
}
CUresult cuMemcpyAsync(unsigned long long to, unsigned long long from,
                       size_t bytes, void *on) {
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
  (void)on;
  for (size_t i = 0; i < count; ++i)
    ((unsigned *)(size_t)to)[i] = value;
  return SUCCESS;
}
CUresult cuMemsetD16Async(unsigned long long to, unsigned short value,
                          size_t count, void *on) {
  (void)on;
  for (size_t i = 0; i < count; ++i)
    ((unsigned short *)(size_t)to)[i] = value;
  return SUCCESS;
}
CUresult cuMemHostRegister_v2(void *pointer, size_t bytes, unsigned flags) {
  (void)pointer, (void)bytes, (void)flags;
  return SUCCESS;
}
CUresult cuMemHostUnregister(void *pointer) {
  (void)pointer;
  return SUCCESS;
}
