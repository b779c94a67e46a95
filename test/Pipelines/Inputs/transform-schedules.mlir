// Transform-dialect schedules for the tests of IR that upstream tiled or
// vectorized before onnx-to-llvm (test/Pipelines/transform-routes.mlir,
// test/Integration/Runner/transform-routes.mlir). Loaded with
// transform-preload-library, one sequence chosen with
// transform-interpreter{entry-point=...}. "The gather" is the linalg.generic
// that convert-onnx-to-linalg marks gather.elements.
module attributes {transform.with_named_sequence} {
  // Tiles of 2x4 (they divide 4x8) and 3x5 (partial tiles: affine.min and
  // dynamic slices) in an scf.forall without a thread mapping.
  transform.named_sequence @tile_2x4(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} attributes {gather.elements} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [2, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
  transform.named_sequence @tile_3x5(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} attributes {gather.elements} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [3, 5] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
  // The same tiles vectorized: vector.transfer_read/write, vector.gather,
  // ub.poison paddings; for 3x5 each in a vector.mask (vector.create_mask of
  // the tile's sizes).
  transform.named_sequence @vectorize_2x4(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} attributes {gather.elements} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [2, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.structured.vectorize %t vector_sizes [2, 4] {vectorize_nd_extract} : !transform.any_op
    transform.yield
  }
  transform.named_sequence @vectorize_3x5(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} attributes {gather.elements} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [3, 5] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.structured.vectorize %t vector_sizes [3, 5] {vectorize_nd_extract} : !transform.any_op
    transform.yield
  }
  // A linalg.matmul after the gather, vectorized: vector.multi_reduction
  // (the default), vector.contract (create_named_contraction), and both
  // masked (vector sizes 4x4x8 on a 4x3x8 matmul).
  transform.named_sequence @matmul_reduction(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %m : !transform.any_op
    transform.yield
  }
  transform.named_sequence @matmul_contract(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %m {create_named_contraction} : !transform.any_op
    transform.yield
  }
  transform.named_sequence @matmul_reduction_masked(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %m vector_sizes [4, 4, 8] : !transform.any_op
    transform.yield
  }
  transform.named_sequence @matmul_contract_masked(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %m vector_sizes [4, 4, 8] {create_named_contraction} : !transform.any_op
    transform.yield
  }
  // Both: the gather in 3x5 masked vector tiles, the matmul in 3x2 tiles
  // vectorized with masks.
  transform.named_sequence @all_masked(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} attributes {gather.elements} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [3, 5] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.structured.vectorize %t vector_sizes [3, 5] {vectorize_nd_extract} : !transform.any_op
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %tm, %lm = transform.structured.tile_using_forall %m tile_sizes [3, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.structured.vectorize %tm vector_sizes [3, 2, 8] : !transform.any_op
    transform.yield
  }
}
