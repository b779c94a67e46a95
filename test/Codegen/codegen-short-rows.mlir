// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen --canonicalize --cse --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="vector-size=8" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=V8
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="vector-size=64" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=V64
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="vector-size=64 remarks=true" --split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=V64-REMARK
// The grouped vectors take the form of the target like any vector.gather:
// hardware gathers for Skylake-SP, scalarized vectors for Zen 4 and Haswell.
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen --gather-select-form=target-cpu=skylake-avx512 --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=HW
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen --gather-select-form=target-cpu=znver4 --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=SC
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen --gather-select-form=target-cpu=haswell --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=SC

// Rows shorter than one vector (L < N) run in groups of R = N / gcd(L, N)
// rows: the G = R * L elements of a group are K = L / gcd(L, N) whole
// vectors. Rows of 10 with N = 16: groups of 8 rows, 5 vectors. The index
// values are read from `indices` with its two innermost dimensions merged,
// the group's [8, 10] slice of the result is written as 80 contiguous
// elements, and lane j of vector k gathers from row (16k + j) / 10 of the
// group: a constant per lane, added to the clamped index value (times the
// row stride of `data`, 1000). The fused check ORs "out of range" into a
// vector<16xi1> reduced once per group.
// CHECK-LABEL: func.func @rows10
// CHECK-DAG:     %[[LANES0:.*]] = arith.constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1000, 1000, 1000, 1000, 1000, 1000]> : vector<16xindex>
// CHECK-DAG:     %[[LANES4:.*]] = arith.constant dense<[6000, 6000, 6000, 6000, 6000, 6000, 7000, 7000, 7000, 7000, 7000, 7000, 7000, 7000, 7000, 7000]> : vector<16xindex>
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<64x10xi64> into tensor<640xi64>
// CHECK:         scf.for %[[G:.*]] = %c0 to %c8 step %c1 iter_args(%[[OUT:.*]] = %{{.*}}, %{{.*}} = %false) -> (tensor<64x10xf32>, i1)
// CHECK:           %[[ROW:.*]] = arith.muli %[[G]], %c8
// CHECK:           %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][%[[ROW]], 0] [8, 10] [1, 1] : tensor<64x10xf32> to tensor<8x10xf32>
// CHECK:           %[[SLICE80:.*]] = tensor.collapse_shape %[[SLICE]] {{\[\[}}0, 1]] : tensor<8x10xf32> into tensor<80xf32>
// CHECK:           %[[FIRST:.*]] = arith.muli %[[G]], %c80
// CHECK:           %[[I0:.*]] = vector.transfer_read %[[FLAT]][%[[FIRST]]], {{.*}} : tensor<640xi64>, vector<16xi64>
// CHECK:           %[[OK0:.*]] = arith.cmpi ult
// CHECK:           %[[SAFE0:.*]] = arith.select %[[OK0]]
// CHECK:           %[[OFF0:.*]] = arith.addi %[[SAFE0]], %[[LANES0]] : vector<16xindex>
// CHECK:           %[[V0:.*]] = vector.gather %{{.*}}[%[[ROW]], %c0] [%[[OFF0]]]
// CHECK:           %[[W0:.*]] = vector.transfer_write %[[V0]], %[[SLICE80]][%c0] {in_bounds = [true]} : vector<16xf32>, tensor<80xf32>
// CHECK:           %[[BAD0:.*]] = arith.cmpi uge
// CHECK-COUNT-3:   vector.gather
// CHECK:           arith.addi %{{.*}}, %[[LANES4]] : vector<16xindex>
// CHECK:           %[[V4:.*]] = vector.gather
// CHECK:           %[[W4:.*]] = vector.transfer_write %[[V4]], %{{.*}}[%c64] {in_bounds = [true]} : vector<16xf32>, tensor<80xf32>
// CHECK:           %[[BAD4:.*]] = arith.ori %{{.*}} : vector<16xi1>
// CHECK:           %[[NEW:.*]] = tensor.expand_shape %[[W4]] {{\[\[}}0, 1]] output_shape [8, 10] : tensor<80xf32> into tensor<8x10xf32>
// CHECK:           vector.reduction <or>, %[[BAD4]] : vector<16xi1> into i1
// CHECK:           tensor.insert_slice %[[NEW]] into %[[OUT]][%[[ROW]], 0] [8, 10] [1, 1] : tensor<8x10xf32> into tensor<64x10xf32>
// CHECK-NOT:       vector.gather
// CHECK:           scf.yield
// 64 rows are 8 whole groups: no scalar rest.
// CHECK-NOT:     tensor.insert {{.*}} : tensor<64x10xf32>
// CHECK:         return
// Vectors of 8 are not longer than rows of 10: one vector and 2 scalars
// per row, not grouped.
// V8-LABEL: func.func @rows10
// V8-NOT:       tensor.collapse_shape
// V8:           vector.gather {{.*}} into vector<8xf32>
// V8:           scf.for %{{.*}} = %c8 to %c10 step %c1
// HW-LABEL: func.func @rows10
// HW:         scf.for
// HW-COUNT-5:   vector.gather {{.*}} into vector<16xf32>
// HW-NOT:       vector.gather
// HW:           tensor.expand_shape
// SC-LABEL: func.func @rows10
// SC-NOT:     vector.gather
// SC:         scf.for
// SC-COUNT-16:  tensor.extract %{{.*}} : tensor<64x1000xf32>
// SC:           vector.from_elements {{.*}} : vector<16xf32>
// SC:           vector.transfer_write
// SC-NOT:     vector.gather
func.func @rows10(%d: tensor<64x1000xf32>, %i: tensor<64x10xi64>) -> tensor<64x10xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<64x1000xf32>, tensor<64x10xi64>
  return %0 : tensor<64x10xf32>
}

// -----

// 13 rows of 10 (i32 indices): one whole group of 8 rows, then the 5 rows
// left as scalar rows.
// CHECK-LABEL: func.func @rest
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} : tensor<13x10xi32> into tensor<130xi32>
// CHECK:         tensor.extract_slice %{{.*}}[0, 0] [8, 10] [1, 1] : tensor<13x10xf32> to tensor<8x10xf32>
// CHECK:         vector.transfer_read %[[FLAT]][%c0], {{.*}} : tensor<130xi32>, vector<16xi32>
// CHECK-COUNT-5: vector.gather
// CHECK:         %[[GROUP:.*]] = tensor.insert_slice {{.*}} [8, 10] [1, 1] : tensor<8x10xf32> into tensor<13x10xf32>
// CHECK:         scf.for %[[R:.*]] = %c8 to %c13 step %c1 iter_args(%{{.*}} = %[[GROUP]], %{{.*}} = %{{.*}}) -> (tensor<13x10xf32>, i1)
// CHECK:           scf.for %[[C:.*]] = %c0 to %c10 step %c1
// CHECK:             tensor.extract %{{.*}}[%[[R]], %[[C]]] : tensor<13x10xi32>
// CHECK:             tensor.insert {{.*}}[%[[R]], %[[C]]] : tensor<13x10xf32>
// CHECK-NOT:     vector.gather
// CHECK:         return
func.func @rest(%d: tensor<13x1000xf32>, %i: tensor<13x10xi32>) -> tensor<13x10xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<13x1000xf32>, tensor<13x10xi32>
  return %0 : tensor<13x10xf32>
}

// -----

// Axis 0 with rows of 10 from data rows of 12: the lanes' columns are the
// constants, the index value scales by the row stride of `data` (12).
// CHECK-LABEL: func.func @axis0
// CHECK-DAG:     %[[COLS0:.*]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5]> : vector<16xindex>
// CHECK-DAG:     %[[STRIDE:.*]] = arith.constant dense<12> : vector<16xindex>
// CHECK:         scf.for
// CHECK:           vector.transfer_read {{.*}} : tensor<160xi64>, vector<16xi64>
// CHECK:           %[[OK:.*]] = arith.cmpi ult
// CHECK:           %[[SAFE:.*]] = arith.select %[[OK]]
// CHECK:           %[[SCALED:.*]] = arith.muli %[[SAFE]], %[[STRIDE]] : vector<16xindex>
// CHECK:           %[[OFF:.*]] = arith.addi %[[SCALED]], %[[COLS0]] : vector<16xindex>
// CHECK:           vector.gather %{{.*}}[%c0, %c0] [%[[OFF]]]
func.func @axis0(%d: tensor<50x12xf32>, %i: tensor<16x10xi64>) -> tensor<16x10xf32> {
  %0 = onnx.GatherElements %d, %i axis = 0 : tensor<50x12xf32>, tensor<16x10xi64>
  return %0 : tensor<16x10xf32>
}

// -----

// Rank 3, rows of 3: groups of 16 rows (3 vectors) inside the loop over
// the outermost dimension; rows of 1: groups of 16 rows, one vector.
// CHECK-LABEL: func.func @rank3
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<4x32x3xi64> into tensor<4x96xi64>
// CHECK:         scf.for %[[O:.*]] = %c0 to %c4
// CHECK:           scf.for %[[G:.*]] = %c0 to %c2
// CHECK:             tensor.extract_slice %{{.*}}[%[[O]], %{{.*}}, 0] [1, 16, 3] [1, 1, 1] : tensor<4x32x3xf32> to tensor<16x3xf32>
// CHECK:             vector.transfer_read %{{.*}}[%[[O]], %{{.*}}], {{.*}} : tensor<4x96xi64>, vector<16xi64>
// CHECK-COUNT-3:     vector.gather %{{.*}}[%[[O]], %{{.*}}, %c0]
// CHECK-NOT:         vector.gather
// CHECK:             tensor.insert_slice {{.*}} [1, 16, 3] [1, 1, 1] : tensor<16x3xf32> into tensor<4x32x3xf32>
func.func @rank3(%d: tensor<4x32x7xf32>, %i: tensor<4x32x3xi64>) -> tensor<4x32x3xf32> {
  %0 = onnx.GatherElements %d, %i axis = 2 : tensor<4x32x7xf32>, tensor<4x32x3xi64>
  return %0 : tensor<4x32x3xf32>
}
// CHECK-LABEL: func.func @rows1
// CHECK:         scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:           tensor.extract_slice {{.*}} [16, 1] [1, 1] : tensor<64x1xf32> to tensor<16x1xf32>
// CHECK:           vector.gather
// CHECK-NOT:       vector.gather
// CHECK:           tensor.insert_slice
func.func @rows1(%d: tensor<64x9xf32>, %i: tensor<64x1xi32>) -> tensor<64x1xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<64x9xf32>, tensor<64x1xi32>
  return %0 : tensor<64x1xf32>
}

// -----

// Threads: one scf.forall over the groups; each writes its [8, 10] slice
// (parallel_insert_slice), and a group with a value out of range sets the
// flag.
// CHECK-LABEL: func.func @threaded
// CHECK:         scf.forall (%[[G:.*]]) in (512) shared_outs(%[[SHARED:.*]] = %{{.*}}) -> (tensor<4096x10xf32>)
// CHECK:           %[[ROW:.*]] = arith.muli %[[G]], %c8
// CHECK:           tensor.extract_slice %[[SHARED]][%[[ROW]], 0] [8, 10] [1, 1] : tensor<4096x10xf32> to tensor<8x10xf32>
// CHECK-COUNT-5:   vector.gather
// CHECK:           %[[NEW:.*]] = tensor.expand_shape
// CHECK:           %[[BAD:.*]] = vector.reduction <or>
// CHECK:           scf.if %[[BAD]]
// CHECK:             memref.atomic_rmw ori
// CHECK:           scf.forall.in_parallel
// CHECK:             tensor.parallel_insert_slice %[[NEW]] into %[[SHARED]][%[[ROW]], 0] [8, 10] [1, 1]
func.func @threaded(%d: tensor<4096x1000xf32>, %i: tensor<4096x10xi64>) -> tensor<4096x10xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4096x1000xf32>, tensor<4096x10xi64>
  return %0 : tensor<4096x10xf32>
}

// -----

// Threads, 1003 rows: 126 groups, the last one of 3 rows as scalar rows.
// CHECK-LABEL: func.func @threaded_rest
// CHECK:         scf.forall (%{{.*}}) in (126)
// CHECK:           %[[ROWS:.*]] = arith.minsi %{{.*}}, %c8 : index
// CHECK:           %[[SLICE:.*]] = tensor.extract_slice %{{.*}} [%[[ROWS]], 10] [1, 1] : tensor<1003x10xf32> to tensor<?x10xf32>
// CHECK:           %[[WHOLE:.*]] = arith.cmpi eq, %[[ROWS]], %c8 : index
// CHECK:           %[[NEW:.*]]:2 = scf.if %[[WHOLE]] -> (tensor<?x10xf32>, i1)
// CHECK-COUNT-5:     vector.gather
// CHECK:           } else {
// CHECK-NOT:         vector.gather
// CHECK:             scf.for {{.*}} iter_args(%{{.*}} = %[[SLICE]], %{{.*}} = %false)
// CHECK:               scf.for
// CHECK:                 tensor.insert
// CHECK:           tensor.parallel_insert_slice %[[NEW]]#0
func.func @threaded_rest(%d: tensor<1003x100xf32>, %i: tensor<1003x10xi64>) -> tensor<1003x10xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<1003x100xf32>, tensor<1003x10xi64>
  return %0 : tensor<1003x10xf32>
}

// -----

// Not grouped, scalar rows: fewer rows than one group (4 rows of 10, groups
// of 8), and indices that are a slice of a larger tensor (not surely
// contiguous).
// CHECK-LABEL: func.func @few
// CHECK-NOT:     vector.
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         return
func.func @few(%d: tensor<4x100xf32>, %i: tensor<4x10xi64>) -> tensor<4x10xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4x100xf32>, tensor<4x10xi64>
  return %0 : tensor<4x10xf32>
}
// CHECK-LABEL: func.func @strided
// CHECK-NOT:     vector.
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         return
func.func @strided(%d: tensor<64x100xf32>, %big: tensor<64x20xi64>) -> tensor<64x10xf32> {
  %i = tensor.extract_slice %big[0, 0] [64, 10] [1, 1] : tensor<64x20xi64> to tensor<64x10xi64>
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<64x100xf32>, tensor<64x10xi64>
  return %0 : tensor<64x10xf32>
}

// -----

// Vectors of 64: rows of 16 are groups of 4 rows in one vector; rows of 17
// would need 17 vectors per group (more than 16), rows of 15 15 vectors of
// 64, 960 elements (more than 256, each one unrolled in the loop body):
// scalar rows.
// V64-LABEL: func.func @rows16
// V64:         tensor.collapse_shape
// V64:         vector.gather {{.*}} into vector<64xf32>
// V64-LABEL: func.func @rows17
// V64-NOT:     vector.gather
// V64-NOT:     tensor.collapse_shape
// V64:         return
func.func @rows16(%d: tensor<64x40xf32>, %i: tensor<64x16xi64>) -> tensor<64x16xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<64x40xf32>, tensor<64x16xi64>
  return %0 : tensor<64x16xf32>
}
func.func @rows17(%d: tensor<64x40xf32>, %i: tensor<64x17xi64>) -> tensor<64x17xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<64x40xf32>, tensor<64x17xi64>
  return %0 : tensor<64x17xf32>
}
// V64-LABEL: func.func @rows15
// V64-NOT:     vector.gather
// V64:         return
// V64-REMARK: codegen-short-rows.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: scalar (rows of 15, shorter than a vector, not in groups: 960 elements per group, over 256)
func.func @rows15(%d: tensor<64x40xf32>, %i: tensor<64x15xi64>) -> tensor<64x15xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<64x40xf32>, tensor<64x15xi64>
  return %0 : tensor<64x15xf32>
}
