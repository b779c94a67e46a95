//===- gather-reduce.cpp - mlir-reduce with gather ------------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MLIR's test-case reducer (mlir-reduce) knowing the onnx dialect, gather's
// passes and every upstream dialect and pass: it shrinks an input while an
// interestingness script keeps exiting with a non-zero status, e.g.
//
//   gather-reduce in.mlir \
//     '--reduction-tree=traversal-mode=0 test=still-fails.sh'
//
// Differences from mlir-reduce: the test runs with a time limit,
// --test-timeout=<seconds> (default 60, 0: none; a test that times out is
// not interesting), and must be deterministic: gather-reduce tests the
// input twice and any candidate tested again once more, and an answer that
// differs from the first one is an error at the end (exit status 1), not an
// inconsistent reduction (InterestingnessTest.h). For that, the `test=` of
// every reduction pass (--reduction-tree=..., --opt-reduction-pass=...,
// reduction-tree{...} in --pass-pipeline) is pointed at gather-reduce itself
// in test mode, with the user's test as its arguments. mlir-reduce itself
// runs in a child process: where MLIR 22's reduction-tree pass crashes, the
// crash is an error that names the smallest interesting candidate found.
//
//===----------------------------------------------------------------------===//

#include "InterestingnessTest.h"

#include "gather/Pipelines/Pipelines.h"
#include "gather/Support/ToolMain.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace gather::reduce;

/// The default of --test-timeout, in seconds.
static constexpr unsigned kDefaultTestTimeout = 60;

// (Read from argv by getTestTimeout; registered so that the parser accepts
// it.)
static llvm::cl::opt<unsigned> testTimeoutOption(
    "test-timeout",
    llvm::cl::desc("Seconds after which the interestingness test is killed "
                   "and the candidate is not interesting (0: no limit)"),
    llvm::cl::init(kDefaultTestTimeout));

/// The entries of a pass's option string (`key=value` separated by spaces;
/// a value may hold spaces inside quotes or braces).
static llvm::SmallVector<llvm::StringRef>
splitPassOptions(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> entries;
  size_t i = 0, size = text.size();
  while (i < size) {
    while (i < size && llvm::isSpace(text[i]))
      ++i;
    size_t start = i;
    int depth = 0;
    while (i < size && (depth > 0 || !llvm::isSpace(text[i]))) {
      char c = text[i++];
      if (c == '"' || c == '\'') {
        size_t end = text.find(c, i);
        i = end == llvm::StringRef::npos ? size : end + 1;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}' && depth > 0) {
        --depth;
      }
    }
    if (i > start)
      entries.push_back(text.slice(start, i));
  }
  return entries;
}

namespace {
/// What the reduction passes' `test=` is rewritten to.
struct TestWrapper {
  std::string self;     // gather-reduce's own path
  unsigned timeout;     // --test-timeout
  std::string stateDir; // shared by the test runs (InterestingnessTest.h)
};
} // namespace

/// `value`, quoted if the option parser would split it.
static std::string quoteOptionValue(llvm::StringRef value) {
  if (value.find_first_of(" \t,{}'\"") == llvm::StringRef::npos)
    return value.str();
  return ("\"" + value + "\"").str();
}

/// The options of a reduction pass with `test=<t>` replaced by gather-reduce
/// in test mode running <t> (its test-args first, then the user's); the
/// text unchanged if it has no `test=`.
static std::string wrapTest(llvm::StringRef options,
                            const TestWrapper &wrapper) {
  llvm::SmallVector<llvm::StringRef> entries = splitPassOptions(options);
  auto isTest = [](llvm::StringRef entry) {
    return entry.starts_with("test=");
  };
  auto *test = llvm::find_if(entries, isTest);
  if (test == entries.end())
    return options.str();
  std::string text =
      "test=" + quoteOptionValue(wrapper.self) +
      " test-arg=" + kRunTestFlag.str() +
      " test-arg=" + std::to_string(wrapper.timeout) +
      " test-arg=" + quoteOptionValue(wrapper.stateDir) +
      " test-arg=" + test->drop_front(llvm::StringRef("test=").size()).str();
  for (llvm::StringRef entry : entries)
    if (!isTest(entry))
      text += " " + entry.str();
  return text;
}

/// `arg` with the options of every reduction pass in it wrapped (wrapTest):
/// `--reduction-tree=<options>`, `--opt-reduction-pass=<options>`, or
/// `<pass>{<options>}` inside a textual pipeline.
static std::string wrapTestsInArgument(llvm::StringRef arg,
                                       const TestWrapper &wrapper) {
  static const char *const passes[] = {"reduction-tree", "opt-reduction-pass"};
  llvm::StringRef option = arg.ltrim('-');
  if (arg.starts_with("-"))
    for (llvm::StringRef pass : passes)
      if (option.consume_front(pass) && option.consume_front("="))
        return arg.drop_back(option.size()).str() + wrapTest(option, wrapper);
  std::string text;
  size_t i = 0;
  while (i < arg.size()) {
    size_t next = llvm::StringRef::npos;
    llvm::StringRef found;
    for (llvm::StringRef pass : passes) {
      size_t at = arg.find((pass + "{").str(), i);
      if (at < next)
        next = at, found = pass;
    }
    if (next == llvm::StringRef::npos)
      break;
    size_t open = next + found.size();
    size_t close = open + 1;
    for (int depth = 1; close < arg.size(); ++close)
      if (arg[close] == '{')
        ++depth;
      else if (arg[close] == '}' && --depth == 0)
        break;
    text += arg.slice(i, open + 1).str() +
            wrapTest(arg.slice(open + 1, close), wrapper);
    i = close;
  }
  return text + arg.drop_front(std::min(i, arg.size())).str();
}

/// The value of option `name` in argv (`--name=V`, `-name=V`, `--name V` or
/// `-name V`), or std::nullopt. (Read before mlirReduceMain parses the
/// command line, which then checks it.)
static std::optional<llvm::StringRef> findOptionValue(int argc, char **argv,
                                                      llvm::StringRef name) {
  std::optional<llvm::StringRef> found;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "--")
      break;
    if (!arg.starts_with("-"))
      continue;
    arg = arg.ltrim('-');
    if (!arg.consume_front(name))
      continue;
    if (arg.consume_front("="))
      found = arg;
    else if (arg.empty() && i + 1 < argc)
      found = llvm::StringRef(argv[++i]);
  }
  return found;
}

/// The value of --test-timeout in argv; the default if absent or invalid
/// (the command-line parser then reports it).
static unsigned getTestTimeout(int argc, char **argv) {
  unsigned seconds;
  std::optional<llvm::StringRef> value =
      findOptionValue(argc, argv, "test-timeout");
  if (value && !value->getAsInteger(10, seconds))
    return seconds;
  return kDefaultTestTimeout;
}

/// Why the output file of -o in argv cannot be written, or "" (also where
/// it is stdout). mlir-reduce opens it only at the end and fails without a
/// word where it cannot.
static std::string checkOutputFile(int argc, char **argv) {
  std::optional<llvm::StringRef> name = findOptionValue(argc, argv, "o");
  if (!name || *name == "-")
    return "";
  if (name->empty())
    return "the output file name (-o) is empty";
  std::string quoted = "'" + name->str() + "'";
  if (llvm::sys::fs::is_directory(*name))
    return "cannot write the output file " + quoted + ": it is a directory";
  llvm::StringRef where = *name;
  if (!llvm::sys::fs::exists(*name)) {
    where = llvm::sys::path::parent_path(*name);
    if (where.empty())
      where = ".";
    if (!llvm::sys::fs::is_directory(where))
      return "cannot write the output file " + quoted + ": no directory '" +
             where.str() + "'";
  }
  if (std::error_code error =
          llvm::sys::fs::access(where, llvm::sys::fs::AccessMode::Write))
    return "cannot write the output file " + quoted + ": " + error.message();
  return "";
}

/// mlir-reduce on `argv` with the reduction passes' tests wrapped.
static int reduce(int argc, char **argv, const TestWrapper &wrapper) {
  mlir::registerAllPasses();
  gather::registerAllPasses();
  mlir::DialectRegistry registry;
  gather::registerONNXToLLVMPipelineDependencies(registry);
  // Any MLIR, as mlir-reduce reads it, beside what the pipeline needs.
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::MLIRContext context(registry);
  std::vector<std::string> args;
  for (int i = 0; i < argc; ++i)
    args.push_back(i == 0 ? argv[0] : wrapTestsInArgument(argv[i], wrapper));
  std::vector<char *> newArgv;
  for (std::string &arg : args)
    newArgv.push_back(arg.data());
  newArgv.push_back(nullptr);
  return mlir::failed(mlir::mlirReduceMain(static_cast<int>(args.size()),
                                           newArgv.data(), context));
}

/// Runs reduce() in a child process (MLIR 22's reduction-tree pass crashes
/// on some inputs: when folding makes the region it reduces uninteresting,
/// it builds variants of an erased module); returns its exit status, or 1
/// with the error in `crash` if it ended by a signal. (In this process if it
/// cannot fork.)
static int reduceInChildProcess(int argc, char **argv,
                                const TestWrapper &wrapper,
                                std::string &crash) {
  // --version and --help print and exit inside LLVM's option parser: here,
  // where exiting is clean (in the child, the exit handlers would see the
  // objects of the threads fork did not copy as leaked).
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "--version" || arg == "-version" || arg.starts_with("--help") ||
        arg.starts_with("-help"))
      return reduce(argc, argv, wrapper);
  }
  std::fflush(nullptr);
  pid_t child = fork();
  if (child < 0)
    return reduce(argc, argv, wrapper);
  if (child == 0) {
    // The child of a multithreaded process ends without exit handlers or
    // static destructors (only this thread was copied: the others' objects
    // would look leaked to LeakSanitizer, whose report then aborts into
    // LLVM's crash handler and, under ASan, never ends).
    int status = reduce(argc, argv, wrapper);
    llvm::outs().flush();
    llvm::errs().flush();
    std::fflush(nullptr);
    ::_exit(status);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFSIGNALED(status))
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;

  std::string message = "mlir-reduce ended by signal " +
                        std::to_string(WTERMSIG(status)) +
                        " (MLIR 22's reduction-tree pass crashes when "
                        "folding makes the region it reduces uninteresting)";
  std::string smallest = getSmallestInterestingCandidate(wrapper.stateDir);
  llvm::SmallString<128> kept;
  int fd;
  if (!smallest.empty() && !llvm::sys::fs::createTemporaryFile(
                               "gather-reduce-smallest", "mlir", fd, kept)) {
    ::close(fd);
    if (!llvm::sys::fs::copy_file(smallest, kept))
      message += "; the smallest interesting candidate it found is " +
                 std::string(kept);
  }
  crash = message;
  return 1;
}

static int toolMain(int argc, char **argv) {
  if (std::string error = checkOutputFile(argc, argv); !error.empty()) {
    llvm::errs() << "gather-reduce: error: " << error << "\n";
    return 1;
  }
  TestWrapper wrapper;
  wrapper.self = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&getTestTimeout));
  wrapper.timeout = getTestTimeout(argc, argv);
  llvm::SmallString<128> stateDir;
  if (std::error_code error =
          llvm::sys::fs::createUniqueDirectory("gather-reduce", stateDir)) {
    llvm::errs() << "gather-reduce: error: cannot create a temporary "
                 << "directory: " << error.message() << "\n";
    return 1;
  }
  wrapper.stateDir = std::string(stateDir);

  std::string crash;
  int status = reduceInChildProcess(argc, argv, wrapper, crash);
  // The test's error first: it may be what led mlir-reduce astray.
  std::string testError = getRecordedTestError(stateDir);
  llvm::sys::fs::remove_directories(stateDir);
  for (const std::string &error : {testError, crash})
    if (!error.empty())
      llvm::errs() << "gather-reduce: error: " << error << "\n";
  return testError.empty() ? status : 1;
}

// Test mode (InterestingnessTest.h); otherwise out of memory and fatal
// errors as located errors, a large stack.
int main(int argc, char **argv) {
  if (argc > 1 && llvm::StringRef(argv[1]) == kRunTestFlag)
    return runInterestingnessTest(argc, argv);
  return gather::runToolMain(argc, argv, toolMain);
}
