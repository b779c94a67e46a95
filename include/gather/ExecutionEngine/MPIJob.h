//===- MPIJob.h - The start-up of a JIT run in an MPI job -------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a JIT runner (gather-runner) does when an MPI launcher starts it, so
// that no rank waits forever for another: MPI initialized before anything
// can fail, one start-up verdict of every rank before the code runs (an
// error on one rank, or ranks with different partition plans, end every
// rank with status 1; gatherMPIAgreeToRun, GatherMPIRuntime.h), and after
// it a failure of one rank ends the job. Only rank 0 prints. Outside a job
// (or in a build without libgather_mpi_runtime) each call does what a
// single process needs.
//
// One job per process: MPIJob::get().
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_EXECUTIONENGINE_MPIJOB_H
#define GATHER_EXECUTIONENGINE_MPIJOB_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace gather {

struct ONNXToLLVMPipelineOptions;

class MPIJob {
public:
  /// The process's job.
  static MPIJob &get();

  /// Under an MPI launcher (MPICH's PMI_RANK / PMI_FD, PMIx), initializes
  /// MPI: call it first in main. A rank that ends through exit() (e.g. the
  /// command-line parser's) then takes part in the verdict as a failure.
  void start();

  /// Whether start() found an MPI launcher and initialized MPI.
  bool inJob() const { return started; }

  /// Whether this rank has taken part in the verdict.
  bool hasAgreed() const { return agreed; }

  /// The partition plan of `options` (shard-grid, shard-dim and the options
  /// that decide which collectives run), which every rank must share.
  void setPlan(const ONNXToLLVMPipelineOptions &options);

  /// Adds the program to the plan: a hash of the entry `entry` of type
  /// `entryType` and of every op's name, types and attributes (not the
  /// values of elements attributes: constants, which do not change the
  /// plan, may be large). Nothing outside a job.
  void setProgram(mlir::ModuleOp module, llvm::StringRef entry,
                  llvm::StringRef entryType);

  /// In a job, silences the standard output of every rank but 0. With
  /// shard-grid=N in `options`: an error unless this process is one of an
  /// MPI job of N (or N is 1 without a launcher).
  llvm::Error setUp(const ONNXToLLVMPipelineOptions &options);

  /// The start-up verdict with this rank's `failed`, once: returns only
  /// when every rank may run the code (and `!failed` outside a job), else
  /// every rank exits with status 1.
  bool agreeToRun(bool failed);

  /// A start-up error of this rank (already printed): the verdict; 1.
  int failStartUp();

  /// After the verdict, a `status` other than 0 of this rank alone ends
  /// every rank with it; returns `status` otherwise.
  int abortOnFailure(int status);

  /// Inside compiled code (the runtime's error handler): in a job, ends
  /// every rank with `status` (each runs the same code and gets here);
  /// else returns.
  void exitAllRanks(int status);

private:
  MPIJob() = default;

  bool started = false;
  bool agreed = false;
  int64_t shardGrid = 0;
  int64_t shardDim = -1;
  uint64_t programHash = 0;
  /// The other pipeline options that decide which collectives the ranks
  /// call (hashed with the program): ranks that differ in them would wait
  /// in different collectives.
  std::string collectiveOptions;
};

} // namespace gather

#endif // GATHER_EXECUTIONENGINE_MPIJOB_H
