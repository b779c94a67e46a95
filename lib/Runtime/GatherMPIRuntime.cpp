//===- GatherMPIRuntime.cpp - MPI support for sharded code ----------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Runtime/GatherMPIRuntime.h"
#include "RuntimeInternal.h"
#include "gather/Runtime/GatherRuntime.h"
#include "gather/Runtime/ShardBlocks.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

static void finalizeMPI() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized)
    MPI_Finalize();
}

/// A communicator of the job's processes for endJobAfterError alone (a
/// duplicate of MPI_COMM_WORLD made at MPI_Init here): its barrier never
/// meets a collective of the code's.
static MPI_Comm exitComm = MPI_COMM_NULL;

/// How long a process that stops on an error waits for the others to stop
/// too before it ends the job.
static constexpr int kExitAgreementSeconds = 10;

/// How long a process that ends the job waits between its last message and
/// MPI_Abort: MPICH's launcher (hydra) ends the job on MPI_Abort and may do
/// so before it has forwarded the process's last lines of output.
static constexpr int kAbortOutputMilliseconds = 200;

/// Ends the whole job with `status` (MPI_Abort), after this process's
/// output has had kAbortOutputMilliseconds to reach the launcher.
[[noreturn]] static void abortJob(int status) {
  std::fflush(stdout);
  std::fflush(stderr);
  std::this_thread::sleep_for(
      std::chrono::milliseconds(kAbortOutputMilliseconds));
  MPI_Abort(MPI_COMM_WORLD, status);
  std::_Exit(status);
}

/// Ends this process after an error with exit status `status`, and makes
/// sure no other process waits for it forever. When every process stops
/// within kExitAgreementSeconds (an error every process reaches: a combined
/// index check, a start-up verdict), MPI is finalized and each exits with
/// `status`. Otherwise (an error of this process alone, while the others
/// compute or wait in a collective for it, where MPI_Finalize would wait
/// with them) MPI_Abort ends the whole job with `status`, or 1 for a
/// status of 0: a job that had to be aborted did not succeed.
[[noreturn]] static void endJobAfterError(int status) {
  std::fflush(stdout);
  std::fflush(stderr);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  bool inMPI = initialized && !finalized;
  // (Without the communicator, where the host initialized MPI and no
  // partitioned kernel has begun, nothing tells whether the others stop
  // too: MPI_Finalize could wait for them, or return at once and end this
  // process while the launcher kills the others, with either status.)
  if (inMPI && exitComm == MPI_COMM_NULL && status != 0) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::fprintf(stderr,
                 "error: MPI rank %d stopped on the error above: the job "
                 "ends (MPI_Abort)\n",
                 rank);
    abortJob(status);
  }
  if (inMPI && exitComm != MPI_COMM_NULL) {
    MPI_Request request;
    MPI_Ibarrier(exitComm, &request);
    auto deadline = std::chrono::steady_clock::now() +
                    std::chrono::seconds(kExitAgreementSeconds);
    int done = 0;
    while (MPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
           !done) {
      if (std::chrono::steady_clock::now() > deadline) {
        int rank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (status != 0)
          std::fprintf(stderr,
                       "error: MPI rank %d stopped on the error above, the "
                       "other ranks did not within %d s: the job ends "
                       "(MPI_Abort)\n",
                       rank, kExitAgreementSeconds);
        else
          std::fprintf(stderr,
                       "error: MPI rank %d ended with exit status 0, the "
                       "other ranks did not within %d s: the job ends "
                       "(MPI_Abort, status 1)\n",
                       rank, kExitAgreementSeconds);
        abortJob(status != 0 ? status : 1);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  finalizeMPI();
  std::_Exit(status);
}

/// Prints the message, then ends this process like every other one that
/// reaches it (endJobAfterError), exit status 1.
static void mpiErrorHandler(const char *message, void *) {
  gatherPrintMessageAndExit(message, [] { endJobAfterError(1); });
}

/// Reports `message` to the error handler and ends the job
/// (endJobAfterError) even when a host's handler returns: after these errors
/// the collectives of the processes no longer match, and the code cannot go
/// on without reading or writing outside a buffer.
[[noreturn]] static void failJob(const std::string &message) {
  gather::runtime::reportMessage(message);
  endJobAfterError(1);
}

/// Ends the job with `function`'s complaint about its arguments unless
/// `ok`: what a C caller of the collectives can get wrong (the compiler's
/// calls never do). docs/RuntimeErrors.md lists the checks.
static void requireArgument(bool ok, const char *function,
                            const std::string &what) {
  if (!ok)
    failJob(std::string("gather's MPI runtime: ") + function + ": " + what);
}

/// `a * b`, or the job ends with `function`'s complaint if it overflows.
static int64_t checkedProduct(int64_t a, int64_t b, const char *function,
                              const char *what) {
  int64_t product = 0;
  requireArgument(!__builtin_mul_overflow(a, b, &product), function,
                  std::string(what) + " overflows 64 bits (" +
                      std::to_string(a) + " * " + std::to_string(b) + ")");
  return product;
}

/// Ends the job unless `value` (argument `name` of `function`) is >= 0.
static void requireNonNegative(int64_t value, const char *function,
                               const char *name) {
  requireArgument(value >= 0, function,
                  std::string(name) + " is " + std::to_string(value) +
                      ", a size must not be negative");
}

/// Whether MPI was initialized here (gatherMPIStartJob or gatherMPIInit),
/// and whether gatherMPIInit has installed its error handler since; both
/// under initMutex (kernels may begin on several threads).
static std::mutex initMutex;
static bool initializedHere = false;
static bool installedErrorHandler = false;

/// From the library's load on, the runtime ends a process after an error
/// (the default error handler, or a report after a handler that returns)
/// through endJobAfterError, whatever initialized MPI and whether or not
/// gatherMPIInit ran: never with a bare exit, after which the launcher
/// would kill the other processes.
__attribute__((constructor)) static void setErrorExit() {
  gatherSetErrorExit([] { endJobAfterError(1); });
}

/// MPI_Init unless MPI is initialized; MPI_Finalize at exit after it.
/// Reports a call after MPI_Finalize (MPI cannot start again).
static void initializeMPI() {
  std::lock_guard<std::mutex> lock(initMutex);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized)
    failJob("onnx.GatherElements: a partitioned kernel was called after "
            "MPI_Finalize: MPI cannot be used again in this process");
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized)
    return;
  MPI_Init(nullptr, nullptr);
  MPI_Comm_dup(MPI_COMM_WORLD, &exitComm);
  std::atexit(finalizeMPI);
  initializedHere = true;
}

extern "C" void gatherMPIInit(int64_t numProcesses) {
  initializeMPI();
  // (Not in a host that initialized MPI itself: its own handler stays; the
  // default one, where it has none, ends the job the same way.)
  {
    std::lock_guard<std::mutex> lock(initMutex);
    if (initializedHere && !installedErrorHandler) {
      gatherSetErrorHandler(mpiErrorHandler, nullptr);
      installedErrorHandler = true;
    }
  }
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != numProcesses)
    failJob("onnx.GatherElements: the code was partitioned for " +
            std::to_string(numProcesses) +
            (numProcesses == 1 ? " process" : " processes") +
            " (shard-grid), but the MPI job has " + std::to_string(size) +
            "; run it with mpirun -np " + std::to_string(numProcesses));
}

extern "C" void gatherMPIStartJob() { initializeMPI(); }

namespace {
/// What gatherMPIAgreeToRun exchanges: one rank's verdict and plan.
struct StartState {
  int64_t failed;
  int64_t shardGrid;
  int64_t shardDim;
  uint64_t programHash;

  bool samePlan(const StartState &other) const {
    return shardGrid == other.shardGrid && shardDim == other.shardDim &&
           programHash == other.programHash;
  }
};
} // namespace

/// `rank 1` or `ranks 0, 2`.
static std::string describeRanks(const std::vector<int> &ranks) {
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  for (size_t i = 0; i < ranks.size(); ++i)
    text += (i ? ", " : "") + std::to_string(ranks[i]);
  return text;
}

extern "C" void gatherMPIExit(int status) {
  // (exit() keeps the low 8 bits: 256 would read as success.)
  endJobAfterError(status >= 0 && status <= 255 ? status : 1);
}

extern "C" void gatherMPIAgreeToRun(int failed, int64_t shardGrid,
                                    int64_t shardDim, uint64_t programHash) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  StartState mine{failed ? 1 : 0, shardGrid, shardDim, programHash};
  std::vector<StartState> all(static_cast<size_t>(size));
  MPI_Allgather(&mine, 4, MPI_INT64_T, all.data(), 4, MPI_INT64_T,
                MPI_COMM_WORLD);

  std::vector<int> failedRanks;
  for (int r = 0; r < size; ++r)
    if (all[r].failed)
      failedRanks.push_back(r);
  if (!failedRanks.empty()) {
    if (!failed)
      std::fprintf(stderr,
                   "error: MPI %s failed to start (its error is above): rank "
                   "%d stops too\n",
                   describeRanks(failedRanks).c_str(), rank);
    gatherMPIExit(1);
  }

  // The different plans, and the ranks that have each, in rank order.
  std::vector<StartState> plans;
  std::vector<std::vector<int>> ranksOfPlan;
  for (int r = 0; r < size; ++r) {
    size_t i = 0;
    while (i < plans.size() && !plans[i].samePlan(all[r]))
      ++i;
    if (i == plans.size()) {
      plans.push_back(all[r]);
      ranksOfPlan.emplace_back();
    }
    ranksOfPlan[i].push_back(r);
  }
  if (plans.size() == 1)
    return;
  std::string text = "error: the MPI ranks were started with different "
                     "partition plans: ";
  for (size_t i = 0; i < plans.size(); ++i) {
    const StartState &plan = plans[i];
    char program[32];
    std::snprintf(program, sizeof(program), "%016" PRIx64, plan.programHash);
    text += (i ? "; " : "") + describeRanks(ranksOfPlan[i]) +
            ": shard-grid=" + std::to_string(plan.shardGrid) +
            " shard-dim=" + std::to_string(plan.shardDim) + " program " +
            program;
  }
  std::fprintf(stderr,
               "%s; start every rank with the same input, entry and "
               "--pipeline-options\n",
               text.c_str());
  gatherMPIExit(1);
}

extern "C" void gatherMPIAbortJob(int status) { abortJob(status); }

//===----------------------------------------------------------------------===//
// The collectives of partitioned gathers
//===----------------------------------------------------------------------===//

/// The communicator of a group (see GatherMPIRuntime.h): MPI_COMM_WORLD for
/// `splitId` 0, else one MPI_Comm_split per `splitId`, kept for the job.
static MPI_Comm getGroupComm(const char *function, int64_t splitId,
                             int64_t color, int64_t key) {
  if (splitId == 0)
    return MPI_COMM_WORLD;
  // (The messages are built only when they are needed: this runs per call.)
  if (color < 0 || color > std::numeric_limits<int>::max())
    requireArgument(false, function,
                    "color is " + std::to_string(color) +
                        ", not a non-negative int (splitId " +
                        std::to_string(splitId) + ")");
  if (key < std::numeric_limits<int>::min() ||
      key > std::numeric_limits<int>::max())
    requireArgument(false, function,
                    "key is " + std::to_string(key) + ", not an int");
  static std::map<int64_t, MPI_Comm> comms;
  auto [entry, inserted] = comms.try_emplace(splitId, MPI_COMM_NULL);
  if (inserted)
    MPI_Comm_split(MPI_COMM_WORLD, static_cast<int>(color),
                   static_cast<int>(key), &entry->second);
  return entry->second;
}

namespace {
/// A communicator made for one site of compiled code
/// (gatherMPICommSplitOnce), with the arguments it was made from.
struct SiteComm {
  MPI_Comm parent;
  int color;
  int key;
  MPI_Comm comm;
};
} // namespace

extern "C" int64_t gatherMPICommSplitOnce(int64_t parent, int32_t color,
                                          int32_t key, int64_t *slot) {
  requireArgument(slot, "gatherMPICommSplitOnce", "slot is null");
  // Each site's slot holds 1 + its index here (0: not made yet). A deque
  // keeps the entries in place as it grows.
  static std::mutex mutex;
  static std::deque<SiteComm> comms;
  std::lock_guard<std::mutex> lock(mutex);
  auto parentComm = static_cast<MPI_Comm>(parent);
  if (*slot == 0) {
    requireArgument(color >= 0, "gatherMPICommSplitOnce",
                    "color is " + std::to_string(color) + ", not >= 0");
    // An invalid parent is an error of MPI_COMM_WORLD's (MPI_COMM_SELF's
    // in MPI 4): returned here, reported as gather's.
    MPI_Errhandler world = MPI_ERRHANDLER_NULL, self = MPI_ERRHANDLER_NULL;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world);
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &self);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm comm = MPI_COMM_NULL;
    int status = MPI_Comm_split(parentComm, color, key, &comm);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, world);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, self);
    MPI_Errhandler_free(&world);
    MPI_Errhandler_free(&self);
    if (status != MPI_SUCCESS) {
      char text[MPI_MAX_ERROR_STRING];
      int length = 0;
      MPI_Error_string(status, text, &length);
      failJob("gather's MPI runtime: gatherMPICommSplitOnce: "
              "MPI_Comm_split of parent communicator " +
              std::to_string(parent) +
              " failed: " + std::string(text, static_cast<size_t>(length)));
    }
    comms.push_back({parentComm, color, key, comm});
    *slot = static_cast<int64_t>(comms.size());
  }
  if (*slot < 1 || static_cast<size_t>(*slot) > comms.size())
    failJob("gather's MPI runtime: an MPI_Comm_split site of the code holds "
            "an invalid value (" +
            std::to_string(*slot) + ")");
  const SiteComm &site = comms[static_cast<size_t>(*slot - 1)];
  auto describe = [](MPI_Comm parent, int color, int key) {
    return "parent communicator " +
           std::to_string(static_cast<int64_t>(parent)) + ", color " +
           std::to_string(color) + " and key " + std::to_string(key);
  };
  if (site.parent != parentComm || site.color != color || site.key != key)
    failJob("gather's MPI runtime: an MPI_Comm_split site of the code ran "
            "with " +
            describe(parentComm, color, key) +
            " after it made its communicator with " +
            describe(site.parent, site.color, site.key));
  return static_cast<int64_t>(site.comm);
}

namespace {
/// `count` elements of T for `function` (uninitialized; trivially copyable
/// T): the job ends with a message if they do not fit in memory (a
/// std::vector would throw std::bad_alloc across the C boundary).
template <typename T>
class CheckedArray {
public:
  CheckedArray(int64_t count, const char *function, const char *what) {
    int64_t bytes =
        checkedProduct(count, static_cast<int64_t>(sizeof(T)), function, what);
    elements = static_cast<T *>(std::malloc(bytes > 0 ? bytes : 1));
    if (!elements)
      failJob(std::string("gather's MPI runtime: ") + function +
              ": out of memory for " + what + " (" + std::to_string(bytes) +
              " bytes)");
  }
  ~CheckedArray() { std::free(elements); }
  CheckedArray(const CheckedArray &) = delete;
  CheckedArray &operator=(const CheckedArray &) = delete;
  T &operator[](int64_t i) { return elements[i]; }
  T *data() { return elements; }

private:
  T *elements = nullptr;
};
} // namespace

/// The MPI integer type of `bytes` bytes.
static MPI_Datatype getBitsType(int64_t bytes) {
  switch (bytes) {
  case 1:
    return MPI_INT8_T;
  case 2:
    return MPI_INT16_T;
  case 4:
    return MPI_INT32_T;
  default:
    return MPI_INT64_T;
  }
}

/// The most elements or bytes one MPI call is given (MPI counts are int).
static constexpr int64_t kMaxMPICount = int64_t{1} << 30;

extern "C" void gatherMPIAllreduceSumBits(void *buffer, int64_t count,
                                          int64_t elementBytes, int64_t splitId,
                                          int64_t color, int64_t key) {
  const char *function = "gatherMPIAllreduceSumBits";
  requireNonNegative(count, function, "count");
  requireArgument(elementBytes == 1 || elementBytes == 2 || elementBytes == 4 ||
                      elementBytes == 8,
                  function,
                  "elementBytes is " + std::to_string(elementBytes) +
                      ", not 1, 2, 4 or 8");
  checkedProduct(count, elementBytes, function, "count * elementBytes");
  requireArgument(buffer || count == 0, function, "buffer is null");
  MPI_Comm comm = getGroupComm(function, splitId, color, key);
  MPI_Datatype type = getBitsType(elementBytes);
  char *bytes = static_cast<char *>(buffer);
  for (int64_t done = 0; done < count; done += kMaxMPICount) {
    int64_t part = std::min(kMaxMPICount, count - done);
    MPI_Allreduce(MPI_IN_PLACE, bytes + done * elementBytes,
                  static_cast<int>(part), type, MPI_SUM, comm);
  }
}

extern "C" void gatherMPIAllgatherv(void *buffer, int64_t outer,
                                    int64_t sliceBytes, int64_t dimSize,
                                    int64_t splitId, int64_t color,
                                    int64_t key) {
  const char *function = "gatherMPIAllgatherv";
  requireNonNegative(outer, function, "outer");
  requireNonNegative(sliceBytes, function, "sliceBytes");
  requireNonNegative(dimSize, function, "dimSize");
  int64_t bytes = checkedProduct(
      checkedProduct(outer, dimSize, function, "outer * dimSize"), sliceBytes,
      function, "outer * dimSize * sliceBytes");
  requireArgument(buffer || bytes == 0, function, "buffer is null");
  requireArgument(outer <= std::numeric_limits<int>::max(), function,
                  "outer is " + std::to_string(outer) +
                      ", more than MPI can count");
  // (The counts and offsets of MPI_Allgatherv are ints of indices.)
  if (dimSize > std::numeric_limits<int>::max())
    requireArgument(false, function,
                    "dimSize is " + std::to_string(dimSize) +
                        ", more than MPI can count");
  MPI_Comm comm = getGroupComm(function, splitId, color, key);
  int processes = 1;
  MPI_Comm_size(comm, &processes);
  if (outer == 0 || sliceBytes == 0 || dimSize == 0)
    return;
  // The unit: one index of the split dimension, `outer` runs of
  // `sliceBytes` bytes, `dimSize * sliceBytes` apart, with an extent of
  // `sliceBytes` (so that consecutive units are consecutive indices).
  MPI_Datatype slice = MPI_DATATYPE_NULL, unit = MPI_DATATYPE_NULL;
  int64_t sliceCount = 1;
  if (sliceBytes <= kMaxMPICount) {
    MPI_Type_contiguous(static_cast<int>(sliceBytes), MPI_BYTE, &slice);
  } else {
    // A slice too large for one count: whole 8-byte words if it has them.
    sliceCount = sliceBytes % 8 == 0 ? sliceBytes / 8 : sliceBytes;
    if (sliceCount > std::numeric_limits<int>::max())
      failJob("onnx.GatherElements: a slab of " + std::to_string(sliceBytes) +
              " bytes per index is too large for MPI_Allgatherv");
    MPI_Type_contiguous(static_cast<int>(sliceCount),
                        sliceBytes % 8 == 0 ? MPI_INT64_T : MPI_BYTE, &slice);
  }
  if (outer == 1) {
    unit = slice;
  } else {
    MPI_Datatype runs = MPI_DATATYPE_NULL;
    MPI_Type_create_hvector(static_cast<int>(outer), 1, dimSize * sliceBytes,
                            slice, &runs);
    MPI_Type_create_resized(runs, 0, sliceBytes, &unit);
    MPI_Type_free(&runs);
    MPI_Type_free(&slice);
  }
  MPI_Type_commit(&unit);
  std::vector<int> counts(static_cast<size_t>(processes)),
      offsets(static_cast<size_t>(processes));
  gather::ShardBlocks blocks{dimSize, processes};
  for (int r = 0; r < processes; ++r) {
    counts[r] = static_cast<int>(blocks.count(r));
    offsets[r] = static_cast<int>(blocks.offset(r));
  }
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, counts.data(),
                 offsets.data(), unit, comm);
  MPI_Type_free(&unit);
}

/// `value` as an MPI count, or an error naming `what`.
static int toMPICount(int64_t value, const char *what) {
  if (value > std::numeric_limits<int>::max())
    failJob(std::string("onnx.GatherElements: the all-to-all lookup has ") +
            std::to_string(value) + " " + what + ", more than MPI can count");
  return static_cast<int>(value);
}

extern "C" void gatherMPIAlltoallLookup(const int64_t *positions, int64_t count,
                                        void *result, const void *data,
                                        int64_t dataStart, int64_t dataExtent,
                                        int64_t outer, int64_t axisSize,
                                        int64_t inner, int64_t elementBytes,
                                        int64_t splitId, int64_t color,
                                        int64_t key) {
  const char *function = "gatherMPIAlltoallLookup";
  requireNonNegative(count, function, "count");
  requireNonNegative(outer, function, "outer");
  requireNonNegative(axisSize, function, "axisSize");
  requireNonNegative(inner, function, "inner");
  requireNonNegative(dataStart, function, "dataStart");
  requireNonNegative(dataExtent, function, "dataExtent");
  requireArgument(elementBytes > 0 &&
                      elementBytes <= std::numeric_limits<int>::max(),
                  function,
                  "elementBytes is " + std::to_string(elementBytes) +
                      ", not between 1 and " +
                      std::to_string(std::numeric_limits<int>::max()));
  requireArgument(
      dataStart <= axisSize && dataExtent <= axisSize - dataStart, function,
      "the slab [" + std::to_string(dataStart) + ", " +
          std::to_string(dataStart) + " + " + std::to_string(dataExtent) +
          ") is not within the axis of size " + std::to_string(axisSize));
  checkedProduct(count, elementBytes, function, "count * elementBytes");
  checkedProduct(checkedProduct(checkedProduct(outer, axisSize, function,
                                               "outer * axisSize"),
                                inner, function, "outer * axisSize * inner"),
                 elementBytes, function, "the bytes of 'data'");
  int64_t slabElements = checkedProduct(
      checkedProduct(outer, dataExtent, function, "outer * dataExtent"), inner,
      function, "outer * dataExtent * inner");
  requireArgument((positions && result) || count == 0, function,
                  "positions or result is null");
  requireArgument(data || slabElements == 0, function, "data is null");
  MPI_Comm comm = getGroupComm(function, splitId, color, key);
  int processes = 1, rank = 0;
  MPI_Comm_size(comm, &processes);
  MPI_Comm_rank(comm, &rank);
  gather::ShardBlocks slabs{axisSize, processes};
  auto size = static_cast<size_t>(processes);
  // The owner of each request, and its place among the owner's requests.
  std::vector<int64_t> sendCounts(size, 0), receiveCounts(size, 0);
  CheckedArray<int> owners(count, function, "the owners of the positions");
  int64_t wholeSize = outer * axisSize * inner;
  for (int64_t i = 0; i < count; ++i) {
    if (positions[i] < 0 || positions[i] >= wholeSize)
      failJob(
          "onnx.GatherElements: the all-to-all lookup was asked for position " +
          std::to_string(positions[i]) + " of 'data', outside [0, " +
          std::to_string(wholeSize) + ")");
    int64_t index = (positions[i] / inner) % axisSize;
    owners[i] = static_cast<int>(slabs.owner(index));
    ++sendCounts[owners[i]];
  }
  MPI_Alltoall(sendCounts.data(), 1, MPI_INT64_T, receiveCounts.data(), 1,
               MPI_INT64_T, comm);
  std::vector<int> sendCountsInt(size), sendOffsets(size),
      receiveCountsInt(size), receiveOffsets(size);
  int64_t sent = 0, received = 0;
  for (size_t q = 0; q < size; ++q) {
    sendCountsInt[q] = toMPICount(sendCounts[q], "requests");
    receiveCountsInt[q] = toMPICount(receiveCounts[q], "requests");
    sendOffsets[q] = toMPICount(sent, "requests");
    receiveOffsets[q] = toMPICount(received, "requests");
    sent += sendCounts[q];
    received += receiveCounts[q];
  }
  CheckedArray<int64_t> requests(count, function, "the requests"),
      asked(received, function, "the requests received"),
      slots(count, function, "the places of the answers");
  std::vector<int> cursor(sendOffsets);
  for (int64_t i = 0; i < count; ++i) {
    slots[i] = cursor[owners[i]]++;
    requests[slots[i]] = positions[i];
  }
  MPI_Alltoallv(requests.data(), sendCountsInt.data(), sendOffsets.data(),
                MPI_INT64_T, asked.data(), receiveCountsInt.data(),
                receiveOffsets.data(), MPI_INT64_T, comm);

  // The answers, from this process's block [lo, hi) of the axis only.
  int64_t lo = slabs.offset(rank), hi = slabs.offset(rank + 1);
  auto bytes = static_cast<size_t>(elementBytes);
  CheckedArray<char> answers(checkedProduct(received, elementBytes, function,
                                            "the bytes of the answers"),
                             function, "the answers"),
      values(count * elementBytes, function, "the values received");
  const char *slab = static_cast<const char *>(data);
  for (int64_t j = 0; j < received; ++j) {
    int64_t position = asked[j];
    int64_t row = inner == 0 || axisSize == 0 ? 0 : position / inner / axisSize;
    int64_t index = inner == 0 ? 0 : (position / inner) % axisSize;
    int64_t within = inner == 0 ? 0 : position % inner;
    if (position < 0 || row >= outer || index < lo || index >= hi ||
        index < dataStart || index >= dataStart + dataExtent)
      failJob("onnx.GatherElements: MPI process " + std::to_string(rank) +
              " was asked for position " + std::to_string(position) +
              " of 'data', outside its slab [" + std::to_string(lo) + ", " +
              std::to_string(hi) + ") of the axis");
    std::copy_n(slab +
                    ((row * dataExtent + index - dataStart) * inner + within) *
                        elementBytes,
                bytes, answers.data() + j * elementBytes);
  }
  MPI_Datatype element = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(static_cast<int>(elementBytes), MPI_BYTE, &element);
  MPI_Type_commit(&element);
  MPI_Alltoallv(answers.data(), receiveCountsInt.data(), receiveOffsets.data(),
                element, values.data(), sendCountsInt.data(),
                sendOffsets.data(), element, comm);
  MPI_Type_free(&element);
  char *out = static_cast<char *>(result);
  for (int64_t i = 0; i < count; ++i)
    std::copy_n(values.data() + slots[i] * elementBytes, bytes,
                out + i * elementBytes);
}

//===----------------------------------------------------------------------===//
// The bounded wait of partitioned kernels
//===----------------------------------------------------------------------===//

/// The limit of a call of a partitioned kernel without
/// gatherMPISetKernelTimeout or GATHER_MPI_TIMEOUT: long enough for any gather
/// of a real job (a terabyte at memory speed), short enough that a job that
/// waits for a rank that never comes ends within its allocation.
static constexpr double kDefaultKernelTimeoutSeconds = 600;

namespace {
/// The calls of partitioned kernels on this process, watched by one thread.
struct KernelWatch {
  std::mutex mutex;
  std::condition_variable changed;
  bool watching = false; // the thread runs
  /// The limit in seconds (0: none); < 0 until set or read from the
  /// environment.
  double seconds = -1;
  int depth = 0;          // nested calls in progress
  std::thread::id thread; // the thread of the calls in progress
  bool limited = false;   // the outermost call has a deadline
  const GatherReportSite *site = nullptr;
  uint64_t call = 0;       // the outermost call's number at `site`
  uint64_t generation = 0; // outermost calls begun so far
  std::chrono::steady_clock::time_point deadline;
  std::map<const GatherReportSite *, uint64_t> calls;
};
} // namespace

/// The process's KernelWatch, never destroyed (its thread outlives static
/// destructors).
static KernelWatch &getKernelWatch() {
  static auto *watch = new KernelWatch;
  return *watch;
}

/// The watchdog: ends the job when the outermost call in progress has not
/// returned by its deadline.
static void watchKernels() {
  KernelWatch &watch = getKernelWatch();
  std::unique_lock<std::mutex> lock(watch.mutex);
  for (;;) {
    watch.changed.wait(lock, [&] { return watch.depth > 0 && watch.limited; });
    uint64_t generation = watch.generation;
    if (watch.changed.wait_until(lock, watch.deadline, [&] {
          return watch.depth == 0 || watch.generation != generation;
        }))
      continue;
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *location =
        watch.site && watch.site->location[0] ? watch.site->location : nullptr;
    std::fprintf(
        stderr,
        "%s%serror: MPI rank %d: call %" PRIu64
        " of this partitioned kernel has not finished within %g s: it waits "
        "in a collective that another rank has not joined (a rank that does "
        "not call the kernel, calls it fewer times than this one, or has "
        "finished MPI); the job ends (MPI_Abort). GATHER_MPI_TIMEOUT=<seconds> "
        "(0: no limit) or gatherMPISetKernelTimeout sets the limit\n",
        location ? location : "", location ? ": " : "", rank, watch.call,
        watch.seconds);
    abortJob(1);
  }
}

/// The limit, from the environment on first use.
static double getKernelTimeout(KernelWatch &watch) {
  if (watch.seconds >= 0)
    return watch.seconds;
  watch.seconds = kDefaultKernelTimeoutSeconds;
  const char *text = std::getenv("GATHER_MPI_TIMEOUT");
  if (!text || !*text)
    return watch.seconds;
  char *end = nullptr;
  double seconds = std::strtod(text, &end);
  // (strtod skips the spaces before the number; these are the ones after.)
  while (*end == ' ' || *end == '\t')
    ++end;
  if (end == text || *end || !std::isfinite(seconds) || seconds < 0)
    failJob(std::string("gather's MPI runtime: GATHER_MPI_TIMEOUT is '") +
            text + "', not a number of seconds >= 0 (0: no limit)");
  watch.seconds = seconds;
  return seconds;
}

extern "C" void gatherMPISetKernelTimeout(double seconds) {
  requireArgument(std::isfinite(seconds) && seconds >= 0,
                  "gatherMPISetKernelTimeout",
                  "seconds is " + std::to_string(seconds) +
                      ", not a number >= 0 (0: no limit)");
  KernelWatch &watch = getKernelWatch();
  std::lock_guard<std::mutex> lock(watch.mutex);
  watch.seconds = seconds;
}

/// The deadline of a call at `site` that begins, unless one is in progress
/// on this thread; false (and nothing changes) when one is in progress on
/// another thread.
static bool armKernelWatch(const GatherReportSite *site) {
  KernelWatch &watch = getKernelWatch();
  std::lock_guard<std::mutex> lock(watch.mutex);
  if (watch.depth > 0 && watch.thread != std::this_thread::get_id())
    return false;
  if (watch.depth++ > 0)
    return true;
  watch.thread = std::this_thread::get_id();
  double seconds = getKernelTimeout(watch);
  watch.site = site;
  watch.call = ++watch.calls[site];
  ++watch.generation;
  watch.limited = seconds > 0;
  // (At most ~30 years: a time point that cannot overflow.)
  watch.deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(std::min(seconds, 1e9)));
  if (seconds > 0 && !watch.watching) {
    watch.watching = true;
    std::thread(watchKernels).detach();
  }
  watch.changed.notify_all();
  return true;
}

extern "C" void gatherMPIKernelEnter(const GatherReportSite *site) {
  // Calls that overlap on two threads: MPI matches the collectives of a
  // communicator in the order each process makes them, and the threads'
  // orders need not agree across the processes (wrong results or a hang).
  if (!armKernelWatch(site)) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *location = site && site->location[0] ? site->location : "";
    std::fprintf(stderr,
                 "%s%serror: MPI rank %d: a partitioned kernel was called on "
                 "a thread while a call of one is in progress on another: "
                 "calls of partitioned kernels must not overlap (MPI would "
                 "match their collectives in different orders on different "
                 "ranks); the job ends (MPI_Abort)\n",
                 location, *location ? ": " : "", rank);
    abortJob(1);
  }
  // MPI initialized by the host: the communicator of endJobAfterError, made
  // in the first call (collective over MPI_COMM_WORLD like the kernel's own
  // collectives after it, and under the call's limit like them).
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  static std::once_flag duplicated;
  if (initialized && !finalized)
    std::call_once(duplicated, [] {
      if (exitComm == MPI_COMM_NULL)
        MPI_Comm_dup(MPI_COMM_WORLD, &exitComm);
    });
}

extern "C" void gatherMPIKernelExit() {
  KernelWatch &watch = getKernelWatch();
  std::lock_guard<std::mutex> lock(watch.mutex);
  if (watch.depth > 0 && --watch.depth == 0)
    watch.changed.notify_all();
}
