// RUN: gather-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-onnx-to-linalg="runtime-checks=false" --split-input-file | FileCheck %s --check-prefix=OFF

// Without run-time checks nothing is reported (the scalar memory-safety
// guards of dynamic shapes stay).
// OFF-NOT: gatherReport

// Static shapes, indices from an argument: only the index-value check. The
// gather (not guarded) is followed by the check: a generic that reduces
// all of `indices` into one tensor<i1> ("any out of range"; no buffer of
// flags per row; gather-codegen fuses it into the
// gather's loop), and a cold loop reports the first 10 bad values with their
// positions, then how many more there are. Every report gets the op's
// report site (a constant: the module's error sink and the op's location).
// CHECK:       func.func private @gatherReportIndexErrorsOmitted(!llvm.ptr, i64, i64, i64)
// CHECK:       llvm.mlir.global private constant @[[$LOC:__gather_location_[0-9A-F]+]]() {{.*}} : !llvm.struct<(ptr, array<{{[0-9]+}} x i8>)> {
// CHECK-NEXT:    llvm.mlir.addressof @__gather_error_sink : !llvm.ptr
// CHECK-NEXT:    llvm.mlir.constant("{{.*}}runtime-checks.mlir:[[# @LINE + 32]]:8\00")
// CHECK:       llvm.mlir.global weak @__gather_error_sink() {{.*}} : !llvm.struct<(ptr, ptr)>
// CHECK-LABEL: func.func private @gatherReportIndexError(!llvm.ptr, i64, !llvm.ptr, i64, i64, i64)
// CHECK-NOT:   gatherReportShapeError
// CHECK-LABEL: func.func @static_shapes
// CHECK-SAME:    (%[[DATA:.*]]: tensor<3x4xf32>, %[[IDX:.*]]: tensor<2x3xi32>)
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[IDX]] : tensor<2x3xi32>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK-SAME:      attrs = {gather.elements}
// CHECK-NOT:     linalg.generic
// CHECK:         %[[ANY:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "reduction"]
// CHECK-SAME:      ins(%[[IDX]] : tensor<2x3xi32>) outs(%{{.*}} : tensor<i1>)
// CHECK-SAME:      attrs = {gather.index_check}
// CHECK:           arith.cmpi ult
// CHECK:           arith.ori
// CHECK-NOT:     linalg.generic
// CHECK:         %[[BAD:.*]] = tensor.extract %[[ANY]][] : tensor<i1>
// CHECK:         %[[LOCPTR:.*]] = llvm.mlir.addressof @[[$LOC]] : !llvm.ptr
// CHECK:         scf.if %[[BAD]] {
// CHECK:           %[[POS:.*]] = memref.alloc() : memref<2xi64>
// CHECK:           memref.extract_aligned_pointer_as_index %[[POS]]
// CHECK:           scf.for
// CHECK:             tensor.extract %[[IDX]]
// CHECK:             scf.if
// CHECK:               arith.extsi %{{.*}} : i32 to i64
// CHECK:               func.call @gatherReportIndexError(%[[LOCPTR]],
// CHECK:           arith.cmpi ugt, %{{.*}}, %c10
// CHECK:           func.call @gatherReportIndexErrorsOmitted(%[[LOCPTR]],
// CHECK:         return %[[R]]
func.func @static_shapes(%data: tensor<3x4xf32>, %indices: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<3x4xf32>, tensor<2x3xi32>
  return %0 : tensor<2x3xf32>
}

// -----

// Constant indices on a static axis were checked by the verifier: no
// run-time check at all.
// CHECK-LABEL: func.func @constant_indices
// CHECK-NOT:     gatherReport
// CHECK-NOT:     scf.if
// CHECK:         linalg.generic
// CHECK-NOT:     gatherReport
func.func @constant_indices(%data: tensor<3x4xf32>) -> tensor<2x2xf32> {
  %indices = arith.constant dense<[[0, -4], [3, 1]]> : tensor<2x2xi64>
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<3x4xf32>, tensor<2x2xi64>
  return %0 : tensor<2x2xf32>
}

// -----

// Empty static indices: nothing to check, nothing to read.
// CHECK-LABEL: func.func @empty_indices
// CHECK-NOT:     gatherReport
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @empty_indices(%data: tensor<3x4xf32>, %indices: tensor<0x4xi64>) -> tensor<0x4xf32> {
  %0 = onnx.GatherElements %data, %indices : tensor<3x4xf32>, tensor<0x4xi64>
  return %0 : tensor<0x4xf32>
}

// -----

// Dynamic shapes: indices.shape[0] <= data.shape[0] is checked at run time
// (dimension 1 is the axis), and the gather runs only if it holds and the
// axis is not empty.
// CHECK-LABEL: func.func private @gatherReportShapeError(!llvm.ptr, i64, i64, i64, i64)
// CHECK-LABEL: func.func @dynamic_shapes
// CHECK-SAME:    (%[[DATA:.*]]: tensor<?x?xf32>, %[[IDX:.*]]: tensor<?x?xi64>)
// CHECK:         %[[S:.*]] = tensor.dim %[[DATA]], %{{.*}} : tensor<?x?xf32>
// CHECK:         %[[N0:.*]] = tensor.dim %[[IDX]], %{{.*}} : tensor<?x?xi64>
// CHECK:         %[[D0:.*]] = tensor.dim %[[DATA]], %{{.*}} : tensor<?x?xf32>
// CHECK:         %[[FITS:.*]] = arith.cmpi ule, %[[N0]], %[[D0]] : index
// CHECK:         %[[NOFIT:.*]] = arith.xori %[[FITS]], %{{.*}} : i1
// CHECK:         scf.if %[[NOFIT]] {
// CHECK:           func.call @gatherReportShapeError
// CHECK:         %[[NONEMPTY:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : index
// CHECK:         %[[SAFE:.*]] = arith.andi %[[FITS]], %[[NONEMPTY]] : i1
// CHECK:         %[[R:.*]]:2 = scf.if %[[SAFE]] -> (tensor<?x?xf32>, i1) {
// CHECK:           %[[G:.*]] = linalg.generic
// CHECK:           %[[GBAD:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK:           scf.yield %[[G]], %[[GBAD]]
// CHECK:         } else {
// CHECK:           %[[E:.*]] = tensor.empty
// CHECK:           %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?x?xf32>)
// The index values are still checked when the gather is skipped.
// CHECK:           %[[ZBAD:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK:           scf.yield %[[Z]], %[[ZBAD]]
// CHECK:         scf.if %[[R]]#1 {
// CHECK:           func.call @gatherReportIndexError
// CHECK:         return %[[R]]#0
func.func @dynamic_shapes(%data: tensor<?x?xf32>, %indices: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  return %0 : tensor<?x?xf32>
}

// -----

// Unranked data: its rank is checked against rank(indices) at run time, and
// the (ranked) lowering runs only if they match, on a tensor.cast to
// tensor<?x?xf32>.
// CHECK-LABEL: func.func private @gatherReportRankError(!llvm.ptr, i64, i64, i64)
// CHECK-LABEL: func.func @unranked_data
// CHECK-SAME:    (%[[DATA:.*]]: tensor<*xf32>, %[[IDX:.*]]: tensor<2x2xi64>)
// CHECK:         %[[RANK:.*]] = tensor.rank %[[DATA]] : tensor<*xf32>
// CHECK:         %[[OK:.*]] = arith.cmpi eq, %[[RANK]], %{{.*}} : index
// CHECK:         scf.if %{{.*}} {
// CHECK:           func.call @gatherReportRankError
// CHECK:         %[[R:.*]] = scf.if %[[OK]] -> (tensor<2x2xf32>) {
// CHECK:           %[[CAST:.*]] = tensor.cast %[[DATA]] : tensor<*xf32> to tensor<?x?xf32>
// CHECK:           linalg.generic
// CHECK:           tensor.extract %[[CAST]]
// CHECK:         } else {
// CHECK:           tensor.empty() : tensor<2x2xf32>
// CHECK:         return %[[R]]
func.func @unranked_data(%data: tensor<*xf32>, %indices: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<*xf32>, tensor<2x2xi64>
  return %0 : tensor<2x2xf32>
}

// -----

// Several ops in several functions share one declaration in the module.
// CHECK-COUNT-1: func.func private @gatherReportIndexError(
// CHECK-NOT:     func.func private @gatherReportIndexError(
// CHECK-LABEL: func.func @first
// CHECK-COUNT-2: func.call @gatherReportIndexError
// CHECK-LABEL: func.func @second
// CHECK:         func.call @gatherReportIndexError
func.func @first(%data: tensor<3xf32>, %a: tensor<4xi64>, %b: tensor<5xi32>) -> (tensor<4xf32>, tensor<5xf32>) {
  %0 = onnx.GatherElements %data, %a : tensor<3xf32>, tensor<4xi64>
  %1 = onnx.GatherElements %data, %b : tensor<3xf32>, tensor<5xi32>
  return %0, %1 : tensor<4xf32>, tensor<5xf32>
}
func.func @second(%data: tensor<3xf32>, %a: tensor<4xi64>) -> tensor<4xf32> {
  %0 = onnx.GatherElements %data, %a : tensor<3xf32>, tensor<4xi64>
  return %0 : tensor<4xf32>
}
