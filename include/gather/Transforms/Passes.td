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

    1. Threads (`parallel`): the generic is tiled with `scf.forall` over its
       outermost dimension (tile size 1, or `parallel-chunk` elements for a
       rank-1 generic), unless its iteration space is static and has fewer
       than `parallel-threshold` elements. `scf-forall-to-parallel` and
       `convert-scf-to-openmp` then turn the loop into an OpenMP worksharing
       loop.
    2. Vectors (`vector-size` > 0): the (tiled) generic is tiled with `scf.for`
       to tiles of [1, ..., 1, vector-size] and each tile is vectorized with
       `linalg::vectorize` (`vectorizeNDExtract`): the read of the index
       values becomes a `vector.transfer_read`, the read of `data` a
       `vector.gather` and the write a `vector.transfer_write`, masked where
       the innermost size is dynamic or not a multiple of `vector-size`.
       Leading unit vector dimensions are then dropped and the tensor slices
       folded into the transfers (upstream vector and tensor patterns).

    Vectorized and threaded code computes exactly what the scalar loops of
    `convert-linalg-to-loops` compute (the tests compare them).
  }];
  let options = [
    Option<"vectorSize", "vector-size", "int64_t", /*default=*/"16",
           "Elements per vector along the innermost dimension; 0 disables "
           "vectorization">,
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

#endif // GATHER_TRANSFORMS_PASSES_TD
