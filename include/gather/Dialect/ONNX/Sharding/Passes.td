//===- Passes.td - Sharding onnx gathers over MPI process --*- tablegen -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_SHARDING_PASSES_TD
#define GATHER_DIALECT_ONNX_SHARDING_PASSES_TD

include "gather/Support/PassBase.td"

def ONNXShardGathersPass : GatherPass<"onnx-shard-gathers", "::mlir::ModuleOp"> {
  let summary = "Annotate onnx.GatherElements ops for a 1-D grid of processes";
  let description = [{
    Adds a private `shard.grid @gather_grid(shape = N)` (N = `grid-size`)
    and moves each `onnx.GatherElements` (every op of that name with the
    sharding model: gather's, or another `onnx` dialect's such as
    onnx-mlir's, see `registerShardingInterfaceExternalModels`; the op is
    cloned with all its attributes) into a private function of its own
    (called in its place) with `shard.shard` annotations that split it over
    the grid; `gather-shard-partition-functions` (`sharding-propagation`,
    `shard-partition`) then partitions it (onnx.GatherElements'
    ShardingInterface model). Outlined, the gather can sit anywhere (in
    loops, next to calls and casts, which MLIR 22's shard passes reject). Also sets the MPI
    implementation of the module for `convert-shard-to-mpi`
    (`dlti.map<"MPI:Implementation" = "MPICH">`) unless one is set.

    Inputs (`data`, `indices`) are replicated on every process and used as
    slabs; the result is assembled on every process (so any user, a print,
    a return, sees the whole tensor).

    Which dimension is split (`shard-dim`; -1 chooses):
    - a dimension d other than the axis, when `data` and `indices` have the
      same static size there: every process gathers its block of rows, with
      no communication; the results are assembled afterwards;
    - the axis (its static size in `data`): every process gathers from its
      block of `data` (a masked gather), and one `shard.all_reduce`
      combines the results.
    A dimension can be split when both operands have static, non-empty
    shapes and (off the axis) the same size there in `data` and `indices`.
    Process p owns the block [p * q + min(p, m), (p + 1) * q + min(p + 1, m))
    of a size S, q = S / N, m = S % N (gather/Runtime/ShardBlocks.h): equal
    blocks when N divides S (partitioned by `shard-partition`), else uneven
    ones, which this pass partitions itself (the outlined function holds the
    partitioned gather: blocks of dynamic size, `shard.all_gather` cast to
    the whole size); with S < N some processes own nothing. -1 takes the
    best dimension: one of at least N indices before a smaller one, then
    one off the axis before the axis, then an even split before an uneven
    one, then the first. A gather that cannot be split along the
    `shard-dim` given, or at all (dynamic shapes, empty or unranked
    operands), stays replicated: every process computes all of it. Gathers
    that already carry `shard.shard` annotations are left as they are.

    `io=split` (distributed inputs and outputs, docs/Sharding.md): a
    public function's tensor (or memref, through `bufferization.to_tensor`)
    argument whose only use is a gather split along a dimension takes this
    process's slab, its block of that dimension (ShardBlocks.h), and a
    result that is only the split gather's result (returned, or materialized
    in a memref argument) is the slab: static sizes for an even split, a
    dynamic size for an uneven one, checked at entry against the process's
    block (`gatherReportSlabShapeError` on every process). Such a gather is
    partitioned here (no `shard-partition`): a local gather on the slabs
    (written in place in the destination) and only the index-error
    consensus; an argument or result that stays whole is sliced or
    assembled as with `io=whole`. Split of the axis: only `data` is a slab
    (the axis block; when every process owns one), `indices` and the
    result stay whole (masked gather + all-reduce). Calls in the module to
    such a function pass their slab of each whole value (a slice at the
    process's offset) and assemble the slab results (`shard.all_gather`).

    Split of the axis, the scheme (`axis-scheme`; docs/Sharding.md, "Which
    scheme is chosen when"): `all-reduce` (a masked gather from each slab,
    the results summed by a bit-exact `shard.all_reduce`), `all-gather-data`
    (the slabs of `data` assembled, `shard.all_gather`, then a local
    gather), `all-to-all` (each process looks up its block of the indices
    in the owners' slabs, `gatherMPIAlltoallLookup`, then the result
    assembled); `auto` (default) takes the one of the fewest bytes per
    process of the model (`gather/Dialect/ONNX/Sharding/TrafficModel.h`),
    `remarks` prints the choice and each scheme's bytes. The index check is
    the same for all: every index, global positions, one error on every
    process.

    Errors: `data` of `!onnx.string` (string elements point into one
    process's memory and cannot be sent to another) or of any element type
    other than integers, floats and complex numbers; an `io` other than
    `whole` or `split`; an `axis-scheme` other than `auto`, `all-reduce`,
    `all-gather-data` or `all-to-all`.
  }];
  let dependentDialects = ["::mlir::shard::ShardDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::DLTIDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"gridSize", "grid-size", "int64_t", /*default=*/"1",
           "Number of processes of the 1-D grid (at least 1)">,
    Option<"shardDim", "shard-dim", "int64_t", /*default=*/"-1",
           "Dimension to split; -1: the first splittable one off the axis, "
           "else the axis">,
    Option<"io", "io", "std::string", /*default=*/"\"whole\"",
           "What public functions take and return: whole (every process "
           "the whole tensors) or split (each process its slab)">,
    Option<"axisScheme", "axis-scheme", "std::string", /*default=*/"\"auto\"",
           "How a split of the gather axis combines the slabs: auto (the "
           "fewest bytes per process, TrafficModel.h), all-reduce, "
           "all-gather-data or all-to-all">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "A remark at each gather with io=split (what is split, what stays "
           "whole and why) and at each split of the axis (the scheme, the "
           "bytes per process of each)">,
  ];
}

def ShardPartitionFunctionsPass
    : GatherPass<"gather-shard-partition-functions", "::mlir::ModuleOp"> {
  let summary = "sharding-propagation + shard-partition where shard ops are";
  let description = [{
    Runs `sharding-propagation` and `shard-partition` on every `func.func`
    that holds `shard.shard` ops, and leaves the other functions alone:
    MLIR 22's passes reject ops without a sharding model (`func.call`,
    `tensor.cast`, ...) even in functions with nothing to partition.

    A function whose own arguments or results are annotated as split (the
    `shard.shard` of the argument, of the returned value; not
    `annotate_for_users`) takes and returns this process's shards after
    `shard-partition` (what `shard-io=split` gives onnx-shard-gathers'
    functions). Each call of it in the module is adapted: it passes this
    process's shard of each whole value (`shard.all_slice` per split
    dimension) and assembles each shard result (`shard.all_gather`), so its
    callers see what they saw before. A call that cannot be adapted (a type
    the partition changed without an annotation of its own) is a located
    error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::complex::ComplexDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::shard::ShardDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ShardPrepareForMPIPass
    : GatherPass<"gather-shard-prepare-for-mpi", "::mlir::ModuleOp"> {
  let summary = "Lower the shard ops convert-shard-to-mpi (MLIR 22) cannot";
  let description = [{
    Runs after `shard-partition`, before `convert-shard-to-mpi`:
    - each function `onnx-shard-gathers` outlined a gather into is inlined
      back at its call, so that the gather's result flows to the caller's
      destination;
    - `shard.all_slice` becomes a local `tensor.extract_slice` (upstream's
      lowering);
    - `shard.all_gather` (the result assembled on every process):
      `assembly=all-gather` (default): the local part inserted into the
      whole tensor at this process's offset, then gather's MPI runtime,
      `gatherMPIAllgatherv` (`MPI_Allgatherv`, `MPI_IN_PLACE`), which
      brings the other processes' parts around it; `assembly=all-reduce`:
      the local part inserted into a tensor filled with the identity of a
      sum, then the bit-exact sum below (twice the bytes per process); an
      all_gather marked `gather.assembled` (what an axis scheme of
      `onnx-shard-gathers` assembles: `data`, the lookups) always the
      former;
    - `shard.all_reduce` (sum) marked `gather.bit_exact_sum` (the masked
      gather of an axis split, and `assembly=all-reduce`):
      `gatherMPIAllreduceSumBits` (`MPI_Allreduce`, `MPI_IN_PLACE`), the
      elements summed as integers of their size (i1 as i8, f16/bf16 as i16,
      f32 as i32, f64 as i64, complex numbers as two integers) with no
      conversion: exact bit for bit, since per element one process holds
      non-zero bits;
    - both work in place: in the destination buffer when the collective's
      result is only materialized in a row-major memref
      (`bufferization.materialize_in_destination ... restrict writable`,
      the kernel API's destination-passing style: the local gather then
      writes its slab straight into the destination), else in one buffer
      of the whole result;
    - every function that communicates first calls gather's MPI runtime,
      `gatherMPIInit(N)` (`gather/Runtime/GatherMPIRuntime.h`) with the
      number of processes N of each grid it uses: it initializes MPI if the
      host has not, and ends the program with an error if the MPI job does
      not have N processes.
    `remarks` emits a remark at each collective it lowers, naming the MPI
    call and the bytes per process of the model (docs/Sharding.md);
    `-debug-only=gather-shard` prints the same (in builds with assertions).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"assembly", "assembly", "std::string", /*default=*/"\"all-gather\"",
           "How shard.all_gather assembles a result: all-gather "
           "(MPI_Allgatherv) or all-reduce (a bit-exact MPI_Allreduce)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "A remark at each collective lowered: the MPI call and the bytes "
           "per process">,
  ];
}

def ShardCacheCommunicatorsPass
    : GatherPass<"gather-shard-cache-communicators", "::mlir::ModuleOp"> {
  let summary = "Make each mpi.comm_split's communicator once, not per call";
  let description = [{
    Runs after `convert-shard-to-mpi`, which makes a sub-communicator
    (`mpi.comm_split`, i.e. `MPI_Comm_split`) before each collective over
    a group of processes and never frees it: a kernel called about 2,000
    times then fails in MPICH ("Too many communicators"). This pass
    replaces each `mpi.comm_split` without a `!mpi.retval` and without the
    `gather.own_comm_split` mark (which `gather-shard-prepare-for-mpi` puts
    on the program's own splits, made before `convert-shard-to-mpi` and
    free to run with other arguments each time) in the module's own
    functions (not in nested symbol tables: a nested module is lowered on
    its own) by a call of gather's MPI runtime,
    `gatherMPICommSplitOnce(parent, color, key, slot)`
    (`gather/Runtime/GatherMPIRuntime.h`), with a zero-initialized
    internal i64 global of its own as `slot`: the runtime makes the
    communicator the first time the site runs and returns it after that.
    MPICH only: when the module's `MPI:Implementation` is "OpenMPI" the ops
    are left as they are (the MPI lowering takes every other value, or
    none, as MPICH).
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

#endif // GATHER_DIALECT_ONNX_SHARDING_PASSES_TD
