//===- gather-cuda-probe.c - Is there a CUDA driver and device? -----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Opens the CUDA driver through gather's CUDA runtime (GatherCUDARuntime.h)
// as compiled GPU code would, and prints the devices:
//
//   CUDA devices: 1
//   device 0: NVIDIA H200, sm_90, 143167 MiB, driver 13.0
//
// Without a driver or device it prints the runtime's error
// (`error: no CUDA driver/device: <reason> ...`) and exits with status 1.
// Needs no LLVM or MLIR: the lit suite's `cuda-device` feature and
// utils/gpu-check.sh's run script use it.
//
//===----------------------------------------------------------------------===//

#include "gather/Runtime/GatherCUDARuntime.h"
#include "gather/Support/VersionInfo.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--version") == 0) {
    printf("gather version %s%s%s%s\n", GATHER_VERSION_STRING,
           GATHER_COMMIT_STRING[0] ? " (commit " : "", GATHER_COMMIT_STRING,
           GATHER_COMMIT_STRING[0] ? ")" : "");
    return 0;
  }
  if (argc != 1) {
    fprintf(stderr, "usage: gather-cuda-probe (no arguments, or --version)\n");
    return 2;
  }
  // (The default error handler prints the error and exits with status 1.)
  if (gatherCUDAInit() != 0)
    return 1;
  int32_t count = gatherCUDAGetDeviceCount();
  printf("CUDA devices: %d\n", (int)count);
  for (int32_t device = 0; device < count; ++device) {
    char description[512];
    if (gatherCUDADescribeDevice(device, description, sizeof(description)))
      return 1;
    printf("device %d: %s\n", (int)device, description);
  }
  return fflush(stdout) == 0 ? 0 : 1;
}
