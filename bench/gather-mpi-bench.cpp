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
// destination-passing style), f32 data and i64 indices, on one of three
// workloads: e ([8192,8192] of [8192,8192], axis 1; dimension 0, off the
// axis, is split), e_axis0 (the same, axis 0: the axis is split) and v
// ([4096,1] of [4096,65536], axis 1: the axis is split, a
// vocabulary-parallel lookup). Either on one process with `--num-threads`
// OpenMP threads, or under `mpirun -np R` with `--ranks=R` (`shard-grid=R`,
// one thread per process; `--assembly=all-gather|all-reduce`:
// shard-assembly). `--io=split` (shard-io=split, docs/Sharding.md): the
// kernel takes and returns each process's slabs, and each process
// allocates, fills and checks only its slabs (its block of the split
// dimension, ShardBlocks.h; for an axis split the block of `data`,
// `indices` and the result whole). Prints one line (rank 0): workload,
// mode, the median ms per call over `--reps` calls after one warm-up (the
// slowest process per call), whether every process's result equals a C
// loop's bit for bit, and the peak resident set size per process
// (getrusage, the largest over the processes); `--json` one JSON object
// instead. `--print-kernel` prints the kernel's source, after a line
// `// pipeline-options: ...`, and exits. `--rows=S` changes the size of
// dimension 0 (S not a multiple of R: uneven blocks); `--shard-dim=2` (past
// the rank) splits nothing: every process computes all of it, the
// replicated fallback. `--io=split` lays out slabs of dimension 0 or of the
// workload's split only; `--io`, `--assembly` and `--shard-dim` need
// `--ranks`; `--options` must not change what these flags set. Every value
// it cannot run with is an error, exit status 1, before any work (the
// number of processes right after MPI_Init). The bytes each process sends: run
// it with test/lib/MPITraffic preloaded, as bench/mpi.sh does.
//
//===----------------------------------------------------------------------===//

#include "gather/ExecutionEngine/JitCompiler.h"
#include "gather/Runtime/ShardBlocks.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <mpi.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace llvm;

using KernelFn = void (*)(void *, void *, void *);

/// StridedMemRefType<T, 2> over `data` of [rows, columns], row-major:
/// allocated, aligned, offset, sizes, strides.
static std::vector<int64_t> descriptor(void *data, int64_t rows,
                                       int64_t columns) {
  std::vector<int64_t> d(7);
  std::memcpy(&d[0], &data, sizeof(void *));
  std::memcpy(&d[1], &data, sizeof(void *));
  d[2] = 0;
  d[3] = rows;
  d[4] = columns;
  d[5] = columns;
  d[6] = 1;
  return d;
}

/// The value of element (row, column) of the whole `data` of `columns`
/// columns.
static float dataValue(int64_t row, int64_t column, int64_t columns) {
  return static_cast<float>((row * columns + column) % 1000) * 0.5f;
}

/// The index at (row, column) of the whole `indices` of `columns` columns,
/// in [0, range): a hash of the position, so that a process can fill its
/// slab alone.
static int64_t indexValue(int64_t row, int64_t column, int64_t columns,
                          int64_t range) {
  uint64_t z =
      static_cast<uint64_t>(row * columns + column) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return static_cast<int64_t>((z ^ (z >> 31)) % static_cast<uint64_t>(range));
}

static cl::OptionCategory category("gather-mpi-bench options");
static cl::opt<std::string>
    workloadOption("workload", cl::desc("e, e_axis0 or v (the header above)"),
                   cl::init("e"), cl::cat(category));
static cl::opt<unsigned> threadsOption("num-threads",
                                       cl::desc("OpenMP threads (one process)"),
                                       cl::init(1), cl::cat(category));
static cl::opt<unsigned>
    ranksOption("ranks", cl::desc("MPI processes (shard-grid; 0: no MPI)"),
                cl::init(0), cl::cat(category));
static cl::opt<unsigned> repsOption("reps",
                                    cl::desc("Timed calls after a warm-up"),
                                    cl::init(3), cl::cat(category));
static cl::opt<std::string>
    assemblyOption("assembly",
                   cl::desc("shard-assembly: all-gather or all-reduce"),
                   cl::init("all-gather"), cl::cat(category));
static cl::opt<std::string> ioOption("io", cl::desc("shard-io: whole or split"),
                                     cl::init("whole"), cl::cat(category));
static cl::opt<bool> jsonOption("json", cl::desc("One JSON object, not a row"),
                                cl::cat(category));
static cl::opt<int64_t>
    rowsOption("rows",
               cl::desc("The size of dimension 0 (default: the "
                        "workload's)"),
               cl::init(0), cl::cat(category));
static cl::opt<int64_t>
    shardDimOption("shard-dim",
                   cl::desc("shard-dim (default: the workload's split)"),
                   cl::cat(category));
static cl::opt<std::string>
    moreOptions("options", cl::desc("More onnx-to-llvm pipeline options"),
                cl::cat(category));
static cl::opt<bool>
    printKernel("print-kernel",
                cl::desc("Print the kernel's source and pipeline options"),
                cl::cat(category));

/// `message` on stderr, exit status 1.
static int fail(const std::string &message) {
  llvm::errs() << "gather-mpi-bench: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "gather-mpi-bench: gather's JIT kernel on one process or partitioned "
      "over MPI processes (under mpirun with --ranks)\n");
  std::string workload = workloadOption, assembly = assemblyOption,
              io = ioOption;
  bool json = jsonOption;
  if (threadsOption == 0 || threadsOption > 1024)
    return fail("--num-threads must be between 1 and 1024, not " +
                std::to_string(threadsOption));
  if (ranksOption > 65536)
    return fail("--ranks must be at most 65536, not " +
                std::to_string(ranksOption));
  if (repsOption == 0 || repsOption > 100000)
    return fail("--reps must be between 1 and 100000, not " +
                std::to_string(repsOption));
  int threads = static_cast<int>(threadsOption.getValue());
  int ranks = static_cast<int>(ranksOption.getValue());
  int reps = static_cast<int>(repsOption.getValue());
  // (What only a partitioned kernel has: not silently ignored.)
  const cl::Option *partitionOnly[] = {&assemblyOption, &ioOption,
                                       &shardDimOption};
  if (ranks == 0)
    for (const cl::Option *option : partitionOnly)
      if (option->getNumOccurrences())
        return fail("--" + option->ArgStr.str() + " needs --ranks");
  if (assembly != "all-gather" && assembly != "all-reduce")
    return fail("--assembly must be all-gather or all-reduce, not '" +
                assembly + "'");
  // The shapes: data [rows, dataColumns], indices [rows, indexColumns].
  int64_t rows = 8192, dataColumns = 8192, indexColumns = 8192, axis = 1,
          splitDim = 0;
  if (workload == "e_axis0") {
    axis = 0;
  } else if (workload == "v") {
    rows = 4096;
    dataColumns = 65536;
    indexColumns = 1;
    splitDim = 1;
  } else if (workload != "e") {
    return fail("--workload must be e, e_axis0 or v, not '" + workload + "'");
  }
  int64_t defaultRows = rows;
  if (rowsOption.getNumOccurrences()) {
    // (Too many for the machine: the memory check below.)
    if (rowsOption <= 0)
      return fail("--rows must be at least 1, not " +
                  std::to_string(rowsOption));
    rows = rowsOption;
  }
  int64_t dim = shardDimOption.getNumOccurrences() ? shardDimOption : splitDim;
  if (dim < -1)
    return fail("--shard-dim must be -1 or a dimension, not " +
                std::to_string(dim));
  std::string shardDim = std::to_string(dim);
  if (io != "whole" && io != "split")
    return fail("--io must be whole or split, not '" + io + "'");
  // With --io=split the host lays out each process's slabs, of dimension 0
  // or of the workload's split dimension only.
  if (io == "split" && dim != 0 && dim != splitDim)
    return fail("--io=split lays out the slabs of --shard-dim=0" +
                (splitDim != 0 ? " or " + std::to_string(splitDim) : "") +
                " only, not " + shardDim);
  // The buffers of the whole tensors (each process's with --io=whole, on
  // this machine), against its memory.
  double wholeBytes = static_cast<double>(rows) *
                      (dataColumns * 4.0 + indexColumns * (8.0 + 4.0));
  double machineBytes = static_cast<double>(sysconf(_SC_PHYS_PAGES)) *
                        static_cast<double>(sysconf(_SC_PAGESIZE));
  double neededBytes = wholeBytes * (io == "whole" ? std::max(ranks, 1) : 1);
  if (neededBytes > machineBytes)
    return fail("--rows=" + std::to_string(rows) + " needs " +
                std::to_string(static_cast<int64_t>(neededBytes / (1 << 20))) +
                " MiB, more than this machine's " +
                std::to_string(static_cast<int64_t>(machineBytes / (1 << 20))) +
                " MiB");
  std::string options = "num-threads=" + std::to_string(threads);
  if (ranks > 0)
    options += " shard-grid=" + std::to_string(ranks) +
               " shard-dim=" + shardDim + " shard-assembly=" + assembly +
               " shard-io=" + io;
  // --options: more pipeline options (e.g. runtime-checks=false), but not
  // the ones the host lays out its buffers by, or reports.
  std::string hostOptions = options;
  if (!moreOptions.empty())
    options += " " + moreOptions;
  auto parsed = gather::ONNXToLLVMPipelineOptions::createFromString(options);
  if (!parsed)
    return fail("invalid pipeline options '" + options + "'");
  auto host = gather::ONNXToLLVMPipelineOptions::createFromString(hostOptions);
  if (!host)
    return fail("invalid pipeline options '" + hostOptions + "'");
  std::vector<std::pair<const char *, bool>> changed = {
      {"num-threads", parsed->numThreads != host->numThreads},
      {"shard-grid", parsed->shardGrid != host->shardGrid},
      {"shard-dim", parsed->shardDim != host->shardDim},
      {"shard-assembly", parsed->shardAssembly != host->shardAssembly},
      {"shard-io", parsed->shardIO != host->shardIO}};
  for (auto [key, differs] : changed)
    if (differs)
      return fail(std::string("--options must not change ") + key +
                  ": the host lays out its buffers by it and reports it "
                  "(its own flag sets it)");
  std::string source = gather::getGatherElementsKernelSource(
      "gather", {rows, dataColumns}, "f32", {rows, indexColumns}, "i64", axis);
  if (printKernel) {
    std::printf("// pipeline-options: %s\n%s", options.c_str(), source.c_str());
    return 0;
  }

  int rank = 0, processes = 1;
  if (ranks > 0) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &processes);
    if (processes != ranks) {
      if (rank == 0)
        fail("--ranks=" + std::to_string(ranks) + " but the MPI job has " +
             std::to_string(processes) + " processes; run it with mpirun -np " +
             std::to_string(ranks));
      MPI_Finalize();
      return 1;
    }
  }
  // What this process holds: everything, or with --io=split its block
  // (ShardBlocks.h) of the split dimension of `data`, and of `indices` and
  // the result when the split is off the axis (else they stay whole).
  bool split = io == "split" && ranks > 0 &&
               (shardDim == "0" || shardDim == std::to_string(splitDim));
  int64_t splitSize = dim == 0 ? rows : dataColumns;
  gather::ShardBlocks blocks{splitSize, processes};
  int64_t lo = split ? blocks.offset(rank) : 0;
  int64_t count = split ? blocks.count(rank) : splitSize;
  int64_t dataRows = dim == 0 ? count : rows;
  int64_t dataCols = dim == 0 ? dataColumns : count;
  int64_t dataRow0 = dim == 0 ? lo : 0, dataCol0 = dim == 0 ? 0 : lo;
  bool indicesSplit = split && dim != axis;
  int64_t indicesRows = indicesSplit ? count : rows;
  int64_t indicesRow0 = indicesSplit ? lo : 0;
  int64_t range = axis == 1 ? dataColumns : rows;

  std::vector<float> data(dataRows * dataCols), out(indicesRows * indexColumns);
  std::vector<int64_t> indices(indicesRows * indexColumns);
  for (int64_t i = 0; i < dataRows; ++i)
    for (int64_t j = 0; j < dataCols; ++j)
      data[i * dataCols + j] =
          dataValue(dataRow0 + i, dataCol0 + j, dataColumns);
  for (int64_t i = 0; i < indicesRows; ++i)
    for (int64_t j = 0; j < indexColumns; ++j)
      indices[i * indexColumns + j] =
          indexValue(indicesRow0 + i, j, indexColumns, range);

  mlir::MLIRContext context;
  auto engine = gather::compileSourceAndJit(context, source, *parsed);
  if (!engine) {
    llvm::errs() << llvm::toString(engine.takeError()) << "\n";
    return 1;
  }
  auto symbol = gather::lookupCInterface(**engine, "gather");
  if (!symbol) {
    llvm::errs() << llvm::toString(symbol.takeError()) << "\n";
    return 1;
  }
  auto kernel = reinterpret_cast<KernelFn>(*symbol);
  std::vector<int64_t> d = descriptor(data.data(), dataRows, dataCols),
                       i = descriptor(indices.data(), indicesRows,
                                      indexColumns),
                       o = descriptor(out.data(), indicesRows, indexColumns);

  std::vector<double> times;
  for (int rep = 0; rep <= reps; ++rep) {
    if (ranks > 0)
      MPI_Barrier(MPI_COMM_WORLD);
    auto start = std::chrono::steady_clock::now();
    kernel(d.data(), i.data(), o.data());
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
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
    for (int64_t j = 0; j < indexColumns; ++j) {
      int64_t k = indices[r * indexColumns + j];
      float expected = axis == 1 ? dataValue(indicesRow0 + r, k, dataColumns)
                                 : dataValue(k, j, dataColumns);
      if (std::memcmp(&out[r * indexColumns + j], &expected, sizeof(float))) {
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
    // (The reductions land on rank 0; the others keep their own.)
    if (rank == 0) {
      same = allSame;
      rssMiB = largest;
    }
  }
  std::sort(times.begin(), times.end());
  double ms = times[times.size() / 2];
  std::string run = ranks > 0
                        ? std::to_string(ranks) + " ranks x 1 thread" +
                              (!split || indicesSplit ? ", " + assembly : "") +
                              (io == "split" ? ", io=split" : "")
                        : "1 process x " + std::to_string(threads) + " threads";
  std::string name = workload;
  if (rows != defaultRows || shardDim != std::to_string(splitDim))
    name += " (" + std::to_string(rows) + " rows, shard-dim=" + shardDim + ")";
  if (rank == 0 && json)
    std::printf("{\"workload\": \"%s\", \"mode\": \"%s\", \"ranks\": %d, "
                "\"threads\": %d, \"io\": \"%s\", \"assembly\": \"%s\", "
                "\"ms\": %.3f, \"rss_mib\": %.1f, \"identical\": %s}\n",
                name.c_str(), ranks > 0 ? "mpi" : "process",
                ranks > 0 ? ranks : 1, threads, io.c_str(), assembly.c_str(),
                ms, rssMiB, same ? "true" : "false");
  else if (rank == 0)
    std::printf("| %s | %s | %.3f | %s | %.0f MiB |\n", name.c_str(),
                run.c_str(), ms, same ? "identical" : "MISMATCH", rssMiB);
  if (ranks > 0)
    MPI_Finalize();
  return same ? 0 : 1;
}
