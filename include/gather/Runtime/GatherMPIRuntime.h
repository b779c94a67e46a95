//===- GatherMPIRuntime.h - MPI support for sharded code --------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libgather_mpi_runtime.so (built when MPICH is found; links libmpich and
// libgather_runtime): what code compiled with `onnx-to-llvm{shard-grid=N}`
// calls besides MPI itself. gather-runner and the JIT kernel API
// (GatherExecutionEngine) link it; other hosts link it with their MPI program
// (`mpicc.mpich ... -lgather_mpi_runtime`).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIME_GATHERMPIRUNTIME_H
#define GATHER_RUNTIME_GATHERMPIRUNTIME_H

#include "gather/Runtime/GatherRuntime.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Called at the entry of every compiled function that communicates, with
/// the number of processes of its grid. Initializes MPI unless the host has
/// (MPI_Init; MPI_Finalize then runs at exit), and reports an error
/// (gatherReport..., GatherRuntime.h) unless MPI_COMM_WORLD has exactly
/// `numProcesses` processes. The first call also installs an error handler
/// that, after printing the message, finalizes MPI and exits with status 1:
/// every process reaches an error together (errors are combined across
/// processes), so all of them end with status 1 and none is killed. Where
/// the host initialized MPI, its own handler stays; without one, the
/// default handler ends the process that way too (not with a bare exit,
/// after which the launcher would kill the others).
void gatherMPIInit(int64_t numProcesses);

// The collectives that assemble a partitioned gather's result, in place in
// `buffer` (row-major, contiguous), over a group of processes: MPI_COMM_WORLD
// when `splitId` is 0, else the communicator of MPI_Comm_split(MPI_COMM_WORLD,
// `color`, `key`), made on the first call with that `splitId` (the same on
// every process of the job) and kept. Compiled code passes the process's
// linear index over the other grid axes as `color` and over the group's
// axes as `key`.

/// Sums `count` elements of `elementBytes` bytes (1, 2, 4 or 8) of `buffer`
/// over the group as integers (MPI_Allreduce, MPI_IN_PLACE): a bit-exact
/// sum of bit patterns when, per element, one process contributes a
/// non-zero pattern (floats and complex numbers arrive as they were sent).
void gatherMPIAllreduceSumBits(void *buffer, int64_t count,
                               int64_t elementBytes, int64_t splitId,
                               int64_t color, int64_t key);

/// Assembles a tensor split along one dimension (MPI_Allgatherv,
/// MPI_IN_PLACE): `buffer` is the whole tensor, `outer` the product of the
/// sizes before the split dimension, `sliceBytes` the bytes of one index of
/// the split dimension (the product of the sizes after it times the element
/// size), `dimSize` its whole size. The process of rank r in the group holds
/// its block of the split dimension (ShardBlocks.h: q + 1 or q indices, none
/// when dimSize is smaller than the group), already in place; the others'
/// blocks arrive around it.
void gatherMPIAllgatherv(void *buffer, int64_t outer, int64_t sliceBytes,
                         int64_t dimSize, int64_t splitId, int64_t color,
                         int64_t key);

/// The all-to-all lookup of a gather split along its axis
/// (axis-scheme=all-to-all): `data` is split along the axis into the
/// blocks of ShardBlocks.h (of `axisSize` indices over the group), the whole
/// `data` seen as [outer, axisSize, inner]. This process asks for the
/// `count` elements at the row-major `positions` of the whole `data`
/// (in range; the index check ran before) and receives them in `result`
/// (`count` elements of `elementBytes` bytes, in the order of
/// `positions`): the counts per owner by MPI_Alltoall, the positions to
/// their owners and the values back by MPI_Alltoallv. It answers the
/// others' requests from its slab, which `data` holds as [outer,
/// dataExtent, inner] from index `dataStart` of the axis (the whole: 0 and
/// axisSize; the slab alone: its offset and size); a request outside its
/// own block is an error (gatherReportMessage), never read.
void gatherMPIAlltoallLookup(const int64_t *positions, int64_t count,
                             void *result, const void *data, int64_t dataStart,
                             int64_t dataExtent, int64_t outer,
                             int64_t axisSize, int64_t inner,
                             int64_t elementBytes, int64_t splitId,
                             int64_t color, int64_t key);

/// The communicator of `mpi.comm_split(parent, color, key)` at one site of
/// compiled code (gather-shard-cache-communicators): made by MPI_Comm_split
/// the first time the site runs and kept in `*slot` (a zero-initialized
/// global of the module, one per site), so that calling a kernel any number
/// of times creates the site's communicator once, not once per call (MPICH
/// runs out of communicators after about 2,000). `parent` and the result
/// are MPICH's MPI_Comm as an i64 (the mpi dialect's `!mpi.comm`). A later
/// call at the same site with another parent, color or key is an error that
/// ends the job (compiled code derives them from the process's place in its
/// grid, which does not change).
int64_t gatherMPICommSplitOnce(int64_t parent, int32_t color, int32_t key,
                               int64_t *slot);

// The bounded wait of partitioned kernels. A rank that never calls a
// partitioned kernel (it returns early, or calls MPI_Finalize), or calls it
// fewer times than the others, leaves them waiting in a collective forever;
// MPI has no timeout for it. Compiled code calls gatherMPIKernelEnter at the
// entry of every function that communicates (after gatherMPIInit) and
// gatherMPIKernelExit before it returns; a call that has not returned
// within the limit ends the job (MPI_Abort, exit status 1) with
// `<location>: error: MPI rank R: call N of this partitioned kernel has not
// finished within T s: ...`, naming the likely causes. The limit:
// gatherMPISetKernelTimeout, else the environment variable
// GATHER_MPI_TIMEOUT (seconds), else 600 s; 0: no limit. A watchdog thread
// (started by the first call) measures it; the message goes to stderr, not
// to the error handler (the code's thread is blocked in MPI).

/// A call of the partitioned kernel at `site` (its function's location)
/// begins; calls nest (the outermost one is measured). Where the host
/// initialized MPI, the first call is collective over MPI_COMM_WORLD: it
/// duplicates it for the ending after an error of one process (a bounded
/// wait for the others, then MPI_Abort; docs/Sharding.md, faults). A host
/// that calls the collectives above without it ends the job with
/// MPI_Abort on any error. A call that begins while one is in progress on
/// another thread ends the job (MPI_Abort, exit status 1): the two threads'
/// collectives could match in different orders on different processes.
void gatherMPIKernelEnter(const GatherReportSite *site);

/// The call begun by the last gatherMPIKernelEnter returns.
void gatherMPIKernelExit(void);

/// Sets the limit of gatherMPIKernelEnter's calls, in seconds (0: none);
/// takes precedence over GATHER_MPI_TIMEOUT. A negative or not finite
/// value is an error that ends the job.
void gatherMPISetKernelTimeout(double seconds);

// For hosts started by an MPI launcher (gather-runner): a process that fails
// before the others reach MPI_Init, or that exits alone, leaves them waiting
// forever. A host therefore calls gatherMPIStartJob before anything can
// fail, gatherMPIAgreeToRun once on every rank before it runs the code (also
// on the ranks that failed), and gatherMPIAbortJob for a failure of its own
// after that.

/// Initializes MPI (MPI_Init; MPI_Finalize then runs at exit) unless it is
/// already; gatherMPIInit then only checks the job's size.
void gatherMPIStartJob(void);

/// The start-up verdict, collective over MPI_COMM_WORLD: every rank passes
/// whether it failed its start-up checks (after printing why) and its
/// partition plan: `shardGrid`, `shardDim` and a hash of the program
/// (`programHash`: its entry, shapes and attributes). Returns when no rank
/// failed and all plans are equal. Otherwise every rank that has not failed
/// itself prints an error naming the failed ranks, or every rank one naming
/// the plans of the ranks, and every rank finalizes MPI and exits with
/// status 1.
void gatherMPIAgreeToRun(int failed, int64_t shardGrid, int64_t shardDim,
                         uint64_t programHash);

/// Ends this process as every other one that reaches the same error (the
/// code is the same on every rank): MPI finalized, exit status `status`.
void gatherMPIExit(int status);

/// Ends every process of the job with `status` (MPI_Abort), for a failure of
/// this process alone after gatherMPIAgreeToRun. Output already written gets
/// 200 ms to reach the launcher first.
void gatherMPIAbortJob(int status);

#ifdef __cplusplus
}
#endif

#endif // GATHER_RUNTIME_GATHERMPIRUNTIME_H
