// RUN: gather-opt %s --split-input-file --gather-copy-aliased-results | FileCheck %s

// gather-copy-aliased-results: a result that may share its allocation with
// an earlier one (BufferOriginAnalysis: the same or not known to differ) is
// returned as a copy into a new buffer; the others are left as they are.

// CHECK-LABEL: func.func @same
// CHECK:         %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[C:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         memref.copy %[[A]], %[[C]] : memref<4xf32> to memref<4xf32>
// CHECK:         return %[[A]], %[[C]]
func.func @same() -> (memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  return %a, %a : memref<4xf32>, memref<4xf32>
}

// -----

// A view of another result, with a dynamic size.
// CHECK-LABEL: func.func @view
// CHECK:         %[[A:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK:         %[[V:.*]] = memref.expand_shape %[[A]]
// CHECK:         %[[D:.*]] = memref.dim %[[V]], %c0
// CHECK:         %[[C:.*]] = memref.alloc(%[[D]]) : memref<?x2xf32>
// CHECK:         memref.copy %[[V]], %[[C]]
// CHECK:         return %[[A]], %[[C]]
func.func @view(%n: index, %m: index) -> (memref<?xf32>, memref<?x2xf32>) {
  %a = memref.alloc(%n) : memref<?xf32>
  %v = memref.expand_shape %a [[0, 1]] output_shape [%m, 2] : memref<?xf32> into memref<?x2xf32>
  return %a, %v : memref<?xf32>, memref<?x2xf32>
}

// -----

// Not known to differ: a select between two allocations.
// CHECK-LABEL: func.func @select
// CHECK:         %[[S:.*]] = arith.select
// CHECK:         %[[C:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         memref.copy %[[S]], %[[C]]
// CHECK:         return %{{.*}}, %[[C]]
func.func @select(%c: i1) -> (memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %s = arith.select %c, %a, %b : memref<4xf32>
  return %a, %s : memref<4xf32>, memref<4xf32>
}

// -----

// Distinct allocations, and one result: nothing to copy.
// CHECK-LABEL: func.func @distinct
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @distinct() -> (memref<4xf32>, memref<4xf32>, memref<2xi64>) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %i = memref.alloc() : memref<2xi64>
  return %a, %b, %i : memref<4xf32>, memref<4xf32>, memref<2xi64>
}
