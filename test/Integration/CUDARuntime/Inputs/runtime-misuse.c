// A C host that misuses gather's CUDA runtime on purpose
// (runtime-misuse.test): each case prints what came back; none may crash,
// hang or hand out a handle it should not.
#include "gather/Runtime/GatherCUDARuntime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reports = 0;

static void handler(const char *message, void *userData) {
  (void)userData;
  ++reports;
  printf("handler: %s\n", message);
  if (getenv("EXIT_IN_HANDLER"))
    exit(3); // The global destructors run: no lock may be held here.
}

static const char ptx[] = "// PTX";

/// Releases at exit of handles made in no context (the driver opened, no
/// context retained): nothing to do, nothing to report.
static void releaseAtExit(void) {
  mgpuModuleUnload((void *)0x1);
  mgpuEventDestroy((void *)0x1);
  mgpuMemFree((void *)0x1, NULL);
}
static void *module, *kernel;

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  gatherSetErrorHandler(handler, NULL);
  const char *test = argc > 1 ? argv[1] : "";
  if (!strcmp(test, "slots")) {
    // Null slots and bad sizes: reported, null, no crash.
    void *k = gatherCUDAGetKernel(&module, NULL, ptx, sizeof(ptx), 0, 2, "k");
    printf("null kernel slot: %s\n", k ? "kernel" : "null");
    k = gatherCUDAGetKernel(NULL, &kernel, ptx, sizeof(ptx), 0, 2, "k");
    printf("null module slot: %s\n", k ? "kernel" : "null");
    k = gatherCUDAGetKernel(&module, &kernel, ptx, 0, 0, 2, "k");
    printf("no bytes: %s\n", k ? "kernel" : "null");
    k = gatherCUDAGetKernel(&module, &kernel, ptx, 3, 0, 2, "k");
    printf("PTX without its NUL: %s\n", k ? "kernel" : "null");
    k = gatherCUDAGetKernel(&module, &kernel, ptx, sizeof(ptx), 7, 2, "k");
    printf("format 7: %s\n", k ? "kernel" : "null");
  } else if (!strcmp(test, "reload")) {
    // A kernel is used only with its module: after the unload, the next
    // call loads again.
    void *first =
        gatherCUDAGetKernel(&module, &kernel, ptx, sizeof(ptx), 0, 2, "k");
    gatherCUDAUnloadModule(&module);
    void *again =
        gatherCUDAGetKernel(&module, &kernel, ptx, sizeof(ptx), 0, 2, "k");
    printf("after unload: module %s, kernel %s\n", module ? "loaded" : "null",
           first && again ? "found" : "null");
  } else if (!strcmp(test, "load")) {
    void *k =
        gatherCUDAGetKernel(&module, &kernel, ptx, sizeof(ptx), 0, 2, "k");
    printf("load: %s\n", k ? "kernel" : "null");
  } else if (!strcmp(test, "late")) {
    atexit(releaseAtExit);
    printf("init: %d\n", gatherCUDAInit());
  } else if (!strcmp(test, "streams")) {
    // A stream the runtime did not make, before the driver opened: not
    // pooled (the next create makes its own).
    mgpuStreamDestroy((void *)0x5678);
    void *a = mgpuStreamCreate();
    printf("foreign stream handed out: %s\n",
           a == (void *)0x5678 ? "yes" : "no");
    // Given back twice: handed out once.
    mgpuStreamDestroy(a);
    mgpuStreamDestroy(a);
    void *b = mgpuStreamCreate();
    void *c = mgpuStreamCreate();
    printf("double give-back shared: %s\n", b == c ? "yes" : "no");
    // Given back on another default device: back to its own device's pool.
    mgpuSetDefaultDevice(-1);
    mgpuStreamDestroy(b);
    mgpuSetDefaultDevice(2000000000);
    mgpuStreamDestroy(c);
    mgpuSetDefaultDevice(0);
    void *d = mgpuStreamCreate();
    printf("reused on its device: %s\n", d == b || d == c ? "yes" : "no");
  }
  printf("reports: %d\n", reports);
  return 0;
}
