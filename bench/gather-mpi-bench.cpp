//===- gather-mpi-bench.cpp - The kernel partitioned over MPI processes ---===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Times gather's JIT-compiled GatherElements kernel (the kernel API,
// destination-passing style) on [8192,8192] f32 data with [8192,8192] i64
// indices (workload e: axis 1; e_axis0: axis 0), either on one process with
// `--threads` OpenMP threads, or under `mpirun -np R` with `--ranks=R`
// (`shard-grid=R shard-dim=0`, one thread per process): dimension 0 is split,
// which is local for axis 1 (the result is then assembled on every process,
// `--assembly=all-gather` or `all-reduce`: shard-assembly) and the axis for
// axis 0 (masked gather + all-reduce). Prints one line (rank 0): workload,
// mode, median ms per call over `--reps` calls after one warm-up (the
// slowest process per call), the bytes each process passes to the
// collective that moves the result per call (counted by interposing
// MPI_Allreduce and MPI_Allgatherv), and the bytes the model of
// docs/Sharding.md says each process sends for that.
// Every result is compared bit for bit with a plain C loop. `--io=split`
// (shard-io=split, docs/Sharding.md): the kernel takes and returns each
// process's slabs, and each process allocates, fills and checks only its
// slabs (its block of rows, ShardBlocks.h; for e_axis0 the axis block of
// `data`, `indices` and the result whole). The line ends with the peak
// resident set size per process (getrusage, the largest over the
// processes); `--json` prints one JSON object per run instead. `--rows=S`
// changes the size of dimension 0 (S not a multiple of R: uneven blocks);
// `--shard-dim=2` (past the rank) splits nothing: every process computes
// all of it, the replicated fallback.
//
// Run it through bench/mpi.sh.
//
//===----------------------------------------------------------------------===//

#include "gather/ExecutionEngine/JitCompiler.h"
#include "gather/Runtime/ShardBlocks.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <mpi.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

/// The bytes this process passes to the collectives that move the result
/// (interposed: the JIT-compiled code finds these definitions first, since
/// the program exports its symbols; each calls MPI's through PMPI).
static int64_t collectiveBytes = 0;

/// Counts the payload of an all-reduce larger than the 8-byte index-error
/// consensus.
extern "C" int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  int size = 0;
  MPI_Type_size(datatype, &size);
  if (static_cast<int64_t>(count) * size > 8)
    collectiveBytes += static_cast<int64_t>(count) * size;
  return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

/// Counts the bytes this process contributes to an all-gather (its block).
extern "C" int MPI_Allgatherv(const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              const int *recvcounts, const int *displs,
                              MPI_Datatype recvtype, MPI_Comm comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Type_size(recvtype, &size);
  collectiveBytes += static_cast<int64_t>(recvcounts[rank]) * size;
  return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                         displs, recvtype, comm);
}

static constexpr int64_t kN = 8192;

using KernelFn = void (*)(void *, void *, void *);

static std::vector<int64_t> descriptor(void *data, int64_t rows) {
  // StridedMemRefType<T, 2>: allocated, aligned, offset, sizes, strides.
  std::vector<int64_t> d(7);
  std::memcpy(&d[0], &data, sizeof(void *));
  std::memcpy(&d[1], &data, sizeof(void *));
  d[2] = 0;
  d[3] = rows;
  d[4] = kN;
  d[5] = kN;
  d[6] = 1;
  return d;
}

static const char *getArg(int argc, char **argv, const char *name,
                          const char *def) {
  size_t length = std::strlen(name);
  for (int i = 1; i < argc; ++i)
    if (!std::strncmp(argv[i], name, length) && argv[i][length] == '=')
      return argv[i] + length + 1;
  return def;
}

/// The value of element (row, column) of `data` (the whole tensor's).
static float dataValue(int64_t row, int64_t column) {
  return static_cast<float>((row * kN + column) % 1000) * 0.5f;
}

/// The index at (row, column) of `indices`, in [0, range): a hash of the
/// position, so that a process can fill its slab alone.
static int64_t indexValue(int64_t row, int64_t column, int64_t range) {
  uint64_t z = static_cast<uint64_t>(row * kN + column) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return static_cast<int64_t>((z ^ (z >> 31)) % static_cast<uint64_t>(range));
}

static bool hasFlag(int argc, char **argv, const char *name) {
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], name))
      return true;
  return false;
}

int main(int argc, char **argv) {
  std::string workload = getArg(argc, argv, "--workload", "e");
  int threads = std::atoi(getArg(argc, argv, "--threads", "1"));
  int ranks = std::atoi(getArg(argc, argv, "--ranks", "0"));
  int reps = std::atoi(getArg(argc, argv, "--reps", "3"));
  std::string assembly = getArg(argc, argv, "--assembly", "all-gather");
  std::string io = getArg(argc, argv, "--io", "whole");
  bool json = hasFlag(argc, argv, "--json");
  int64_t axis = workload == "e_axis0" ? 0 : 1;
  // --rows: another size of dimension 0 (e.g. 8191, not a multiple of 2:
  // uneven blocks); --shard-dim: the dimension to split (2, past the rank:
  // none, every rank computes all of it).
  int64_t rows = std::atoll(getArg(argc, argv, "--rows", "8192"));
  std::string shardDim = getArg(argc, argv, "--shard-dim", "0");
  if (io != "whole" && io != "split") {
    std::fprintf(stderr, "--io must be whole or split, not '%s'\n", io.c_str());
    return 1;
  }
  int rank = 0, processes = 1;
  if (ranks > 0) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &processes);
  }
  // The rows this process holds of each tensor: all of them, or with
  // --io=split its block (ShardBlocks.h) of dimension 0 (split off the axis
  // for axis 1; the axis of `data` for axis 0, `indices` and the result
  // whole).
  bool split = io == "split" && ranks > 0 && shardDim == "0";
  gather::ShardBlocks blocks{rows, processes};
  int64_t lo = split ? blocks.offset(rank) : 0;
  int64_t count = split ? blocks.count(rank) : rows;
  int64_t dataLo = lo, dataRows = count;
  int64_t indicesLo = axis == 1 ? lo : 0,
          indicesRows = axis == 1 ? count : rows;

  std::vector<float> data(dataRows * kN), out(indicesRows * kN);
  std::vector<int64_t> indices(indicesRows * kN);
  for (int64_t i = 0; i < dataRows; ++i)
    for (int64_t j = 0; j < kN; ++j)
      data[i * kN + j] = dataValue(dataLo + i, j);
  for (int64_t i = 0; i < indicesRows; ++i)
    for (int64_t j = 0; j < kN; ++j)
      indices[i * kN + j] = indexValue(indicesLo + i, j, axis == 1 ? kN : rows);

  mlir::MLIRContext context;
  std::string options = "num-threads=" + std::to_string(threads);
  if (ranks > 0)
    options += " shard-grid=" + std::to_string(ranks) +
               " shard-dim=" + shardDim + " shard-assembly=" + assembly +
               " shard-io=" + io;
  // --options: more pipeline options (e.g. runtime-checks=false).
  if (const char *more = getArg(argc, argv, "--options", nullptr))
    options += std::string(" ") + more;
  auto parsed = gather::ONNXToLLVMPipelineOptions::createFromString(options);
  if (!parsed) {
    llvm::errs() << "invalid options '" << options << "'\n";
    return 1;
  }
  std::string source = gather::getGatherElementsKernelSource(
      "gather", {rows, kN}, "f32", {rows, kN}, "i64", axis);
  auto engine = gather::compileSourceAndJit(context, source, *parsed);
  if (!engine) {
    llvm::errs() << llvm::toString(engine.takeError()) << "\n";
    return 1;
  }
  auto symbol = (*engine)->lookup("_mlir_ciface_gather");
  if (!symbol) {
    llvm::errs() << llvm::toString(symbol.takeError()) << "\n";
    return 1;
  }
  auto kernel = reinterpret_cast<KernelFn>(*symbol);
  std::vector<int64_t> d = descriptor(data.data(), dataRows),
                       i = descriptor(indices.data(), indicesRows),
                       o = descriptor(out.data(), indicesRows);

  std::vector<double> times;
  int64_t bytesPerCall = 0;
  for (int rep = 0; rep <= reps; ++rep) {
    if (ranks > 0)
      MPI_Barrier(MPI_COMM_WORLD);
    int64_t before = collectiveBytes;
    auto start = std::chrono::steady_clock::now();
    kernel(d.data(), i.data(), o.data());
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    bytesPerCall = collectiveBytes - before;
    if (ranks > 0) {
      double slowest = 0;
      MPI_Reduce(&ms, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      ms = slowest;
    }
    if (rep > 0)
      times.push_back(ms);
  }
  // This process's part of the result against a C loop, bit for bit.
  int same = 1;
  for (int64_t r = 0; r < indicesRows && same; ++r)
    for (int64_t j = 0; j < kN; ++j) {
      int64_t k = indices[r * kN + j];
      float expected =
          axis == 1 ? dataValue(indicesLo + r, k) : dataValue(k, j);
      if (std::memcmp(&out[r * kN + j], &expected, sizeof(float))) {
        same = 0;
        break;
      }
    }
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  double rssMiB = usage.ru_maxrss / 1024.0; // KiB on Linux.
  if (ranks > 0) {
    int allSame = 0;
    double largest = 0;
    MPI_Reduce(&same, &allSame, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&rssMiB, &largest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    same = allSame;
    rssMiB = largest;
  }
  std::sort(times.begin(), times.end());
  double ms = times[times.size() / 2];
  // The bytes each process sends per call in the model of docs/Sharding.md:
  // an all-gather (P-1) times its block, an all-reduce 2(P-1)/P of its
  // buffer.
  double modelBytes = 0;
  if (ranks > 1)
    modelBytes = axis == 1 && assembly == "all-gather"
                     ? bytesPerCall * double(ranks - 1)
                     : 2.0 * bytesPerCall * (ranks - 1) / ranks;
  std::string run =
      ranks > 0 ? std::to_string(ranks) + " ranks x 1 thread" +
                      (axis == 1 && !split ? ", " + assembly : std::string()) +
                      (io == "split" ? ", io=split" : std::string())
                : "1 process x " + std::to_string(threads) + " threads";
  std::string name = workload;
  if (rows != kN || shardDim != "0")
    name += " (" + std::to_string(rows) + " rows, shard-dim=" + shardDim + ")";
  if (rank == 0 && json)
    std::printf("{\"workload\": \"%s\", \"mode\": \"%s\", \"ranks\": %d, "
                "\"threads\": %d, \"io\": \"%s\", \"ms\": %.1f, "
                "\"rss_mib\": %.1f, \"collective_bytes\": %lld, "
                "\"bytes_model\": %.0f, \"identical\": %s}\n",
                name.c_str(), ranks > 0 ? "mpi" : "process",
                ranks > 0 ? ranks : 1, threads, io.c_str(), ms, rssMiB,
                static_cast<long long>(bytesPerCall), modelBytes,
                same ? "true" : "false");
  else if (rank == 0)
    std::printf("| %s | %s | %.1f | %.1f MiB | %.1f MiB | %s | %.0f MiB |\n",
                name.c_str(), run.c_str(), ms, bytesPerCall / 1048576.0,
                modelBytes / 1048576.0, same ? "identical" : "MISMATCH",
                rssMiB);
  if (ranks > 0)
    MPI_Finalize();
  return same ? 0 : 1;
}
