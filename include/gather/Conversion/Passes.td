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
    `onnx.StringSlice`; see `onnx.Constant`). Other ops of the `onnx`
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

#endif // GATHER_CONVERSION_PASSES_TD
