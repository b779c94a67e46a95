//===- MPITraffic.cpp - Bytes per MPI process, and injected faults --------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An LD_PRELOAD library over MPI's profiling interface (PMPI): every
// collective a process calls (gather's MPI runtime, gather-runner's start-up
// verdict, a host's own) is counted before MPI runs it.
//
// Traffic. For each MPI function, the calls, the payload (the bytes the
// process hands to the call) and the bytes the process sends in the
// bandwidth-optimal algorithm for that payload on P processes, the one
// docs/Sharding.md's model uses and MPICH takes for large messages:
//   MPI_Allreduce   (reduce-scatter + all-gather, ring): 2 (P-1)/P x buffer
//   MPI_Allgather(v) (ring): every block but the one of the next process
//   MPI_Alltoall(v): every block addressed to another process
// Calls whose payload is at most 8 bytes per process (the index-error
// consensus, the start-up verdict's rows) are counted apart as "small".
// Written at MPI_Finalize, one line per function, to
// $GATHER_MPI_TRAFFIC.<rank> (or stderr when it is empty):
//   rank 0 MPI_Allgatherv calls 1 payload 64 sent 64
//   rank 0 small calls 2 payload 16 sent 16
//
// Faults. GATHER_MPI_FAULT=<rank>:<function>:<kind> makes process <rank>
// fail on entering its first call of <function> (an MPI function name),
// while the others are inside that collective: `kill` sends itself SIGKILL,
// `exit` calls exit(3) (its exit handlers run), `_exit` _Exit(3) (they do
// not), `abort` MPI_Abort(3), `report` reports a run-time error through
// gather's runtime (gatherReportMessage, as a failed check of the code does).
//
//===----------------------------------------------------------------------===//

#include <mpi.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>

#include <dlfcn.h>
#include <unistd.h>

namespace {
/// What one MPI function moved on this process.
struct Traffic {
  int64_t calls = 0;
  int64_t payload = 0;
  int64_t sent = 0;
};
} // namespace

/// Per function name, ordered for the report. Never destroyed: MPI_Finalize
/// may run from an exit handler, after the static destructors.
static std::map<std::string, Traffic> &getTraffic() {
  static auto *traffic = new std::map<std::string, Traffic>();
  return *traffic;
}

static int getTypeBytes(MPI_Datatype type) {
  int bytes = 0;
  PMPI_Type_size(type, &bytes);
  return bytes;
}

static int getSize(MPI_Comm comm) {
  int size = 1;
  PMPI_Comm_size(comm, &size);
  return size;
}

static int getRank(MPI_Comm comm) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  return rank;
}

/// A run-time error of this process alone, through gather's runtime (its
/// handler, as the generated code's checks report one).
static void reportError(const char *function) {
  using ReportFn = void (*)(const char *);
  auto report =
      reinterpret_cast<ReportFn>(::dlsym(RTLD_DEFAULT, "gatherReportMessage"));
  if (!report) {
    std::fprintf(stderr, "GATHER_MPI_FAULT: no gatherReportMessage\n");
    return;
  }
  std::string message =
      std::string("an error of this process alone, in ") + function;
  report(message.c_str());
}

/// Fails here if GATHER_MPI_FAULT names this process and `function`.
static void injectFault(const char *function) {
  static bool done = false;
  const char *fault = std::getenv("GATHER_MPI_FAULT");
  if (done || !fault || !*fault)
    return;
  char name[64] = {0}, kind[16] = {0};
  int rank = -1;
  if (std::sscanf(fault, "%d:%63[^:]:%15s", &rank, name, kind) != 3) {
    std::fprintf(stderr,
                 "GATHER_MPI_FAULT: expected <rank>:<function>:"
                 "<kill|exit|abort>, got '%s'\n",
                 fault);
    std::exit(2);
  }
  if (rank != getRank(MPI_COMM_WORLD) || std::strcmp(name, function) != 0)
    return;
  done = true;
  std::fprintf(stderr, "GATHER_MPI_FAULT: rank %d fails (%s) in %s\n", rank,
               kind, function);
  std::fflush(stderr);
  if (!std::strcmp(kind, "kill"))
    ::kill(::getpid(), SIGKILL);
  else if (!std::strcmp(kind, "abort")) {
    // MPI_Abort has MPICH's launcher end the job at once, and the line
    // above could be lost in its output forwarding (seen 1 run in 7): give
    // the launcher time to forward it first.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    PMPI_Abort(MPI_COMM_WORLD, 3);
  } else if (!std::strcmp(kind, "_exit"))
    std::_Exit(3);
  else if (!std::strcmp(kind, "report"))
    reportError(function);
  std::exit(3);
}

static void record(const char *function, int64_t payload, int64_t sent) {
  Traffic &t = getTraffic()[payload <= 8 ? "small" : function];
  ++t.calls;
  t.payload += payload;
  t.sent += sent;
}

static void report() {
  const char *path = std::getenv("GATHER_MPI_TRAFFIC");
  int rank = getRank(MPI_COMM_WORLD);
  FILE *out = stderr;
  if (path && *path) {
    std::string name = std::string(path) + "." + std::to_string(rank);
    out = std::fopen(name.c_str(), "w");
    if (!out) {
      std::perror(name.c_str());
      return;
    }
  }
  for (const auto &[function, t] : getTraffic())
    std::fprintf(out, "rank %d %s calls %lld payload %lld sent %lld\n", rank,
                 function.c_str(), static_cast<long long>(t.calls),
                 static_cast<long long>(t.payload),
                 static_cast<long long>(t.sent));
  if (out != stderr)
    std::fclose(out);
}

extern "C" int MPI_Finalize() {
  report();
  return PMPI_Finalize();
}

extern "C" int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                             MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  injectFault("MPI_Allreduce");
  int64_t bytes = int64_t(count) * getTypeBytes(type);
  int64_t p = getSize(comm);
  record("MPI_Allreduce", bytes, 2 * bytes * (p - 1) / p);
  return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

/// The ring all-gather: each process sends P-1 blocks, all but the next
/// process's own.
static int64_t getRingSent(const int *counts, int typeBytes, MPI_Comm comm) {
  int p = getSize(comm), next = (getRank(comm) + 1) % p;
  int64_t total = 0;
  for (int q = 0; q < p; ++q)
    total += int64_t(counts[q]) * typeBytes;
  return p == 1 ? 0 : total - int64_t(counts[next]) * typeBytes;
}

extern "C" int MPI_Allgatherv(const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              const int *recvcounts, const int *displs,
                              MPI_Datatype recvtype, MPI_Comm comm) {
  injectFault("MPI_Allgatherv");
  int typeBytes = getTypeBytes(recvtype);
  record("MPI_Allgatherv", int64_t(recvcounts[getRank(comm)]) * typeBytes,
         getRingSent(recvcounts, typeBytes, comm));
  return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                         displs, recvtype, comm);
}

extern "C" int MPI_Allgather(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm) {
  injectFault("MPI_Allgather");
  int64_t block = int64_t(recvcount) * getTypeBytes(recvtype);
  int64_t p = getSize(comm);
  record("MPI_Allgather", block, (p - 1) * block);
  return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                        recvtype, comm);
}

extern "C" int MPI_Alltoallv(const void *sendbuf, const int *sendcounts,
                             const int *sdispls, MPI_Datatype sendtype,
                             void *recvbuf, const int *recvcounts,
                             const int *rdispls, MPI_Datatype recvtype,
                             MPI_Comm comm) {
  injectFault("MPI_Alltoallv");
  int typeBytes = getTypeBytes(sendtype), rank = getRank(comm);
  int64_t payload = 0, sent = 0;
  for (int q = 0, p = getSize(comm); q < p; ++q) {
    payload += int64_t(sendcounts[q]) * typeBytes;
    if (q != rank)
      sent += int64_t(sendcounts[q]) * typeBytes;
  }
  record("MPI_Alltoallv", payload, sent);
  return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                        recvcounts, rdispls, recvtype, comm);
}

extern "C" int MPI_Alltoall(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm) {
  injectFault("MPI_Alltoall");
  int64_t block = int64_t(sendcount) * getTypeBytes(sendtype);
  int64_t p = getSize(comm);
  record("MPI_Alltoall", p * block, (p - 1) * block);
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                       recvtype, comm);
}
