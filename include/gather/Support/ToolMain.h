//===- ToolMain.h - What every gather tool does around its main -*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather::runToolMain runs a tool's real main so that no input ends it with
// a signal or an abort:
//
// - out of memory (operator new, LLVM's own allocations, the JIT's section
//   memory) prints `<tool>: error: out of memory ...` and exits with
//   status 1, instead of `LLVM ERROR: out of memory` and SIGABRT;
// - any other LLVM fatal error (report_fatal_error, e.g. an output file
//   that cannot be written, a pass manager misuse) prints
//   `<tool>: error: <reason>` and exits with status 1;
// - deep inputs (a module nested thousands of times, a JSON-RPC message of
//   the language server nested 50,000 deep) recurse on a stack of
//   kToolStackSize bytes instead of the main thread's 8 MiB: main runs on a
//   thread of that size (the memory is reserved, and only touched pages are
//   used); where the thread cannot be created (ulimit -v), on the main thread.
//   LLVM's signal handlers (InitLLVM in the tool's main) give that thread an
//   alternate signal stack of LLVM's own; the thread takes it off before it
//   ends, so that nothing at thread exit treats it as its own (AddressSanitizer
//   unmaps whatever alternate stack a thread has when it ends, and aborts on
//   LLVM's heap block: google/sanitizers#1152).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_SUPPORT_TOOLMAIN_H
#define GATHER_SUPPORT_TOOLMAIN_H

#include "gather/Support/Version.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Path.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <pthread.h>
#include <signal.h>
#include <string>
#include <unistd.h>

namespace gather {

/// The stack size of a tool's main thread (runToolMain).
inline constexpr size_t kToolStackSize = size_t(1) << 30;

namespace detail {
/// The tool's name for the messages of runToolMain's handlers.
inline std::string &toolName() {
  static std::string name = "gather";
  return name;
}

/// Writes `<tool>: error: <what><reason>\n` with write(2) (no allocation:
/// memory may be exhausted) and exits with status 1 without running static
/// destructors, which may need memory or hold locks.
[[noreturn]] inline void exitWithError(const char *what, const char *reason) {
  const std::string &name = toolName();
  auto put = [](const char *text, size_t size) {
    while (size > 0) {
      ssize_t written = ::write(STDERR_FILENO, text, size);
      if (written <= 0)
        return;
      text += written;
      size -= static_cast<size_t>(written);
    }
  };
  auto putString = [&](const char *text) {
    size_t size = 0;
    while (text[size])
      ++size;
    put(text, size);
  };
  put(name.data(), name.size());
  putString(": error: ");
  putString(what);
  putString(reason);
  putString("\n");
  std::fflush(stdout);
  ::_exit(1);
}

struct ToolThread {
  int (*toolMain)(int, char **);
  int argc;
  char **argv;
  int result;
};
} // namespace detail

/// Runs `toolMain(argc, argv)` as the file comment says and returns its
/// result.
inline int runToolMain(int argc, char **argv, int (*toolMain)(int, char **)) {
  if (argc > 0)
    detail::toolName() = llvm::sys::path::filename(argv[0]).str();
  // --version: gather's version and commit, then LLVM's.
  llvm::cl::SetVersionPrinter(printVersion);
  std::set_new_handler(
      [] { detail::exitWithError("out of memory", " (operator new)"); });
  llvm::install_bad_alloc_error_handler(
      [](void *, const char *reason, bool) {
        detail::exitWithError("out of memory: ", reason);
      },
      nullptr);
  llvm::install_fatal_error_handler(
      [](void *, const char *reason, bool) {
        llvm::StringRef text(reason);
        // The JIT's section allocator and LLVM's containers say it this way.
        bool memory = text.contains_insensitive("allocate") ||
                      text.contains_insensitive("out of memory");
        detail::exitWithError(memory ? "out of memory: " : "", reason);
      },
      nullptr);

  detail::ToolThread run{toolMain, argc, argv, 1};
  pthread_attr_t attributes;
  pthread_t thread;
  bool started = false;
  if (pthread_attr_init(&attributes) == 0) {
    started = pthread_attr_setstacksize(&attributes, kToolStackSize) == 0 &&
              pthread_create(
                  &thread, &attributes,
                  [](void *data) -> void * {
                    auto *run = static_cast<detail::ToolThread *>(data);
                    run->result = run->toolMain(run->argc, run->argv);
                    // The alternate signal stack LLVM installed here stays
                    // LLVM's: take it off this ending thread.
                    stack_t disabled{};
                    disabled.ss_flags = SS_DISABLE;
                    sigaltstack(&disabled, nullptr);
                    return nullptr;
                  },
                  &run) == 0;
    pthread_attr_destroy(&attributes);
  }
  if (!started)
    return toolMain(argc, argv);
  pthread_join(thread, nullptr);
  return run.result;
}

/// The `--pipeline-options` flag of the tools that run the onnx-to-llvm
/// pipeline (gather-runner, gather-translate --onnx-to-llvmir): its options
/// as text, as `--onnx-to-llvm="..."` takes them
/// (gather::buildONNXToLLVMPipeline parses them). The flag joins the tool's
/// command line the first time this is called: before the line is parsed.
inline llvm::cl::opt<std::string> &getPipelineOptionsFlag() {
  static llvm::cl::opt<std::string> flag(
      "pipeline-options",
      llvm::cl::desc("Options of the onnx-to-llvm pipeline, as --onnx-to-llvm "
                     "takes them, e.g. \"vector-size=0 num-threads=1\" "
                     "(scalar loops, no OpenMP)"),
      llvm::cl::init(""));
  return flag;
}

} // namespace gather

#endif // GATHER_SUPPORT_TOOLMAIN_H
