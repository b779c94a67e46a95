//===- GatherRuntime.cpp - Run-time support for compiled code -------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Runtime/GatherRuntime.h"
#include "RuntimeInternal.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

static std::mutex errorHandlerMutex;
static GatherErrorHandler errorHandler = nullptr;
static void *errorHandlerUserData = nullptr;

static std::atomic<void (*)(void)> errorExit{nullptr};

/// Flushes stdout and stderr, calls `beforeExit` unless it is null, and ends
/// the process with exit status 1 (gatherPrintMessageAndExit's end).
[[noreturn]] static void endProcess(void (*beforeExit)(void)) {
  std::fflush(stdout);
  std::fflush(stderr);
  if (beforeExit)
    beforeExit();
  std::_Exit(1);
}

static void defaultErrorHandler(const char *message, void * /*userData*/) {
  gatherPrintMessageAndExit(message, errorExit.load());
}

extern "C" void gatherSetErrorExit(void (*beforeExit)(void)) {
  errorExit.store(beforeExit);
}

/// The end of the process after a report whose handler returned, where the
/// code cannot go on (gatherSetErrorExit's hook first).
[[noreturn]] static void exitAfterReport() { endProcess(errorExit.load()); }

/// Passes `<location>: error: <message>` (`error: <message>` without a
/// location), the form of the compiler's diagnostics, to the handler of
/// `site`'s module, or the process's.
static void report(const GatherReportSite *site, const std::string &message) {
  std::string text;
  if (site && site->location[0])
    text = std::string(site->location) + ": ";
  text += "error: " + message;
  GatherErrorHandler handler;
  void *userData;
  {
    std::lock_guard<std::mutex> lock(errorHandlerMutex);
    if (site && site->sink && site->sink->handler) {
      handler = site->sink->handler;
      userData = site->sink->userData;
    } else {
      handler = errorHandler ? errorHandler : defaultErrorHandler;
      userData = errorHandlerUserData;
    }
  }
  handler(text.c_str(), userData);
}

extern "C" void gatherReportMessage(const char *message) {
  report(nullptr, message);
}

extern "C" void gatherReportMessageAt(const GatherReportSite *site,
                                      const char *message) {
  report(site, message);
}

extern "C" void gatherPrintMessageAndExit(const char *message,
                                          void (*beforeExit)(void)) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", message);
  endProcess(beforeExit);
}

extern "C" void gatherSetErrorHandler(GatherErrorHandler handler,
                                      void *userData) {
  std::lock_guard<std::mutex> lock(errorHandlerMutex);
  errorHandler = handler;
  errorHandlerUserData = userData;
}

extern "C" void gatherSetKernelErrorHandler(GatherErrorSink *sink,
                                            GatherErrorHandler handler,
                                            void *userData) {
  if (!sink)
    return;
  std::lock_guard<std::mutex> lock(errorHandlerMutex);
  sink->handler = handler;
  sink->userData = handler ? userData : nullptr;
}

/// The start of every report of the op: `'onnx.GatherElements' op ` (the
/// words of the verifier's diagnostics).
static constexpr const char *kOpPrefix = "'onnx.GatherElements' op ";

static std::string validRange(int64_t axis, int64_t axisSize) {
  // (From a C caller, anything: a negative size has no range.)
  if (axisSize < 0)
    return "for axis " + std::to_string(axis) + " of size " +
           std::to_string(axisSize) + " (a negative size: no valid range)";
  return "outside the valid range [" + std::to_string(-axisSize) + ", " +
         std::to_string(axisSize - 1) + "] for axis " + std::to_string(axis) +
         " of size " + std::to_string(axisSize);
}

extern "C" void gatherReportIndexError(const GatherReportSite *site,
                                       int64_t value, const int64_t *position,
                                       int64_t rank, int64_t axis,
                                       int64_t axisSize) {
  std::string message = std::string(kOpPrefix) +
                        "operand 'indices' holds value " +
                        std::to_string(value) + " at position [";
  // (A C caller's null position or negative rank: the position unknown.)
  if (rank < 0 || (rank > 0 && !position))
    message += "?";
  for (int64_t d = 0; position && d < rank; ++d)
    message += (d ? ", " : "") + std::to_string(position[d]);
  message += "], " + validRange(axis, axisSize);
  report(site, message);
}

extern "C" void gatherReportIndexErrorsOmitted(const GatherReportSite *site,
                                               int64_t count, int64_t axis,
                                               int64_t axisSize) {
  report(site, std::string(kOpPrefix) + "operand 'indices' holds " +
                   std::to_string(count) + " more value" +
                   (count == 1 ? "" : "s") + " " + validRange(axis, axisSize) +
                   " (not listed)");
}

extern "C" void gatherReportShapeError(const GatherReportSite *site,
                                       int64_t dim, int64_t indicesSize,
                                       int64_t dataSize, int64_t axis) {
  report(site, std::string(kOpPrefix) + "operand 'indices' has size " +
                   std::to_string(indicesSize) + " in dimension " +
                   std::to_string(dim) + ", larger than size " +
                   std::to_string(dataSize) +
                   " of operand 'data' there; only along the axis (dimension " +
                   std::to_string(axis) +
                   ") may 'indices' be larger than 'data'");
}

extern "C" void gatherReportRankError(const GatherReportSite *site,
                                      int64_t operand, int64_t rank,
                                      int64_t expectedRank) {
  const char *name = operand == 0 ? "data" : "indices";
  const char *other = operand == 0 ? "indices" : "data";
  report(site, std::string(kOpPrefix) + "operand '" + name +
                   "' must have the rank of operand '" + other + "' (" +
                   std::to_string(expectedRank) + "), but has rank " +
                   std::to_string(rank) + " at run time");
}

extern "C" void gatherReportResultShapeError(const GatherReportSite *site,
                                             int64_t dim, int64_t indicesSize,
                                             int64_t resultSize) {
  report(site, std::string(kOpPrefix) + "operand 'indices' has size " +
                   std::to_string(indicesSize) + " in dimension " +
                   std::to_string(dim) +
                   ", but the declared result type has size " +
                   std::to_string(resultSize) + " there");
}

extern "C" void gatherReportDestinationShapeError(const GatherReportSite *site,
                                                  int64_t dim,
                                                  int64_t resultSize,
                                                  int64_t destinationSize) {
  report(site, std::string(kOpPrefix) + "result has size " +
                   std::to_string(resultSize) + " in dimension " +
                   std::to_string(dim) + ", but its destination has size " +
                   std::to_string(destinationSize) + " there");
}

extern "C" void gatherReportSlabShapeError(const GatherReportSite *site,
                                           int64_t argument, int64_t dim,
                                           int64_t process, int64_t expected,
                                           int64_t given, int64_t wholeSize,
                                           int64_t processes) {
  report(site, "shard-io=split: argument " + std::to_string(argument) +
                   " of process " + std::to_string(process) + " has size " +
                   std::to_string(given) + " in dimension " +
                   std::to_string(dim) + ", but its slab there has size " +
                   std::to_string(expected) + " (the block of process " +
                   std::to_string(process) + " of " +
                   std::to_string(wholeSize) + " indices split over " +
                   std::to_string(processes) + " processes)");
  // Even with a handler that returns: the code would read past a slab.
  exitAfterReport();
}

/// "out of memory: cannot allocate <bytes> for <what>", then the end of
/// the process.
[[noreturn]] static void reportAllocationError(const GatherReportSite *site,
                                               int64_t bytes,
                                               const char *what) {
  std::string size = bytes < 0
                         ? "more than " + std::to_string(INT64_MAX) + " bytes"
                         : std::to_string(bytes) + " bytes";
  report(site, "out of memory: cannot allocate " + size + " for " +
                   (what ? what : ""));
  // Even with a handler that returns: there is no buffer to go on with.
  exitAfterReport();
}

extern "C" void gatherReportAllocationError(int64_t bytes, const char *what) {
  reportAllocationError(nullptr, bytes, what);
}

extern "C" void gatherReportAllocationErrorIf(int32_t failed, int64_t bytes,
                                              const GatherReportSite *site,
                                              const char *what) {
  if (failed)
    reportAllocationError(site, bytes, what);
}
