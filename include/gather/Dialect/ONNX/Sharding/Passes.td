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
    other than integers, floats and complex numbers. (An `io` or
    `axis-scheme` of another value is an error of the option parser.)
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
           "Number of processes of the 1-D grid (1 to 2^24)">,
    Option<"shardDim", "shard-dim", "int64_t", /*default=*/"-1",
           "Dimension to split; -1: the first splittable one off the axis, "
           "else the axis">,
    Option<"io", "io", "::gather::ShardIO",
           /*default=*/"::gather::ShardIO::Whole",
           "What public functions take and return",
           "::gather::getEnumOptionValues(::gather::kShardIOValues)">,
    Option<"axisScheme", "axis-scheme", "::gather::AxisScheme",
           /*default=*/"::gather::AxisScheme::Auto",
           "How a split of the gather axis combines the slabs "
           "(TrafficModel.h)",
           "::gather::getEnumOptionValues(::gather::kAxisSchemeValues)">,
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

#endif // GATHER_DIALECT_ONNX_SHARDING_PASSES_TD
