//===- MPIJob.cpp - The start-up of a JIT run in an MPI job ---------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/ExecutionEngine/MPIJob.h"
#include "gather/Pipelines/Pipelines.h"
#ifdef GATHER_HAVE_MPI_RUNTIME
#include "gather/Runtime/GatherMPIRuntime.h"
#endif

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

using namespace mlir;
using namespace gather;

MPIJob &MPIJob::get() {
  static MPIJob job;
  return job;
}

/// Whether an MPI launcher started this process: MPICH's Hydra (and Slurm's
/// PMI-2) set PMI_RANK and PMI_FD (or PMI_PORT), PMIx launchers PMIX_RANK.
static bool isStartedByMPILauncher() {
  for (const char *name : {"PMI_RANK", "PMI_FD", "PMI_PORT", "PMIX_RANK"})
    if (std::getenv(name))
      return true;
  return false;
}

void MPIJob::start() {
#ifdef GATHER_HAVE_MPI_RUNTIME
  // Before anything can fail: a rank that exits before the others reach
  // MPI_Init leaves them waiting there forever; after it, a rank's exit
  // ends the job.
  if (started || !isStartedByMPILauncher())
    return;
  gatherMPIStartJob();
  started = true;
  std::atexit([] { (void)MPIJob::get().agreeToRun(/*failed=*/true); });
#endif
}

void MPIJob::setPlan(const ONNXToLLVMPipelineOptions &options) {
  shardGrid = options.shardGrid;
  shardDim = options.shardDim;
  collectiveOptions =
      ("runtime-checks=" + llvm::Twine(options.runtimeChecks ? 1 : 0) +
       " shard-assembly=" +
       stringifyEnumOption(kShardAssemblyValues,
                           options.shardAssembly.getValue()) +
       " shard-io=" +
       stringifyEnumOption(kShardIOValues, options.shardIO.getValue()) +
       " shard-axis-scheme=" +
       stringifyEnumOption(kAxisSchemeValues,
                           options.shardAxisScheme.getValue()))
          .str();
}

void MPIJob::setProgram(ModuleOp module, StringRef entry, StringRef entryType) {
  if (!started)
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << collectiveOptions << '\n';
  os << entry << ' ' << entryType << '\n';
  module->walk([&](Operation *op) {
    os << op->getName() << '(';
    llvm::interleaveComma(op->getOperandTypes(), os);
    os << ")->(";
    llvm::interleaveComma(op->getResultTypes(), os);
    os << ')';
    for (NamedAttribute attribute : op->getAttrs())
      if (!isa<ElementsAttr>(attribute.getValue()))
        os << ' ' << attribute.getName() << '=' << attribute.getValue();
    os << '\n';
  });
  programHash = llvm::xxh3_64bits(text);
}

/// The value of the first of `names` set in the environment, as an integer;
/// -1 if none is set.
static int64_t getEnvInt(std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (const char *value = std::getenv(name))
      return std::atoll(value);
  return -1;
}

llvm::Error MPIJob::setUp(const ONNXToLLVMPipelineOptions &options) {
  // MPICH's PMI_SIZE / PMI_RANK, Open MPI's OMPI_COMM_WORLD_SIZE / _RANK:
  // rank 0 alone prints, also for IR partitioned beforehand.
  int64_t size = getEnvInt({"PMI_SIZE", "OMPI_COMM_WORLD_SIZE"});
  int64_t rank = getEnvInt({"PMI_RANK", "OMPI_COMM_WORLD_RANK"});
  if (rank > 0) {
    std::fflush(stdout);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
      dup2(null, STDOUT_FILENO);
      close(null);
    }
  }
  if (options.shardGrid <= 0)
    return llvm::Error::success();
  int64_t grid = options.shardGrid;
  if (size < 0 && grid != 1)
    return llvm::createStringError("shard-grid=" + llvm::Twine(grid) +
                                   " runs on " + llvm::Twine(grid) +
                                   " MPI processes: start it with mpirun -np " +
                                   llvm::Twine(grid) + " gather-runner ...");
  if (size >= 0 && size != grid)
    return llvm::createStringError(
        "shard-grid=" + llvm::Twine(grid) + ", but the MPI job has " +
        llvm::Twine(size) + (size == 1 ? " process" : " processes") +
        ": run it with mpirun -np " + llvm::Twine(grid));
  return llvm::Error::success();
}

bool MPIJob::agreeToRun(bool failed) {
#ifdef GATHER_HAVE_MPI_RUNTIME
  if (!started || agreed)
    return !failed;
  agreed = true;
  gatherMPIAgreeToRun(failed, shardGrid, shardDim, programHash);
#endif
  return !failed;
}

int MPIJob::failStartUp() {
  (void)agreeToRun(/*failed=*/true);
  return 1;
}

int MPIJob::abortOnFailure(int status) {
#ifdef GATHER_HAVE_MPI_RUNTIME
  if (started && agreed && status != 0) {
    llvm::errs().flush();
    gatherMPIAbortJob(status);
  }
#endif
  return status;
}

void MPIJob::exitAllRanks(int status) {
#ifdef GATHER_HAVE_MPI_RUNTIME
  if (started)
    gatherMPIExit(status);
#else
  (void)status;
#endif
}
