//===- InterestingnessTest.cpp - The test run with a time limit -----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "InterestingnessTest.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace gather::reduce;

namespace {
/// One answer of the test.
enum class Answer { NotInteresting, Interesting, TimedOut };
} // namespace

/// Set by SIGALRM while runTest waits.
static volatile sig_atomic_t alarmRang = 0;

/// Runs `argv` (argv[0] the program, no PATH search) in a new process group;
/// after `timeout` seconds (0: none) kills the group. Non-zero exit status:
/// interesting; a signal: not interesting; `error` is set if it cannot run.
static Answer runTest(char **argv, unsigned timeout, std::string &error) {
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  pid_t pid;
  int spawnError =
      posix_spawn(&pid, argv[0], nullptr, &attributes, argv, environ);
  posix_spawnattr_destroy(&attributes);
  if (spawnError != 0) {
    error = std::string("cannot run the interestingness test '") + argv[0] +
            "': " + std::strerror(spawnError);
    return Answer::NotInteresting;
  }

  struct sigaction action = {};
  action.sa_handler = [](int) { alarmRang = 1; };
  sigemptyset(&action.sa_mask);
  sigaction(SIGALRM, &action, nullptr); // (No SA_RESTART: waitpid returns.)
  alarmRang = 0;
  alarm(timeout);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR)
      break;
    if (alarmRang) {
      kill(-pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return Answer::TimedOut;
    }
  }
  alarm(0);
  if (WIFEXITED(status))
    return WEXITSTATUS(status) != 0 ? Answer::Interesting
                                    : Answer::NotInteresting;
  return Answer::NotInteresting;
}

static std::string statePath(llvm::StringRef stateDir, llvm::StringRef name) {
  llvm::SmallString<256> path(stateDir);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

static void writeFile(const std::string &path, llvm::StringRef text) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (!error)
    os << text;
}

/// The text of `path`, or nothing if it cannot be read.
static std::optional<std::string> readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return std::nullopt;
  return (*buffer)->getBuffer().str();
}

/// Records the reduction's first error (the later ones follow from it).
static void recordError(llvm::StringRef stateDir, llvm::StringRef message) {
  std::string path = statePath(stateDir, "error");
  if (!llvm::sys::fs::exists(path))
    writeFile(path, message);
}

/// Where the smallest interesting candidate is kept.
static std::string smallestPath(llvm::StringRef stateDir) {
  return statePath(stateDir, "smallest.mlir");
}

/// Keeps a copy of interesting `candidate` (of `size` bytes) if it is the
/// smallest one so far.
static void keepIfSmallest(llvm::StringRef stateDir, llvm::StringRef candidate,
                           uint64_t size) {
  uint64_t smallest;
  std::string path = smallestPath(stateDir);
  if (!llvm::sys::fs::file_size(path, smallest) && smallest <= size)
    return;
  (void)llvm::sys::fs::copy_file(candidate, path);
}

static const char *describe(Answer answer) {
  switch (answer) {
  case Answer::Interesting:
    return "interesting";
  case Answer::NotInteresting:
    return "not interesting";
  case Answer::TimedOut:
    return "timed out";
  }
  llvm_unreachable("unknown answer");
}

int gather::reduce::runInterestingnessTest(int argc, char **argv) {
  // argv: candidate, kRunTestFlag, timeout, state dir, test, test-args...,
  // candidate.
  if (argc < 6)
    return 0;
  unsigned timeout = 0;
  if (llvm::StringRef(argv[2]).getAsInteger(10, timeout))
    return 0;
  llvm::StringRef stateDir = argv[3];
  llvm::StringRef candidate = argv[argc - 1];
  llvm::SmallVector<char *> testArgv(argv + 4, argv + argc);
  testArgv.push_back(nullptr);

  auto text = readFile(candidate.str());
  if (!text)
    return 0;
  char hash[17];
  std::snprintf(hash, sizeof(hash), "%016llx",
                static_cast<unsigned long long>(llvm::xxh3_64bits(*text)));
  std::string answerPath = statePath(stateDir, hash);
  std::optional<std::string> first = readFile(answerPath);
  bool failed = llvm::sys::fs::exists(statePath(stateDir, "error"));
  // After an error, no more runs: the first answers, or not interesting.
  if (failed)
    return first && *first == "1";

  std::string error;
  Answer answer = runTest(testArgv.data(), timeout, error);
  std::optional<std::string> input = readFile(statePath(stateDir, "input"));
  bool isInput = !input;
  std::string what = input && *input == hash ? "the input" : "a candidate";
  if (!error.empty()) {
    recordError(stateDir, error);
    return 0;
  }
  if (isInput) {
    writeFile(statePath(stateDir, "input"), hash);
    if (answer == Answer::TimedOut) {
      recordError(stateDir,
                  "the interestingness test ran longer than --test-timeout=" +
                      std::to_string(timeout) +
                      " seconds on the input: raise --test-timeout (0: no "
                      "limit)");
      return 0;
    }
    // Twice on the input: the answer the whole reduction stands on.
    Answer again = runTest(testArgv.data(), timeout, error);
    if (again != answer) {
      recordError(stateDir,
                  std::string("the interestingness test is not "
                              "deterministic: on the input it answered '") +
                      describe(answer) + "', then '" + describe(again) +
                      "'; gather-reduce needs a test that gives the same "
                      "answer for the same input");
      return 0;
    }
    if (answer == Answer::NotInteresting) {
      recordError(stateDir, "the interestingness test says the input is not "
                            "interesting (exit status 0): nothing to reduce");
      return 0;
    }
  }
  bool interesting = answer == Answer::Interesting;
  if (!first) {
    writeFile(answerPath, interesting ? "1" : "0");
    if (interesting)
      keepIfSmallest(stateDir, candidate, text->size());
    return interesting;
  }
  if ((*first == "1") != interesting)
    recordError(stateDir,
                "the interestingness test is not deterministic: on " + what +
                    " tested before it answered '" +
                    (*first == "1" ? "interesting" : "not interesting") +
                    "', now '" + describe(answer) +
                    "'; gather-reduce needs a test that gives the same "
                    "answer for the same input (the reduction went on with "
                    "the first answers)");
  return *first == "1";
}

std::string gather::reduce::getRecordedTestError(llvm::StringRef stateDir) {
  return readFile(statePath(stateDir, "error")).value_or("");
}

std::string
gather::reduce::getSmallestInterestingCandidate(llvm::StringRef stateDir) {
  std::string path = smallestPath(stateDir);
  return llvm::sys::fs::exists(path) ? path : "";
}
