//===- Passes.td - Code generation passes of gather --------*- tablegen -*-===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_TRANSFORMS_PASSES_TD
#define GATHER_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileAndVectorizeGathersPass
    : Pass<"linalg-tile-and-vectorize-gathers", "::mlir::func::FuncOp"> {
  let summary = "Tile gather-like linalg.generic ops into scf.forall (for "
                "threads) and vectorize them into vector.gather";
  let description = [{
    Code generation for the `linalg.generic` that `convert-onnx-to-linalg`
    produces for `onnx.GatherElements`, at tensor level (before
    bufferization). It applies to every `linalg.generic` on ranked tensors
    with all-parallel iterators, one input, one output, identity indexing
    maps and exactly one `tensor.extract` in its body; other ops are left
    alone.

    1. Rows: the generic is tiled into one loop over its rows (all
       dimensions but the innermost, tile size 1; chunks of `parallel-chunk`
       elements for rank 1): `scf.forall` for threads (`parallel`) unless
       the iteration space is static with fewer than `parallel-threshold`
       elements, `scf.for` otherwise. The index check that
       `convert-onnx-to-linalg` emits after the gather (a generic over the
       same `indices`, parallel over the rows) is tiled the same way and the
       two loops are fused: each row of `indices` is checked right after the
       gather read it. `scf-forall-to-parallel` and `convert-scf-to-openmp`
       then turn `scf.forall` into an OpenMP worksharing loop.
    2. Vectors (`vector-size` > 0): each row is tiled by `vector-size` with
       `scf.for`; when the innermost size is dynamic or not a multiple of
       `vector-size`, the last, partial tile is peeled off and stays scalar
       (no masks). Each full tile, after dropping its unit dimensions, is
       vectorized with `linalg::vectorize` (`vectorizeNDExtract`): the read
       of the index values becomes a `vector.transfer_read`, the read of
       `data` a `vector.gather`, the write a `vector.transfer_write`. Rows
       shorter than one vector, and element types that are not whole-byte
       integers or floats (i1, complex, strings), stay scalar.

    Vectorized and threaded code computes exactly what the scalar loops of
    `convert-linalg-to-loops` compute (the tests compare them).
  }];
  let options = [
    Option<"vectorSize", "vector-size", "int64_t", /*default=*/"16",
           "Elements per vector along the innermost dimension, at most 256; "
           "0 or 1: no vectorization">,
    Option<"parallel", "parallel", "bool", /*default=*/"true",
           "Tile the outermost dimension with scf.forall">,
    Option<"parallelThreshold", "parallel-threshold", "int64_t",
           /*default=*/"8192",
           "Static iteration spaces with fewer elements stay serial">,
    Option<"parallelChunk", "parallel-chunk", "int64_t", /*default=*/"16384",
           "Elements per scf.forall iteration of a rank-1 generic">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def CheckAllocationsPass
    : Pass<"check-memref-allocations", "::mlir::ModuleOp"> {
  let summary = "Report failed or impossible heap allocations through "
                "gather's runtime instead of using a null buffer";
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

    Both call `gatherReportAllocationError(bytes, what)` of gather's runtime
    (include/gather/Runtime/GatherRuntime.h), where `what` is a
    NUL-terminated description of the buffer made at compile time from the
    op's location and type, e.g. `onnx.GatherElements at "f.mlir":4:8
    (memref<?xf32>)` (convert-onnx-to-linalg names its result buffers with
    a NameLoc). The report does not return. Every heap allocation is
    checked; `memref.alloca` (stack buffers: small and static in the code
    gather generates) is not.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // GATHER_TRANSFORMS_PASSES_TD
