// A host that calls gather's CUDA runtime as a library, with an error
// handler that returns (GatherCUDARuntime.h): the functions return their
// error values, the first error is kept, and the report site set by
// gatherCUDASetReportSite starts the message. Prints what it saw.
#include "gather/Runtime/GatherCUDARuntime.h"

#include <stdio.h>

static int reports = 0;

static void handler(const char *message, void *userData) {
  ++reports;
  printf("handler(%s): %s\n", (const char *)userData, message);
}

// A report site as a compiled module has one: its sink, then its location.
static struct {
  GatherErrorSink *sink;
  char location[16];
} site = {NULL, "model.mlir:3:8"};

int main(void) {
  gatherSetErrorHandler(handler, "process");
  gatherCUDASetReportSite((const GatherReportSite *)&site);
  void *stream = mgpuStreamCreate();
  printf("stream: %s\n", stream ? "created" : "null");
  void *memory = mgpuMemAlloc(64, stream, 0);
  printf("memory: %s\n", memory ? "allocated" : "null");
  mgpuMemcpy(memory, &site, 16, stream);
  mgpuStreamSynchronize(stream);
  printf("init: %d, devices: %d\n", gatherCUDAInit(),
         (int)gatherCUDAGetDeviceCount());
  printf("reports: %d\n", reports);
  const char *error = gatherCUDAGetError();
  printf("first error: %s\n", error ? error : "none");
  return 0;
}
