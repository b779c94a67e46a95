// A C host with the same gather compiled for the GPU and for the CPU
// (fallback.mlir) in one program: it installs an error handler that
// returns, asks gatherCUDAInit whether a driver and a device are there, and
// calls the GPU kernel if so, the CPU kernel otherwise. The GPU modules load
// at their first launch, so nothing touches the driver before `main`.
#include "gather/Runtime/GatherCUDARuntime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} MemRef2D;

void _mlir_ciface_gather_gpu(MemRef2D *result, MemRef2D *data,
                             MemRef2D *indices);
void _mlir_ciface_gather_cpu(MemRef2D *result, MemRef2D *data,
                             MemRef2D *indices);

static int errors = 0;

static void handler(const char *message, void *userData) {
  (void)userData;
  ++errors;
  printf("handler: %s\n", message);
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0); // In order with the driver's trace.
  gatherSetErrorHandler(handler, NULL);
  float data[4] = {1, 2, 3, 4};
  int64_t indices[4] = {0, 0, 1, 0};
  MemRef2D dataMemRef = {data, data, 0, {2, 2}, {2, 1}};
  MemRef2D indicesMemRef = {indices, indices, 0, {2, 2}, {2, 1}};
  MemRef2D result;
  int onGPU = gatherCUDAInit() == 0;
  printf("%s\n", onGPU ? "on the GPU" : "on the CPU");
  errors = 0;
  if (onGPU)
    _mlir_ciface_gather_gpu(&result, &dataMemRef, &indicesMemRef);
  else
    _mlir_ciface_gather_cpu(&result, &dataMemRef, &indicesMemRef);
  const float *out = (const float *)result.aligned + result.offset;
  printf("result: %lldx%lld [%g, %g, %g, %g], errors: %d\n",
         (long long)result.sizes[0], (long long)result.sizes[1], out[0], out[1],
         out[2], out[3], errors);
  free(result.allocated);
  return errors != 0;
}
