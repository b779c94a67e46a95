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

#include <mpi.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static void finalizeMPI() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}

/// Prints the message, then ends this process like every other one: MPI
/// finalized, exit status 1.
static void mpiErrorHandler(const char *message, void *) {
  gatherPrintMessageAndExit(message, finalizeMPI);
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
        " processes (shard-grid), but the MPI job has " + std::to_string(size) +
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
  std::fflush(stdout);
  std::fflush(stderr);
  finalizeMPI();
  std::_Exit(status);
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

extern "C" void gatherMPIAbortJob(int status) {
  std::fflush(stdout);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, status);
  std::_Exit(status);
}
