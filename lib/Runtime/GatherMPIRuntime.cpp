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
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <string>
#include <thread>
#include <vector>

static void finalizeMPI() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}

/// A communicator of the job's processes for endJobAfterError alone (a
/// duplicate of MPI_COMM_WORLD made at MPI_Init here): its barrier never
/// meets a collective of the code's.
static MPI_Comm exitComm = MPI_COMM_NULL;

/// How long a process that stops on an error waits for the others to stop
/// too before it ends the job.
static constexpr int kExitAgreementSeconds = 10;

/// Ends this process after an error with exit status `status`, and makes
/// sure no other process waits for it forever. When every process stops
/// within kExitAgreementSeconds (an error every process reaches: a combined
/// index check, a start-up verdict), MPI is finalized and each exits with
/// `status`. Otherwise (an error of this process alone, while the others
/// compute or wait in a collective for it, where MPI_Finalize would wait
/// with them) MPI_Abort ends the whole job with `status`.
[[noreturn]] static void endJobAfterError(int status) {
  std::fflush(stdout);
  std::fflush(stderr);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized && exitComm != MPI_COMM_NULL) {
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
        std::fprintf(stderr,
                     "error: MPI rank %d stopped on the error above, the "
                     "other ranks did not within %d s: the job ends "
                     "(MPI_Abort)\n",
                     rank, kExitAgreementSeconds);
        std::fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, status);
        std::_Exit(status);
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

/// Whether MPI was initialized here (gatherMPIStartJob or gatherMPIInit),
/// and whether gatherMPIInit has installed its error handler since.
static bool initializedHere = false;
static bool installedErrorHandler = false;

/// MPI_Init unless MPI is initialized; MPI_Finalize at exit after it.
static void initializeMPI() {
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
  // (Not in a host that initialized MPI itself: its own handler stays.)
  if (initializedHere && !installedErrorHandler) {
    gatherSetErrorHandler(mpiErrorHandler, nullptr);
    installedErrorHandler = true;
  }
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != numProcesses)
    gather::runtime::reportMessage(
        "onnx.GatherElements: the code was partitioned for " +
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

extern "C" void gatherMPIExit(int status) { endJobAfterError(status); }

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

extern "C" void gatherMPIAbortJob(int status) {
  std::fflush(stdout);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, status);
  std::_Exit(status);
}

//===----------------------------------------------------------------------===//
// The collectives of partitioned gathers
//===----------------------------------------------------------------------===//

/// The communicator of a group (see GatherMPIRuntime.h): MPI_COMM_WORLD for
/// `splitId` 0, else one MPI_Comm_split per `splitId`, kept for the job.
static MPI_Comm getGroupComm(int64_t splitId, int64_t color, int64_t key) {
  if (splitId == 0)
    return MPI_COMM_WORLD;
  static std::map<int64_t, MPI_Comm> comms;
  auto [entry, inserted] = comms.try_emplace(splitId, MPI_COMM_NULL);
  if (inserted)
    MPI_Comm_split(MPI_COMM_WORLD, static_cast<int>(color),
                   static_cast<int>(key), &entry->second);
  return entry->second;
}

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
  MPI_Comm comm = getGroupComm(splitId, color, key);
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
  MPI_Comm comm = getGroupComm(splitId, color, key);
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
      gather::runtime::reportMessage(
          "onnx.GatherElements: a slab of " + std::to_string(sliceBytes) +
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
