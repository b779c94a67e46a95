//===- GatherRuntime.cpp - Run-time support for compiled code -------------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//

#include "gather/Runtime/GatherRuntime.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace {
std::mutex errorHandlerMutex;
GatherErrorHandler errorHandler = nullptr;
void *errorHandlerUserData = nullptr;

void defaultErrorHandler(const char *message, void * /*userData*/) {
  std::fflush(stdout);
  std::fprintf(stderr, "error: %s\n", message);
  std::fflush(stderr);
  // Quick exit: the report may come from inside JIT-compiled code, where
  // running static destructors (the JIT's own among them) is not safe.
  std::_Exit(1);
}

void report(const std::string &message) {
  GatherErrorHandler handler;
  void *userData;
  {
    std::lock_guard<std::mutex> lock(errorHandlerMutex);
    handler = errorHandler ? errorHandler : defaultErrorHandler;
    userData = errorHandlerUserData;
  }
  handler(message.c_str(), userData);
}
} // namespace

/// For the runtime's other files (and libgather_onnx_runtime).
__attribute__((visibility("default"))) void
gatherReport(const std::string &message) {
  report(message);
}

extern "C" void gatherSetErrorHandler(GatherErrorHandler handler,
                                      void *userData) {
  std::lock_guard<std::mutex> lock(errorHandlerMutex);
  errorHandler = handler;
  errorHandlerUserData = userData;
}

extern "C" void gatherReportIndexError(int64_t value, const int64_t *position,
                                       int64_t rank, int64_t axis,
                                       int64_t axisSize) {
  std::string message =
      "onnx.GatherElements: index " + std::to_string(value) + " at position [";
  for (int64_t d = 0; d < rank; ++d)
    message += (d ? ", " : "") + std::to_string(position[d]);
  message += "] of 'indices' is out of range [" + std::to_string(-axisSize) +
             ", " + std::to_string(axisSize - 1) + "] for axis " +
             std::to_string(axis) + " of size " + std::to_string(axisSize);
  report(message);
}

extern "C" void gatherReportShapeError(int64_t dim, int64_t indicesSize,
                                       int64_t dataSize, int64_t axis) {
  report("onnx.GatherElements: 'indices' has size " +
         std::to_string(indicesSize) + " in dimension " + std::to_string(dim) +
         ", larger than size " + std::to_string(dataSize) +
         " of 'data' there; only along the axis (dimension " +
         std::to_string(axis) + ") may 'indices' be larger than 'data'");
}

extern "C" void gatherReportRankError(int64_t operand, int64_t rank,
                                      int64_t expectedRank) {
  const char *name = operand == 0 ? "data" : "indices";
  const char *other = operand == 0 ? "indices" : "data";
  report(std::string("onnx.GatherElements: '") + name + "' has rank " +
         std::to_string(rank) + " at run time, but '" + other + "' has rank " +
         std::to_string(expectedRank) + "; the ranks must be equal");
}

extern "C" void gatherReportResultShapeError(int64_t dim, int64_t indicesSize,
                                             int64_t resultSize) {
  report("onnx.GatherElements: 'indices' has size " +
         std::to_string(indicesSize) + " in dimension " + std::to_string(dim) +
         ", but the declared result type has size " +
         std::to_string(resultSize) + " there");
}

extern "C" void gatherReportDestinationShapeError(int64_t dim,
                                                  int64_t resultSize,
                                                  int64_t destinationSize) {
  report("onnx.GatherElements: the result has size " +
         std::to_string(resultSize) + " in dimension " + std::to_string(dim) +
         ", but its destination has size " + std::to_string(destinationSize) +
         " there");
}

extern "C" void gatherReportAllocationError(int64_t bytes, const char *what) {
  std::string size = bytes < 0
                         ? "more than " + std::to_string(INT64_MAX) + " bytes"
                         : std::to_string(bytes) + " bytes";
  report("out of memory: cannot allocate " + size + " for " + what);
  // Even with a handler that returns: there is no buffer to go on with.
  std::fflush(stdout);
  std::_Exit(1);
}
