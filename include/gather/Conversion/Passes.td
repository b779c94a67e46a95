//===- Passes.td - Conversion passes of gather -------------*- tablegen -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_PASSES_TD
#define GATHER_CONVERSION_PASSES_TD

include "gather/Support/PassBase.td"

def ConvertONNXToLinalgPass
    : GatherPass<"convert-onnx-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower onnx ops to linalg, tensor and arith, with run-time "
                "checks";
  let description = [{
    Rewrites every `onnx.GatherElements` into a `tensor.empty` and an
    all-parallel `linalg.generic` over the shape of `indices` whose body
    reads `data` with `tensor.extract`:

    - the index value is sign-extended to `index`, so i32 and i64 indices
      behave alike;
    - a negative index i becomes i + s (s = data.shape[axis]);
    - a negative `axis` is normalized to axis + rank;
    - an index still outside [0, s) after that is replaced by 0, so the
      generated code never reads outside `data` whatever the input.

    Dynamic dimensions are supported (sizes come from `tensor.dim`); one
    operand may be unranked (the other gives the rank).

    Ops are matched by name: every op named `onnx.GatherElements` is
    lowered, whichever dialect defines it (gather's, onnx-mlir's, or none:
    an unregistered op), after the checks of gather's verifier (an invalid
    op is an error in the verifier's words; see
    `gather::buildGatherElements`). `onnx.Return` becomes `func.return`,
    `onnx.EntryPoint` (onnx-mlir's marker of the model's entry function) is
    erased and the function kept as it is (an error if it names no function
    of the module), an unused `onnx.NoValue` is erased, and gather's
    `onnx.Constant` becomes `arith.constant` (strings: one table per
    constant, an `onnx.ConstantString` of the bytes sliced by
    `onnx.StringSlice`; see `onnx.Constant`). `onnx.If` becomes `scf.if` on
    its condition's element and `onnx.Loop` `scf.while` over the
    iteration number, the condition, the loop-carried values and one buffer
    of max(`M`, 0) rows per scan output (each iteration's value inserted at
    its row, the rows the loop ran its result; without `cond` the body's
    condition is ignored, as ONNX says); their subgraphs move into the scf
    regions, where their ops are lowered as any others, and `onnx.Yield`
    becomes `scf.yield` (a condition or trip count of dynamic shape, scan
    outputs without `M` or of a dynamic shape, or a static count of rows
    that the loop does not surely run, is an error at the op). Other ops of the `onnx`
    namespace are left untouched (`gather-check-lowered{level=onnx}` reports
    them), and so are the `onnx.Constant`s they use, which the compiler of
    the rest expects (a constant used by an op left and by an op lowered is
    split: an `onnx.Constant` for the ones, an `arith.constant` for the
    others). The pass fails if an `onnx.GatherElements` cannot be
    lowered.

    Run-time checks (`runtime-checks`, on by default; off, the caller
    guarantees valid inputs) cover what the verifier could not decide at
    compile time:

    - indices.shape[d] <= data.shape[d] for d != axis, when either is
      dynamic: on failure `gatherReportShapeError` is called and the gather
      is skipped (it would read outside `data`); the result is then
      unspecified (but allocated);
    - every index value in [-s, s-1]: after the gather, a `linalg.generic`
      over the same iteration space ORs "out of range" along each innermost
      row (parallel over the other dimensions, so
      `gather-codegen` runs it in the gather's loop over
      the rows, on the row of `indices` just read) and a
      small reduction gives "any out of range"; if so, a cold loop calls
      `gatherReportIndexError` with each bad value and its position, for
      the first 10, then `gatherReportIndexErrorsOmitted` with the number
      of the others.
      The index values are checked even when the gather is skipped. Small
      static scratch buffers are allocated on the stack at function entry.

    Every report gets the op's location as text (`file:line:col`, or the
    ONNX model file and node), from a private `llvm.mlir.global` string
    constant per distinct location. The report functions are C functions of
    gather's runtime library
    (include/gather/Runtime/GatherRuntime.h, libgather_runtime.so); their
    default handler prints the message and ends the process with exit status
    1. Checks that are provably unnecessary are not emitted: static shapes,
    and constant `indices` on a static axis (the verifier checked them).
  }];
  let options = [
    Option<"runtimeChecks", "runtime-checks", "bool", /*default=*/"true",
           "Check shapes and index values at run time where the verifier "
           "could not">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def ConvertONNXStringsToLLVMPass
    : GatherPass<"convert-onnx-strings-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower onnx.ConstantString and onnx.StringSlice to the LLVM "
                "dialect";
  let description = [{
    The lowerings that `convert-to-llvm` applies to `onnx.ConstantString`
    (a private constant global per distinct content, named by its hash) and
    `onnx.StringSlice` (gather/Conversion/ONNXToLLVM/ONNXToLLVM.h), run as a
    partial conversion that keeps one symbol table per module for the whole
    run: time linear in the number of constants, where `convert-to-llvm`
    builds a symbol table per constant. The values then pass to the
    remaining ops through `builtin.unrealized_conversion_cast`, which
    `convert-to-llvm` and `reconcile-unrealized-casts` remove.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

//===----------------------------------------------------------------------===//
// Stage 4 (lib/Conversion/ShardToMPIRuntime): shard ops to MPI calls
//===----------------------------------------------------------------------===//

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
      not have N processes; then `gatherMPIKernelEnter(site)`, and
      `gatherMPIKernelExit()` before each return: the bounded wait of a
      call (docs/Sharding.md, "Faults").
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
    Option<"assembly", "assembly", "::gather::ShardAssembly",
           /*default=*/"::gather::ShardAssembly::AllGather",
           "How shard.all_gather assembles a result",
           "::gather::getEnumOptionValues(::gather::kShardAssemblyValues)">,
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

#endif // GATHER_CONVERSION_PASSES_TD
