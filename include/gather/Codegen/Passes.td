//===- Passes.td - Code generation passes of gather --------*- tablegen -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CODEGEN_PASSES_TD
#define GATHER_CODEGEN_PASSES_TD

include "gather/Support/PassBase.td"

def CodegenPass
    : GatherPass<"gather-codegen", "::mlir::func::FuncOp"> {
  let summary = "Fused loops, threads and vectors for gather-like "
                "linalg.generic ops";
  let description = [{
    Code generation for the `linalg.generic` that `convert-onnx-to-linalg`
    produces for `onnx.GatherElements`, at tensor level (before
    bufferization). It applies to every `linalg.generic` on ranked tensors
    with all-parallel iterators, one output, exactly one `tensor.extract`
    in its body whose coordinates depend on one input (`indices`; identity
    maps for it and the output, projected permutations for other inputs),
    marked
    `gather.elements` or not; other ops are left alone. The contract with
    the lowering (the two marked generics, and what the pass warns about):
    include/gather/Conversion/ONNXToLinalg/GatherLinalgForm.h. The loops
    are built by hand, not with upstream tiling or `linalg::vectorize`.

    1. One loop nest: the gather becomes loops over the rows of `indices`
       (all dimensions but the innermost; chunks of `parallel-chunk`
       elements for rank 1) around a loop along the row. The index check
       that `convert-onnx-to-linalg` emits with the gather (a generic that
       ORs "out of range" over the same `indices` into a `tensor<i1>`) is
       fused into it: the iteration that reads an index value both gathers
       with it (the generic's body, which clamps it) and ORs "out of range"
       into a loop-carried `i1`. `indices` is read once; there is no buffer
       of flags.
    2. Threads (`parallel`): the rows are an `scf.forall`
       (`scf-forall-to-parallel` and `convert-scf-to-openmp` make it an
       OpenMP worksharing loop). A row that finds a value out of range sets
       one flag (an `i8` on the stack) with `memref.atomic_rmw ori`. A
       static shape is threaded if it has more than one row and at least
       `parallel-threshold` elements; a dynamic shape decides at run time
       (`scf.if` between the threaded and the serial loops). Gathers already
       inside a parallel loop stay serial.
    3. Vectors (`vector-size` > 1): each row runs `vector-size` elements per
       iteration (the last, partial vector stays scalar: no masks): a
       `vector.transfer_read` of the index values, the generic's body on
       vectors with the read of `data` as one `vector.gather` (coordinates
       equal in all lanes in its base, the others linearized into its
       offsets), a `vector.transfer_write`, and "out of range" ORed into a
       `vector<Nxi1>` reduced once per row. A `data` that is not surely
       contiguous and element types that are not whole-byte integers or
       floats (i1, complex, strings) stay scalar.
    4. Rows shorter than one vector (a static innermost size L <
       `vector-size` N, rank >= 2): groups of R = N / gcd(L, N) rows, whose
       R * L elements are K = L / gcd(L, N) whole vectors. Each vector reads
       its index values contiguously from `indices` with the two innermost
       dimensions merged (`tensor.collapse_shape`), gathers with a constant
       row offset per lane, and writes into the group's slice of the result
       (merged the same way); rows left after the whole groups are scalar.
       Threads run one group per `scf.forall` iteration. Needs K <= 16, at
       least one whole group (or a dynamic row count) and surely contiguous
       `indices` and result; otherwise such rows stay scalar.
    5. Prefetches (`prefetch-distance` > 0): when the gathered axis is the
       innermost dimension (rank >= 2, rows of `data` of at least 64
       bytes, `data` and `indices` surely contiguous and together not
       statically under 32 KiB), the loop over row i at element j
       prefetches (`memref.prefetch`, read, locality 3) the line of `data`
       at row i + D, element j (D: the fewest rows spanning
       `prefetch-distance` bytes) and the line of `indices`
       `prefetch-distance` bytes ahead, on the buffers viewed as 1-D
       (`bufferization.to_buffer read_only`, `memref.collapse_shape`), both
       clamped to the buffer's last element. Vector iterations prefetch
       every line they span; scalar loops once per line of index values.
       Groups of short rows (4.) get none.
    6. In-register gathers (`in-register-gathers`, for the CPU of
       `target-cpu` and `target-features`, the host when empty): a vector
       along a row (not in groups) that reads one row of `data` along its
       innermost axis, of a static length that fits in one or two vector
       registers of its elements (f32, f64, 32- and 64-bit integers: 16 or
       32 of 32 bits with AVX-512F, 8 or 16 of 64 bits, 8 of 32 bits with
       AVX2), loads the row into registers (`vector.transfer_read`, masked
       when shorter: nothing past the row is read) and takes its lanes from
       it with the target's permute (`llvm.call_intrinsic` of
       `llvm.x86.avx512.permvar.*`, `llvm.x86.avx512.vpermi2var.*`,
       `llvm.x86.avx2.perm*`) at the clamped index values, instead of a
       `vector.gather`. The index check is unchanged.
    7. Rows in blocks (`row-block-bytes` > 0): when the gathered axis is
       none of the two innermost dimensions, the shapes are static and the
       lines of `data` read from one position of the axis to the next
       exceed `row-block-bytes`, the dimension after the axis runs in
       blocks whose reads fit that budget (the largest divisor of its size;
       none when one position needs more than half of it), each block over
       every position of the axis before the next: one loop, or one 1-D
       `scf.forall`, over the rows in that order.

    Vectorized and threaded code computes exactly what the scalar loops of
    `convert-linalg-to-loops` compute (the tests compare them). What was
    measured for each rule: docs/CodeShape.md.

    The decisions for each gather (vector width, groups of rows, threads,
    prefetches, the fused check, and the reason for each one not taken) are
    made once, before any IR is built; `remarks` prints them as a remark at
    the gather, e.g. `gather-codegen: vectors of 16; threads; prefetches
    4096 B ahead; index check fused`.

    Gathers with elementwise producers and consumers fused into them
    (`linalg-fuse-elementwise-ops`) keep these forms: their other inputs
    are read at each element through their indexing maps (projected
    permutations: identity, transposed, broadcast), several results are
    written by the same iterations, and the index check is found by the
    `indices` it reduces, before or after the gather. A `linalg.generic`
    that reads a tensor with `tensor.extract` but is not handled (e.g. a
    result with an indexing map that is not the identity, or a read at the
    values of several inputs) gets the remark `gather-codegen: not fused: <reason>` unless
    `unfused-remarks=false`.
  }];
  let options = [
    Option<"vectorSize", "vector-size", "int64_t", /*default=*/"16",
           "Elements per vector along the rows, at most 256; 0 or 1: scalar">,
    Option<"parallel", "parallel", "bool", /*default=*/"true",
           "Threads: the rows in an scf.forall">,
    Option<"parallelThreshold", "parallel-threshold", "int64_t",
           /*default=*/"8192",
           "Fewer elements stay serial (checked at run time for dynamic "
           "shapes)">,
    Option<"parallelChunk", "parallel-chunk", "int64_t", /*default=*/"16384",
           "Elements per scf.forall iteration of a rank-1 generic">,
    Option<"prefetchDistance", "prefetch-distance", "int64_t",
           /*default=*/"4096",
           "Bytes ahead to prefetch data rows and index values; 0: none">,
    Option<"narrowOffsets", "narrow-offsets", "bool", /*default=*/"false",
           "32-bit lane offsets for vector reads of data where every "
           "offset fits (static sizes under narrow-limit elements; dynamic "
           "ones checked at run time)">,
    Option<"narrowLimit", "narrow-limit", "int64_t",
           /*default=*/"2147483647",
           "With narrow-offsets: the most elements of a tensor read with "
           "32-bit offsets, at most 2^31 - 1">,
    Option<"rowBlockBytes", "row-block-bytes", "int64_t",
           /*default=*/"262144",
           "Gathers along an outer axis run their rows in blocks that read "
           "at most this many bytes of data (the L2 cache); 0: row-major">,
    Option<"inRegisterGathers", "in-register-gathers", "bool",
           /*default=*/"false",
           "Gather the lanes of a vector from its row of data loaded into "
           "registers, with the target's permutes, where the row fits">,
    Option<"targetCpu", "target-cpu", "std::string", /*default=*/"",
           "With in-register-gathers: the LLVM CPU name to compile for; "
           "empty: the host">,
    Option<"targetFeatures", "target-features", "std::string",
           /*default=*/"",
           "With in-register-gathers: LLVM features, comma-separated "
           "+name/-name; for the host, added to its own">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark at each gather with its code generation plan">,
    Option<"unfusedRemarks", "unfused-remarks", "bool", /*default=*/"true",
           "Emit a remark at each linalg.generic that reads a tensor with "
           "tensor.extract but is not handled as a gather, with the reason">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def RaiseBufferGathersPass
    : GatherPass<"gather-raise-buffer-gathers", "::mlir::func::FuncOp"> {
  let summary = "Gathers a pipeline bufferized before onnx-to-llvm back on "
                "tensors, for gather-codegen";
  let description = [{
    A pipeline that bufferizes before `onnx-to-llvm` (`one-shot-bufferize`
    with any options) hands it the gathers as `linalg.generic` ops on
    buffers, with a `memref.load` of `data` in their body; gather-codegen
    works on tensors, so they would lower to scalar, single-threaded loops.
    This pass, run right before gather-codegen, gives each such gather (the
    read of `findGatherDataRead`, gather/Codegen/GatherDataRead.h) its
    tensor form again: a `bufferization.to_tensor restrict` of each buffer
    it reads, the generic on tensors (`tensor.extract` for the load), and
    `bufferization.materialize_in_destination` of the result into its
    buffer, which the pipeline's own bufferization then computes in place.
    The gather's index check (the generic that ORs "out of range" over the
    same `indices` into a `memref<i1>`, and the `linalg.fill` of that flag)
    is raised with it, on the same tensor of `indices`, so that gather-codegen
    fuses the two as it does for the lowering's own IR.

    A gather is raised only when the tensor form means the same: its output
    buffer is allocated in the function (a function argument might alias
    what it reads) and is no view of a buffer it reads, and every buffer it
    accesses is contiguous and row-major (what gather-codegen's vector
    gathers need). Where the layout is known only at run time
    (`one-shot-bufferize`'s default fully dynamic layout at function
    boundaries), the raised ops run under an `scf.if` that each such buffer
    has offset 0 and row-major strides, on the buffers cast to the identity
    layout, and the ops as they were in the else branch. A gather of the lowering
    (marked `gather.elements`) that is not raised gets a warning with the
    reason; other gather-like generics a remark with `remarks`.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark at each gather-like generic on buffers that is not "
           "raised, with the reason">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def LowerVectorMasksPass
    : GatherPass<"gather-lower-vector-masks", "::mlir::func::FuncOp"> {
  let summary = "Fold vector.mask into the masks of gathers and transfers";
  let description = [{
    Upstream's vectorizer (`transform.structured.vectorize` with vector
    sizes that do not divide the shape, or dynamic shapes) wraps the
    `vector.gather`, `vector.transfer_read` and `vector.transfer_write` ops
    of a tile in `vector.mask`. This pass replaces each such `vector.mask`
    by the op alone, with the `vector.mask`'s mask ANDed into the op's own
    mask operand: a lane disabled by either mask is neither loaded nor
    stored, a masked-off lane of a gather holds its pass-through, one of a
    read its padding value or the `vector.mask`'s pass-through (an
    `arith.select`). (Upstream's `lower-vector-mask` drops the op's own
    mask instead.) The `onnx-to-llvm` pipeline runs it before
    `gather-select-form` and bufferization, which do not handle the
    `vector.mask` region. Masks around other ops (`vector.multi_reduction`,
    `vector.contract`, ...) are left to their own lowering. A mask that
    cannot be folded (a read with a pass-through whose mask is not of the
    vector's shape: a transposing or broadcasting permutation map) is an
    error at the `vector.mask`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def SelectFormPass
    : GatherPass<"gather-select-form", "::mlir::ModuleOp"> {
  let summary = "Choose hardware or scalarized vector.gathers for the target "
                "CPU";
  let description = [{
    Runs after `gather-codegen`, whose vectorized gathers
    are `vector.gather` ops (at tensor or memref level), and rewrites each
    one into the form chosen for the target CPU (`target-cpu`,
    `target-features`; the host when empty; gather/Codegen/TargetInfo.h,
    docs/CodeShape.md):

    - `hardware`: the `vector.gather` stays (llvm.masked.gather, AVX2 or
      AVX-512 gather instructions where LLVM finds them legal, scalarized by
      LLVM elsewhere);
    - `scalarized`: one scalar load per lane inserted into a vector, then the
      one vector store that follows
      (`vector::populateVectorGatherToConditionalLoadPatterns`; the all-true
      mask makes every `scf.if` fold away);
    - `auto` (default): `hardware` where LLVM finds the masked gather of that
      vector type legal and not force-scalarized and the CPU has the
      `fast-gather` tuning bit (Intel Skylake and later), `scalarized`
      otherwise (AMD Zen, Haswell, generic x86-64). LLVM's gather costs
      are not used (docs/CodeShape.md has the measurements).

    A gather in a `vector.mask` (upstream's vectorizer, for tiles that do
    not divide the shape) that is to be scalarized has the mask folded into
    its own first (as `gather-lower-vector-masks` does): the lanes it
    disables are not loaded.

    `scalar` (plain scalar loops) is chosen before vectorization: the
    `onnx-to-llvm` pipeline then vectorizes nothing (as `vector-size=0`);
    this pass treats a `vector.gather` left under it as `scalarized`.

    With an explicit `target-cpu` or `target-features`, every function with
    a body is stamped with `target_cpu` and the full list of
    `target_features` the code is compiled with (the CPU's extra features,
    and `+prefer-no-gather` unless hardware gathers are used, so that LLVM's
    own vectorizers do not bring gathers back): LLVM IR for another machine
    keeps its target (function attributes replace, not extend, the
    compiler's feature list).

    An unknown CPU name or feature is an error (LLVM itself would only warn
    and produce generic code).
  }];
  let options = [
    Option<"targetCpu", "target-cpu", "std::string", /*default=*/"",
           "LLVM CPU name to compile for (e.g. znver4, haswell); empty: the "
           "host">,
    Option<"targetFeatures", "target-features", "std::string",
           /*default=*/"",
           "LLVM features, comma-separated +name/-name; for the host, added "
           "to its own">,
    Option<"gatherForm", "gather-form", "::gather::GatherForm",
           /*default=*/"::gather::GatherForm::Auto",
           "Code shape of vector.gather ops",
           "::gather::getEnumOptionValues(::gather::kGatherFormValues)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def LowerRowPermutesPass
    : GatherPass<"gather-lower-row-permutes", "::mlir::func::FuncOp"> {
  let summary = "The permutes of gather-codegen's in-register gathers";
  let description = [{
    `gather-codegen` with `in-register-gathers` builds each in-register
    gather as plain vector code: the row read into a vector, and a
    `vector.from_elements` of its elements at the lane numbers
    (`vector.extract` at a dynamic position), marked `gather.row_permute`
    with the LLVM intrinsic of the target's permute that it chose
    (lib/Codegen/RowPermute.h). This pass, run after bufferization (whose
    buffer deallocation rejects `llvm.call_intrinsic`, an op of unknown
    memory effects), replaces each marked `vector.from_elements` by that
    permute: the row split into its registers, the lane numbers as integers
    of the element's width, one `llvm.call_intrinsic` per instruction's
    lanes. A marked op not of that form is left as it is: the plain vector
    code computes the same values.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def EliminateDestinationEmptyTensorsPass
    : GatherPass<"gather-eliminate-destination-empty-tensors", "::mlir::ModuleOp"> {
  let summary = "Compute results in their destination on every path";
  let description = [{
    A kernel in destination-passing style copies its result into a
    destination (`bufferization.materialize_in_destination`, into a memref
    or a tensor). Upstream's `eliminate-empty-tensors` computes the result
    in that destination instead: it replaces the `tensor.empty` the result
    was built in with the destination, so that One-Shot Bufferize allocates
    nothing and copies nothing. But it replaces one use of one
    `tensor.empty` per destination of a memref (the op's `restrict` goes to
    the first `bufferization.to_tensor` it makes), and one use of each
    `tensor.empty` in any case. A result built on several paths (an
    `scf.if` between threaded and serial loops, shape checks that
    choose between computing and filling, as the lowering builds for
    dynamic shapes) then keeps a buffer of its own on all paths but one,
    copied into the destination after the fact.

    This pass runs upstream's elimination (`bufferization::eliminateEmptyTensors`,
    with the One-Shot analysis its pass makes) with two changes:

    1. It runs again (with a fresh analysis) as long as a use was replaced,
       so that every use on every path is.
    2. The destination memref of a `materialize_in_destination` becomes
       one `bufferization.to_tensor restrict writable`, right after the
       memref's definition, shared by every `tensor.empty` on the paths
       of its source (a use the memref does not dominate keeps its buffer).

    Everything else is as upstream: only paths of equivalent buffers are
    followed (no slices, no reshapes), and a result that cannot be computed
    in place still bufferizes to an allocation and a copy.
  }];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def RestrictToTensorsPass : GatherPass<"gather-restrict-to-tensors"> {
  let summary = "Mark a bufferization.to_tensor restrict where nothing else "
                "accesses its buffer";
  let description = [{
    A partial bufferization (`one-shot-bufferize` without
    `bufferize-function-boundaries`) leaves a function that returns
    tensors with `bufferization.to_tensor` of its result buffers, without
    `restrict`; One-Shot Bufferize, which `onnx-to-llvm` runs next, rejects
    such ops ("to_tensor ops without `restrict` are not supported by
    One-Shot Analysis"). This pass marks one `restrict` when that is what
    the IR says: it is at the top level of a function, its buffer is (a
    view, a cast, an `scf.if` result of) buffers allocated in the function,
    and every other access of those buffers (a `to_tensor` among them)
    comes before it, none of them a use that lets the buffer escape (a
    call, a return, a loop, its pointer taken). Others are left as they
    are.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def DuplicateSharedTensorsPass : GatherPass<"gather-duplicate-shared-tensors"> {
  let summary = "Give each use of a shared tensor.empty or constant tensor "
                "its own op";
  let description = [{
    CSE merges equal `tensor.empty` ops and equal constant tensors
    (`arith.constant` of a tensor type): N ops of one shape then write into,
    or read, one value. One-Shot Bufferize's analysis (and
    `eliminate-empty-tensors`, which runs it) looks at every use of the
    aliases of a value for each of them: time quadratic, for writes into a
    shared `tensor.empty` cubic, in N (docs/UpstreamWorkarounds.md). This
    pass, run after the last CSE and before bufferization, gives every use
    but one its own copy of the op, created just before the user (the
    dynamic sizes of a `tensor.empty` dominate it there). The result is the same: an empty tensor has no
    contents, and bufferization makes equal constants one `memref.global`.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def CheckAllocationsPass
    : GatherPass<"gather-check-allocations", "::mlir::ModuleOp"> {
  let summary = "Report failed or impossible heap allocations through "
                "gather's runtime";
  let description = [{
    `memref.alloc` becomes a call of `malloc` (finalize-memref-to-llvm) whose
    result nobody checks, and whose byte size is a product of sizes that
    wraps around silently. This pass, run after bufferization and before
    the lowering to LLVM, guards every `memref.alloc` in the module:

    1. Its size in bytes (element size times every static and dynamic size)
       is computed with overflow checks (`arith.mului_extended`); a size
       that does not fit in a signed 64-bit integer is reported before the
       allocation with `bytes` = -1.
    2. After the allocation, a null buffer (for a non-zero size) is
       reported with the number of bytes requested.

    Both are one call of `gatherReportAllocationErrorIf(failed, bytes,
    what)` of gather's runtime (include/gather/Runtime/GatherRuntime.h),
    which reports when `failed` (an i32, 0 or 1) is set. `what` is a
    NUL-terminated description of the buffer made at compile time from the
    op's location and type, e.g. `onnx.GatherElements at "f.mlir":4:8
    (memref<?xf32>)` (convert-onnx-to-linalg names its result buffers with
    a NameLoc), one private global per distinct text. The report does not
    return. The checks add no branch to the IR: lowering one `scf.if` per
    allocation to control flow would take time quadratic in their number.
    Every heap allocation is checked; `memref.alloca` (stack buffers: small
    and static in the code gather generates) is not.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def CheckLoweredPass : GatherPass<"gather-check-lowered", "::mlir::ModuleOp"> {
  let summary = "Fail at the ops a lowering stage left behind";
  let description = [{
    Makes a pipeline that cannot lower everything end with errors that name
    the ops left at their locations, instead of succeeding with leftovers
    that fail later (e.g. in the translation to LLVM IR). Nothing is
    changed.

    - `level=onnx` (used by `onnx-to-llvm` after `convert-onnx-to-linalg`):
      every op of the `onnx` namespace that gather does not lower, one error
      each in program order, so that one run names all the nodes of a model
      that gather leaves (`onnx.Softmax`, `onnx.Log`, `onnx.TopK`, ...): ops
      gather's dialect does not define (onnx-mlir's ops, a used
      `onnx.NoValue`, ... kept in generic form) and ops of another
      registered `onnx` dialect; also the first `shard.shard` left
      (hand-annotated IR in a pipeline without `shard-grid`, which is what
      partitions it).
    - `level=llvm` (the default; the last pass of `onnx-to-llvm`): the first
      op (in program order) outside the `llvm` and `omp` dialects, other
      than `builtin.module`, `gpu.binary` and `gpu.launch_func` on LLVM
      types (the kernels of `gpu=cuda` and their launches, which the GPU
      dialect's translation handles) (e.g. `linalg.softmax`); a
      `builtin.unrealized_conversion_cast` only if nothing else is left (the
      ops after the first are usually what a failed conversion left around
      it).

    Example: `error: 'onnx.TopK' op is not lowered by gather (it lowers
    onnx.GatherElements, onnx.Constant, onnx.If, onnx.Loop and onnx.Return)`.
  }];
  let options = [
    Option<"level", "level", "::gather::CheckLevel",
           /*default=*/"::gather::CheckLevel::LLVM", "What may be left",
           "::gather::getEnumOptionValues(::gather::kCheckLevelValues)">,
  ];
}

#endif // GATHER_CODEGEN_PASSES_TD
