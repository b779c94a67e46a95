// gather-lower-vector-masks folds each vector.mask around a vector.gather,
// vector.transfer_read or vector.transfer_write into the op's own mask: a
// lane runs only where both masks enable it (arith.andi; an all-true own
// mask folds away), so masked-off lanes are neither loaded nor stored.
// Masks of other ops stay; one that cannot be folded is an error.
// RUN: gather-opt %s --split-input-file --verify-diagnostics --gather-lower-vector-masks | FileCheck %s
// MLIR 22: upstream's lower-vector-mask replaces the op's own mask by the
// vector.mask's (docs/UpstreamWorkarounds.md); when this check fails,
// upstream keeps both and the pass can go.
// RUN: gather-opt %s --split-input-file --lower-vector-mask 2>/dev/null | FileCheck %s --check-prefix=UPSTREAM

// CHECK-LABEL: func.func @gather_own_mask(
// CHECK-SAME:    %[[B:.*]]: memref<16xf32>, %[[I:.*]]: vector<4xindex>, %[[M:.*]]: vector<4xi1>, %[[OWN:.*]]: vector<4xi1>, %[[P:.*]]: vector<4xf32>)
// CHECK-NOT:     vector.mask
// CHECK:         %[[BOTH:.*]] = arith.andi %[[M]], %[[OWN]] : vector<4xi1>
// CHECK:         %[[G:.*]] = vector.gather %[[B]][%{{.*}}] [%[[I]]], %[[BOTH]], %[[P]]
// CHECK:         return %[[G]]
// UPSTREAM-LABEL: func.func @gather_own_mask(
// UPSTREAM-SAME:    %{{.*}}: vector<4xindex>, %[[M:.*]]: vector<4xi1>, %{{.*}}: vector<4xi1>, %{{.*}}: vector<4xf32>)
// UPSTREAM:         vector.gather %{{.*}}, %[[M]], %{{.*}} :
func.func @gather_own_mask(%b: memref<16xf32>, %i: vector<4xindex>, %m: vector<4xi1>, %own: vector<4xi1>, %p: vector<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %0 = vector.mask %m { vector.gather %b[%c0][%i], %own, %p : memref<16xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// As upstream's vectorizer emits it for a partial tile (tensors, 2-D, an
// all-true own mask, ub.poison padding).
// CHECK-LABEL: func.func @tile(
// CHECK-SAME:    %[[D:.*]]: tensor<4x8xf32>, %[[IDX:.*]]: tensor<?x?xi64>, %[[OUT:.*]]: tensor<?x?xf32>, %[[R:.*]]: index, %[[C:.*]]: index)
// CHECK-NOT:     vector.mask
// CHECK-NOT:     arith.andi
// CHECK:         %[[M:.*]] = vector.create_mask %[[R]], %[[C]] : vector<3x5xi1>
// CHECK:         vector.transfer_read %[[IDX]][%{{.*}}, %{{.*}}], %{{.*}}, %[[M]] {in_bounds = [true, true]} : tensor<?x?xi64>, vector<3x5xi64>
// CHECK:         %[[G:.*]] = vector.gather %[[D]][%{{.*}}, %{{.*}}] [%{{.*}}], %[[M]], %{{.*}} : tensor<4x8xf32>
// CHECK:         %[[W:.*]] = vector.transfer_write %[[G]], %[[OUT]][%{{.*}}, %{{.*}}], %[[M]] {in_bounds = [true, true]} : vector<3x5xf32>, tensor<?x?xf32>
// CHECK:         return %[[W]]
func.func @tile(%d: tensor<4x8xf32>, %idx: tensor<?x?xi64>, %out: tensor<?x?xf32>, %r: index, %c: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %m = vector.create_mask %r, %c : vector<3x5xi1>
  %pad = ub.poison : i64
  %i = vector.mask %m { vector.transfer_read %idx[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<?x?xi64>, vector<3x5xi64> } : vector<3x5xi1> -> vector<3x5xi64>
  %v = arith.index_cast %i : vector<3x5xi64> to vector<3x5xindex>
  %all = arith.constant dense<true> : vector<3x5xi1>
  %zero = arith.constant dense<0.0> : vector<3x5xf32>
  %g = vector.mask %m { vector.gather %d[%c0, %c0] [%v], %all, %zero : tensor<4x8xf32>, vector<3x5xindex>, vector<3x5xi1>, vector<3x5xf32> into vector<3x5xf32> } : vector<3x5xi1> -> vector<3x5xf32>
  %w = vector.mask %m { vector.transfer_write %g, %out[%c0, %c0] {in_bounds = [true, true]} : vector<3x5xf32>, tensor<?x?xf32> } : vector<3x5xi1> -> tensor<?x?xf32>
  return %w : tensor<?x?xf32>
}

// -----

// Transfers on memrefs with masks of their own; a read with a pass-through
// (masked-off lanes: the pass-through, not the padding).
// CHECK-LABEL: func.func @transfers(
// CHECK-SAME:    %[[B:.*]]: memref<16xf32>, %[[M:.*]]: vector<4xi1>, %[[OWN:.*]]: vector<4xi1>, %[[P:.*]]: vector<4xf32>)
// CHECK-NOT:     vector.mask
// CHECK:         %[[BOTH:.*]] = arith.andi %[[M]], %[[OWN]]
// CHECK:         %[[V:.*]] = vector.transfer_read %[[B]][%{{.*}}], %{{.*}}, %[[BOTH]]
// CHECK:         %[[BOTH2:.*]] = arith.andi %[[M]], %[[OWN]]
// CHECK:         vector.transfer_write %[[V]], %[[B]][%{{.*}}], %[[BOTH2]]
// CHECK:         %[[U:.*]] = vector.transfer_read %[[B]][%{{.*}}], %{{.*}}, %[[M]]
// CHECK:         %[[S:.*]] = arith.select %[[M]], %[[U]], %[[P]] : vector<4xi1>, vector<4xf32>
// CHECK:         return %[[S]]
func.func @transfers(%b: memref<16xf32>, %m: vector<4xi1>, %own: vector<4xi1>, %p: vector<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.mask %m { vector.transfer_read %b[%c0], %pad, %own : memref<16xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  vector.mask %m { vector.transfer_write %v, %b[%c4], %own : vector<4xf32>, memref<16xf32> } : vector<4xi1>
  %u = vector.mask %m, %p { vector.transfer_read %b[%c0], %pad : memref<16xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  return %u : vector<4xf32>
}

// -----

// Masks of other ops are left to their own lowering.
// CHECK-LABEL: func.func @reduction(
// CHECK:         vector.mask %{{.*}} { vector.multi_reduction <add>
func.func @reduction(%v: vector<4x8xf32>, %acc: vector<4xf32>, %m: vector<4x8xi1>) -> vector<4xf32> {
  %0 = vector.mask %m { vector.multi_reduction <add>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32> } : vector<4x8xi1> -> vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// A pass-through needs the mask in the shape of the vector read (here it is
// transposed by the permutation map).
func.func @transposed_passthru(%b: memref<16x16xf32>, %m: vector<8x4xi1>, %p: vector<4x8xf32>) -> vector<4x8xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  // expected-error @+1 {{gather-lower-vector-masks: cannot fold this mask into 'vector.transfer_read': a pass-through needs a mask of the vector's shape}}
  %0 = vector.mask %m, %p { vector.transfer_read %b[%c0, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<16x16xf32>, vector<4x8xf32> } : vector<8x4xi1> -> vector<4x8xf32>
  return %0 : vector<4x8xf32>
}
