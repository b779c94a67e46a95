// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="parallel=false prefetch-distance=0" --canonicalize --cse | FileCheck %s
// All dynamic, rank 40, through the whole pipeline: well under a second
// (the serial loops nested 39 deep took one-shot bufferization minutes).
// RUN: gather-opt %s --split-input-file --onnx-to-llvm | FileCheck %s --check-prefix=LLVM

// The serial loops over the outer dimensions of a gather: at most two are
// nested (FusedGatherBuilder::kNestedOuterLoops); the leading ones before
// them are one loop over the product of their sizes, its induction
// variable delinearized (row-major) into their coordinates. Rank 6: the
// rows at [a, b, c, d, e], with [a, b, c] from one loop of d0 * d1 * d2
// iterations.
// CHECK-LABEL: func.func @rank6
// CHECK-DAG:     %[[D0:.*]] = tensor.dim %arg1, %c0
// CHECK-DAG:     %[[D1:.*]] = tensor.dim %arg1, %c1
// CHECK-DAG:     %[[D2:.*]] = tensor.dim %arg1, %c2
// CHECK-DAG:     %[[D3:.*]] = tensor.dim %arg1, %c3
// CHECK-DAG:     %[[D4:.*]] = tensor.dim %arg1, %c4
// CHECK:         %[[D01:.*]] = arith.muli %[[D0]], %[[D1]] : index
// CHECK:         %[[COUNT:.*]] = arith.muli %[[D01]], %[[D2]] : index
// CHECK:         scf.for %[[IV:.*]] = %c0 to %[[COUNT]] step %c1 iter_args(
// CHECK-NEXT:      %[[C:.*]] = arith.remui %[[IV]], %[[D2]] : index
// CHECK-NEXT:      %[[AB:.*]] = arith.divui %[[IV]], %[[D2]] : index
// CHECK-NEXT:      %[[B:.*]] = arith.remui %[[AB]], %[[D1]] : index
// CHECK-NEXT:      %[[A:.*]] = arith.divui %[[AB]], %[[D1]] : index
// CHECK-NEXT:      scf.for %[[D:.*]] = %c0 to %[[D3]] step %c1 iter_args(
// CHECK-NEXT:        scf.for %[[E:.*]] = %c0 to %[[D4]] step %c1 iter_args(
// CHECK:               scf.for %[[F:.*]] = %c0 to %{{.*}} step %c16 iter_args(
// CHECK:                 vector.transfer_read %arg1[%[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[F]]]
// CHECK:                 vector.gather %arg0[%[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %c0]
// CHECK:               scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 iter_args(
// CHECK:                 tensor.extract %arg0[%[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %{{.*}}]
func.func @rank6(%d: tensor<?x?x?x?x?x?xf32>, %i: tensor<?x?x?x?x?x?xi64>) -> tensor<?x?x?x?x?x?xf32> {
  %0 = onnx.GatherElements %d, %i axis = 5 : tensor<?x?x?x?x?x?xf32>, tensor<?x?x?x?x?x?xi64> -> tensor<?x?x?x?x?x?xf32>
  return %0 : tensor<?x?x?x?x?x?xf32>
}

// -----

// Rank 4: three outer dimensions, the leading one its own loop (nothing to
// delinearize).
// CHECK-LABEL: func.func @rank4
// CHECK:         scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(
func.func @rank4(%d: tensor<?x?x?x?xf32>, %i: tensor<?x?x?x?xi64>) -> tensor<?x?x?x?xf32> {
  %0 = onnx.GatherElements %d, %i axis = 3 : tensor<?x?x?x?xf32>, tensor<?x?x?x?xi64> -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// LLVM-LABEL: llvm.func @rank40
// CHECK-LABEL: func.func @rank40
func.func @rank40(%d: tensor<?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?xf32>, %i: tensor<?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?xi64>) -> tensor<?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?xf32> {
  %0 = onnx.GatherElements %d, %i axis = 39 : tensor<?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?xf32>, tensor<?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?xi64> -> tensor<?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?xf32>
  return %0 : tensor<?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?x?xf32>
}
