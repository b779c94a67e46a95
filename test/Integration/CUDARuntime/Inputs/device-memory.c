// The C host of device-memory.mlir: its buffers in device memory
// (mgpuMemAlloc; with the stand-in driver of fake-cuda-driver.c device
// memory is host memory, so the host fills and reads it directly), one
// call (or argv[1] calls), each result freed with mgpuMemFree.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} MemRef2D;

void *mgpuMemAlloc(uint64_t bytes, void *stream, int8_t isHostShared);
void mgpuMemFree(void *pointer, void *stream);
void _mlir_ciface_gather(MemRef2D *result, MemRef2D *data, MemRef2D *indices);

static MemRef2D onDevice(int64_t rows, int64_t columns, uint64_t element) {
  void *buffer = mgpuMemAlloc(rows * columns * element, NULL, 0);
  MemRef2D memref = {buffer, buffer, 0, {rows, columns}, {columns, 1}};
  return memref;
}

int main(int argc, char **argv) {
  int calls = argc > 1 ? atoi(argv[1]) : 1;
  MemRef2D data = onDevice(3, 4, sizeof(float));
  MemRef2D indices = onDevice(2, 4, sizeof(int64_t));
  for (int i = 0; i < 12; ++i)
    ((float *)data.aligned)[i] = (float)i;
  int64_t values[8] = {0, 1, 2, -1, 2, 5, 0, 1};
  for (int i = 0; i < 8; ++i)
    ((int64_t *)indices.aligned)[i] = values[i];
  for (int call = 0; call < calls; ++call) {
    MemRef2D result;
    fprintf(stderr, "calling\n");
    _mlir_ciface_gather(&result, &data, &indices);
    fprintf(stderr, "returned: %lldx%lld\n", (long long)result.sizes[0],
            (long long)result.sizes[1]);
    mgpuMemFree(result.allocated, NULL);
  }
  mgpuMemFree(indices.allocated, NULL);
  mgpuMemFree(data.allocated, NULL);
  return 0;
}
