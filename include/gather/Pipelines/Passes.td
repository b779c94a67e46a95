//===- Passes.td - Passes of gather's pipeline ------------*- tablegen -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_PIPELINES_PASSES_TD
#define GATHER_PIPELINES_PASSES_TD

include "gather/Support/PassBase.td"

def LowerNestedModulesPass
    : GatherPass<"gather-lower-nested-modules", "::mlir::ModuleOp"> {
  let summary = "Run onnx-to-llvm on each nested builtin.module first";
  let description = [{
    The first pass of `onnx-to-llvm`. Most of the pipeline's passes do not
    reach into a `builtin.module` nested in the one they run on: one-shot
    bufferization's function boundaries and the passes nested on
    `func.func` see the outer module's functions only. So this pass runs
    the seven stages of `onnx-to-llvm`, with the options in
    `pipeline-options`, on each `builtin.module` nested (at any depth) in
    the one it runs on whose own ops (not those of a module nested in it)
    are not all of the `llvm` dialect, deepest first and each once: a
    module nested N deep costs N walks of its own ops.
    Then the outer pipeline goes on with the nested modules in the LLVM
    dialect; `gather-runner --link-nested-modules` links them in. A
    failure in a nested module fails the pass, with that pipeline's
    located diagnostics. A `builtin.module` that is not an op of another
    module's body (one inside a function, e.g. in an `scf.execute_region`)
    is an error at it: the outer pipeline would take its ops for the
    function's.

    The options are text, as `onnx-to-llvm` takes them (an invalid value is
    an error of this pass). `onnx-to-llvm` sets them to its own.
  }];
  let options = [
    Option<"pipelineOptions", "pipeline-options", "std::string",
           /*default=*/"\"\"",
           "The onnx-to-llvm options for the nested modules (as text)">,
  ];
}

def InternalizePrivateSymbolsPass
    : GatherPass<"gather-internalize-private-symbols", "::mlir::ModuleOp"> {
  let summary = "Give private LLVM-dialect definitions internal linkage";
  let description = [{
    The last lowering step of `onnx-to-llvm`. A symbol that MLIR calls
    private (`sym_visibility = "private"`) is visible in its own module
    only, but `convert-to-llvm` keeps it as an `llvm.func` (or
    `llvm.mlir.global`) with external linkage: the helpers that the
    pipeline makes in every module (bufferization's `dealloc_helper`, the
    outlined gather kernels, the sharded partition functions) would then
    clash when two modules are linked (`gather-runner
    --link-nested-modules`, `llvm-link` of two `gather-translate`
    outputs). This pass gives each such definition in the module it runs on
    (not in the modules nested in it, which are translated on their own)
    internal linkage. Declarations (the runtime's functions, a function
    that another module defines) and every public or weak symbol keep
    their linkage.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def CheckConstantSizesPass
    : GatherPass<"gather-check-constant-sizes", "::mlir::ModuleOp"> {
  let summary = "Report constants too large to expand in LLVM IR";
  let description = [{
    Near the end of `onnx-to-llvm`. A splat (or sparse) constant is a few
    bytes in MLIR, but the translation to LLVM IR holds each of its
    elements, and the program then holds them in memory: `dense<-1> :
    tensor<3037000500x3037000500xi64>` would grow without bound. Each such
    constant (an attribute of any op, nested modules included) whose values
    take more than 1 GiB once expanded is an error at its op, with its byte
    count and the limit (`gather::kMaxExpandedConstantBytes`,
    include/gather/Support/ConstantSizes.h). `gather-translate` and
    `gather-runner` check the same before they translate IR that did not
    come through this pass.
  }];
}

def CopyAliasedResultsPass
    : GatherPass<"gather-copy-aliased-results", "::mlir::func::FuncOp"> {
  let summary = "Give each result of a function its own buffer";
  let description = [{
    Part of `onnx-to-llvm`, after bufferization, before the deallocation
    pipeline. The caller of a compiled function owns each result and frees
    its `allocated` pointer (docs/Deploying.md);
    `ownership-based-buffer-deallocation` clones a result the function does
    not own (an argument, a constant), but returns one buffer twice when
    two results are the same buffer or views of it (`return %g, %g` after
    CSE merged two equal gathers, or a result and its `expand_shape`), and
    the caller then frees it twice. This pass replaces each result that may
    share its allocation with an earlier one (`BufferOriginAnalysis`: the
    same, or not known to differ) by a copy into a new buffer of its type.
  }];
}

def BlendMaskedWritesPass
    : GatherPass<"gather-blend-masked-writes", "::mlir::func::FuncOp"> {
  let summary = "Masked writes of a whole tensor as blends with its old "
                "elements";
  let description = [{
    MLIR 22 takes a masked `vector.transfer_write` whose vector covers its
    static-shaped tensor for a write of the whole tensor, twice:
    canonicalization folds such a write of a `vector.transfer_read` of a
    tensor of the same type to that tensor, the mask dropped (also in a
    `vector.mask`); and
    bufferization takes the write not to read its destination, so where it
    gives it a new buffer (the destination is a constant, or read again
    later) that buffer is not a copy of the destination, and the elements
    the mask leaves are garbage (plain `mlir-opt-22` does both). gather's
    own code never emits such writes; IR that a user vectorized with masks
    before the pipeline can. This pass makes each such write (masked itself
    or by a `vector.mask` around it alone; on a ranked tensor of a static
    shape with no more elements than the fixed-size vector, of the vector's
    element type, not made by `tensor.empty`; of rank 1 or more) an
    unmasked write of `arith.select(mask, vector, old)`, `old` an unmasked
    read of the destination at the same indices with the same permutation
    map (the mask transposed to the vector's order where the map permutes):
    the same elements, which neither folds away nor loses. Unmasked, the
    read and the write are in bounds only in the dimensions where a
    constant index and the vector's size keep them in the tensor, so the
    lanes past it (which the mask kept out) stay out. `onnx-to-llvm` runs
    it first (before any canonicalization) and again right before
    bufferization (for the masks that `gather-lower-vector-masks` folds
    in).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def WidenI1AccessesPass
    : GatherPass<"gather-widen-i1-accesses", "::mlir::func::FuncOp"> {
  let summary = "Vector reads and writes of i1 buffers through i8 views";
  let description = [{
    Part of `onnx-to-llvm`, after bufferization, before
    `convert-vector-to-scf`. An i1 buffer holds one byte per element, but
    MLIR 22's `convert-vector-to-llvm` lowers a `vector<Nxi1>` read or write
    of it to an LLVM load or store of `<N x i1>`: N packed bits, the wrong
    bytes. This pass makes each `vector.transfer_read`,
    `vector.transfer_write`, `vector.load`, `vector.store`,
    `vector.maskedload` and `vector.maskedstore` of an i1 memref one of an
    i8 view of it (an `unrealized_conversion_cast` of the same shape and
    layout, which the lowering to LLVM folds away: both are the same
    descriptor), its vector of i8 (`arith.extui` of the values it writes,
    of the padding and pass-through; `arith.cmpi ne` 0 of what it reads, as
    a scalar i1 load reads a byte). Masks
    and other attributes stay. gather's own code never makes such ops (it
    scalarizes i1 elements); IR vectorized upstream before the pipeline
    can. (`vector.gather` and `vector.scatter` access each element on its
    own and are right as they are.)
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def LowerAllocaScopesPass
    : GatherPass<"gather-lower-alloca-scopes", "::mlir::func::FuncOp"> {
  let summary = "Stack save and restore around each memref.alloca_scope";
  let description = [{
    Part of `onnx-to-llvm`, just before `convert-scf-to-cf`. A
    `memref.alloca_scope` takes one block only, so `convert-scf-to-cf`
    breaks one that holds a loop ("'memref.alloca_scope' op expects region
    #0 to have 0 or 1 blocks"). `convert-scf-to-openmp` puts one around the
    body of every threaded loop, and canonicalization removes it only where
    nothing in the body may allocate on the stack: a body with a call (a
    checked heap allocation, a user's function) or a `memref.alloca` and a
    loop failed to lower. This pass replaces each `memref.alloca_scope`
    (innermost first) by its body between `llvm.intr.stacksave` and
    `llvm.intr.stackrestore`, what `finalize-memref-to-llvm` would make of
    it, its results by the values its body returns: the stack that the
    body takes is given back at its end, once per iteration of the loop
    around it.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def LowerStridedCopiesPass
    : GatherPass<"gather-lower-strided-copies", "::mlir::func::FuncOp"> {
  let summary = "Copy non-contiguous memrefs with loops, not memrefCopy";
  let description = [{
    Part of `onnx-to-llvm`, after bufferization, before `linalg` becomes
    loops. `finalize-memref-to-llvm` lowers a `memref.copy` between two
    contiguous buffers (identity layouts, or static shapes with a
    contiguous row-major layout) to `llvm.memcpy`, and every other one to a
    call of `memrefCopy`, a function of MLIR's runner library
    (`libmlir_c_runner_utils`) that only `gather-runner` links: a host of
    the kernel API or of the AOT route would fail to load such code. This
    pass turns each ranked `memref.copy` that would become that call (a
    strided slab of a sharded gather's input, a bufferization copy of a
    strided `tensor.extract_slice`) into a `linalg.copy`, which
    `convert-linalg-to-loops` lowers to loops: the generated code needs
    nothing from MLIR's runner library. A copy between a ranked and an
    unranked memref (always `memrefCopy` upstream) becomes a `linalg.copy`
    too, the unranked side cast to the other's rank (dynamic sizes and
    strides). Copies that become `llvm.memcpy` are left as they are; so are
    copies between two unranked memrefs, which have no rank to loop over
    (they stay calls of `memrefCopy`, which gather-runner links; gathers
    never take or make unranked memrefs).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def PrintEntryResultsPass
    : GatherPass<"gather-print-entry-results", "::mlir::ModuleOp"> {
  let summary = "Print the tensors that an entry function returns";
  let description = [{
    What `gather-runner` does to its input before lowering it, so that an
    entry function that returns tensors can be run with
    `--entry-point-result=void`. If the function `entry` of the module
    takes no arguments and returns tensors (any element type, rank and
    shape), it is renamed (to a unique name) and made private, and a
    function of its name without arguments or results takes its place:
    it calls it and prints each result with the runtime's
    `gatherPrint<T>` (`gather/Runtime/GatherRuntime.h`; one line each,
    `result 0: tensor<2x3xf32> = [[1, 2, 3], [4, 5, 6]]`). Any other
    function of that name, or none, is left as it is. A result whose
    element type the runtime cannot print is an error at the function.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The entry function">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // GATHER_PIPELINES_PASSES_TD
