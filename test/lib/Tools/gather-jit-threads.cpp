//===- gather-jit-threads.cpp - The kernel API from many threads ----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A test of the kernel API's thread-safety contract (JitCompiler.h): T
// threads each compile K kernels with gather::compileSourceAndJit, on one
// shared MLIRContext (--context-mode=shared) or on one context per thread
// (--context-mode=private), run each on its own inputs and compare every
// element with a scalar reference. Every kernel gets its own run-time error
// handler (gather::setKernelErrorHandler). Each thread also runs one kernel
// whose indices hold a value out of range that names the thread (100 +
// thread), and checks that its handler received exactly that report, located
// in the kernel's buffer (named after the kernel by default), from whichever
// thread ran it (threaded kernels report from OpenMP workers); run again
// without its handler, the kernel reports to the process's handler, which
// gets nothing else. Prints `kernels: N,
// mismatches: M, reports: R of T` and exits with status 1 if anything went
// wrong. --context-mode=unregistered instead calls compileAndJit on a module
// whose context lacks registerJitDependencies() and prints the error.
//
//===----------------------------------------------------------------------===//

#include "gather/ExecutionEngine/JitCompiler.h"
#include "gather/Runtime/GatherRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace cl = llvm::cl;

static cl::opt<unsigned> numThreadsOpt("host-threads", cl::desc("Host threads"),
                                       cl::init(4));
static cl::opt<unsigned> numKernelsOpt("kernels-per-thread",
                                       cl::desc("Kernels per thread"),
                                       cl::init(8));
static cl::opt<std::string>
    contextOpt("context-mode",
               cl::desc("shared: one MLIRContext for all threads; "
                        "private: one per thread"),
               cl::init("shared"));

/// compileAndJit on a context with only the func dialect: an error, and
/// the module left as it was.
static int runUnregistered() {
  mlir::MLIRContext context;
  context.loadDialect<mlir::func::FuncDialect>();
  const char *source = "func.func @f() { return }";
  auto module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  if (!module)
    return 1;
  auto engine =
      gather::compileAndJit(*module, gather::ONNXToLLVMPipelineOptions());
  if (engine) {
    llvm::errs() << "error: compileAndJit succeeded\n";
    return 1;
  }
  llvm::outs() << llvm::toString(engine.takeError()) << "\n";
  module->print(llvm::outs());
  return 0;
}

/// The reports one handler received, from any thread.
namespace {
struct Reports {
  std::mutex mutex;
  std::vector<std::string> messages;

  std::vector<std::string> take() {
    std::lock_guard<std::mutex> lock(mutex);
    return std::move(messages);
  }
};
} // namespace

static void recordReport(const char *message, void *userData) {
  auto *reports = static_cast<Reports *>(userData);
  std::lock_guard<std::mutex> lock(reports->mutex);
  reports->messages.emplace_back(message);
}

/// The process's handler's reports: only those of kernels without a handler
/// of their own.
static Reports processReports;

using Memref2D = StridedMemRefType<float, 2>;
using IndexMemref2D = StridedMemRefType<int64_t, 2>;
using KernelFn = void (*)(Memref2D *, IndexMemref2D *, Memref2D *);

template <typename T>
static StridedMemRefType<T, 2> view(std::vector<T> &values, int64_t rows,
                                    int64_t cols) {
  return {values.data(), values.data(), 0, {rows, cols}, {cols, 1}};
}

namespace {
struct Outcome {
  std::atomic<unsigned> kernels{0};
  std::atomic<unsigned> mismatches{0};
  std::atomic<unsigned> reports{0};
  std::mutex errorMutex;
  std::vector<std::string> errors;

  void fail(const std::string &message) {
    std::lock_guard<std::mutex> lock(errorMutex);
    errors.push_back(message);
  }
};
} // namespace

/// Compiles and runs the kernels of thread `thread` on `context`.
static void runThread(mlir::MLIRContext &context, unsigned thread,
                      Outcome &outcome) {
  std::mt19937_64 random(thread);
  for (unsigned k = 0; k <= numKernelsOpt; ++k) {
    // The last kernel of each thread gets a bad index value.
    bool bad = k == numKernelsOpt;
    int64_t rows = 3 + (thread + k) % 5, cols = 5 + (thread * 7 + k) % 11;
    int64_t axis = k % 2;
    int64_t axisSize = axis == 0 ? rows : cols;
    std::string name =
        "kernel_" + std::to_string(thread) + "_" + std::to_string(k);
    gather::ONNXToLLVMPipelineOptions options;
    // Threaded kernels too (libomp from many host threads); the one that
    // reports as well (its reports may come from OpenMP worker threads).
    options.numThreads = bad ? 2 : 1 + k % 2;
    options.parallelThreshold = 0;
    std::string source = gather::getGatherElementsKernelSource(
        name, {rows, cols}, "f32", {rows, cols}, "i64", axis);
    auto engine = gather::compileSourceAndJit(context, source, options);
    if (!engine) {
      outcome.fail(name + ": " + llvm::toString(engine.takeError()));
      return;
    }
    // Each kernel reports to its own handler.
    Reports kernelReports;
    if (llvm::Error error = gather::setKernelErrorHandler(
            **engine, recordReport, &kernelReports)) {
      outcome.fail(name + ": " + llvm::toString(std::move(error)));
      return;
    }
    auto address = gather::lookupCInterface(**engine, name);
    if (!address) {
      outcome.fail(name + ": " + llvm::toString(address.takeError()));
      return;
    }
    std::vector<float> data(rows * cols), out(rows * cols, -1.0f);
    std::vector<int64_t> indices(rows * cols);
    for (float &value : data)
      value = static_cast<float>(random() % 1000);
    for (int64_t &index : indices)
      index = static_cast<int64_t>(random() % (2 * axisSize)) - axisSize;
    int64_t badValue = 100 + thread;
    if (bad)
      indices[cols + 1] = badValue;
    Memref2D dataRef = view(data, rows, cols), outRef = view(out, rows, cols);
    IndexMemref2D indicesRef = view(indices, rows, cols);
    auto kernel = reinterpret_cast<KernelFn>(*address);
    kernel(&dataRef, &indicesRef, &outRef);
    ++outcome.kernels;
    std::vector<std::string> received = kernelReports.take();
    if (bad) {
      std::string expected =
          "holds value " + std::to_string(badValue) + " at position [1, 1]";
      // Located in this kernel's buffer (named after the kernel).
      if (received.size() == 1 &&
          llvm::StringRef(received.front()).starts_with(name + ":") &&
          received.front().find(expected) != std::string::npos)
        ++outcome.reports;
      else
        outcome.fail(name + ": expected one report with '" + expected +
                     "', got " + std::to_string(received.size()) +
                     (received.empty() ? "" : ": " + received[0]));
      // Without its handler, the kernel reports to the process's again.
      if (llvm::Error error =
              gather::setKernelErrorHandler(**engine, nullptr, nullptr)) {
        outcome.fail(name + ": " + llvm::toString(std::move(error)));
        return;
      }
      kernel(&dataRef, &indicesRef, &outRef);
      if (!kernelReports.take().empty())
        outcome.fail(name + ": a report after its handler was removed");
      continue;
    }
    if (!received.empty())
      outcome.fail(name + ": unexpected report: " + received.front());
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        int64_t index = indices[i * cols + j];
        if (index < 0)
          index += axisSize;
        float expected =
            axis == 0 ? data[index * cols + j] : data[i * cols + index];
        if (out[i * cols + j] != expected)
          ++outcome.mismatches;
      }
  }
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "gather kernel API thread test\n");
  if (contextOpt == "unregistered")
    return runUnregistered();
  if (contextOpt != "shared" && contextOpt != "private") {
    llvm::errs() << "error: --context-mode must be 'shared', 'private' or "
                    "'unregistered'\n";
    return 1;
  }
  gatherSetErrorHandler(recordReport, &processReports);
  Outcome outcome;
  mlir::MLIRContext sharedContext;
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < numThreadsOpt; ++t)
    threads.emplace_back([&, t] {
      if (contextOpt == "shared") {
        runThread(sharedContext, t, outcome);
        return;
      }
      mlir::MLIRContext context;
      runThread(context, t, outcome);
    });
  for (std::thread &thread : threads)
    thread.join();
  // One report per thread came to the process's handler: the bad kernel's
  // second run, without its own handler.
  std::vector<std::string> stray = processReports.take();
  if (stray.size() != numThreadsOpt)
    outcome.fail("the process's handler got " + std::to_string(stray.size()) +
                 " reports, not " + std::to_string(numThreadsOpt));
  for (const std::string &message : stray)
    if (!llvm::StringRef(message).starts_with("kernel_"))
      outcome.fail("the process's handler got: " + message);
  for (const std::string &error : outcome.errors)
    llvm::errs() << "error: " << error << "\n";
  llvm::outs() << "kernels: " << outcome.kernels
               << ", mismatches: " << outcome.mismatches
               << ", reports: " << outcome.reports << " of " << numThreadsOpt
               << "\n";
  return outcome.errors.empty() && outcome.mismatches == 0 ? 0 : 1;
}
