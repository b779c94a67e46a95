// gather-blend-masked-writes: a masked vector.transfer_write (or one in a
// vector.mask) whose vector covers its static-shaped tensor becomes an
// unmasked write of the vector blended with the destination's old
// elements (the mask in the vector's order); other writes stay. Values:
// test/Integration/Runner/masked-writes.mlir.
// RUN: gather-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gather-blend-masked-writes))' | FileCheck %s
// Then canonicalize keeps the blend (it folds the masked write of a read
// to the tensor read, the mask dropped, in MLIR 22).
// RUN: gather-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gather-blend-masked-writes,canonicalize))' | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @of_read(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>, %[[N:.*]]: index
// CHECK:         %[[CST:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK:         %[[M:.*]] = vector.create_mask %[[N]] : vector<4xi1>
// CHECK:         %[[V:.*]] = vector.transfer_read %[[X]]
// CHECK:         %[[OLD:.*]] = vector.transfer_read %[[CST]][%{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<4xf32>, vector<4xf32>
// CHECK:         %[[B:.*]] = arith.select %[[M]], %[[V]], %[[OLD]] : vector<4xi1>, vector<4xf32>
// CHECK:         %[[R:.*]] = vector.transfer_write %[[B]], %[[CST]][%{{.*}}] {in_bounds = [true]} : vector<4xf32>, tensor<4xf32>
// CHECK:         return %[[R]]
// CANON-LABEL: func.func @of_read(
// CANON:         arith.select
// CANON:         %[[R:.*]] = vector.transfer_write
// CANON:         return %[[R]]
func.func @of_read(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %m = vector.create_mask %n : vector<4xi1>
  %v = vector.transfer_read %x[%c0], %p : tensor<4xf32>, vector<4xf32>
  %r = vector.transfer_write %v, %cst[%c0], %m : vector<4xf32>, tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A transposing write: its mask (in the tensor's order) transposed.
// CHECK-LABEL: func.func @permuted(
// CHECK:         %[[M:.*]] = vector.create_mask %{{.*}}, %{{.*}} : vector<2x3xi1>
// CHECK:         %[[OLD:.*]] = vector.transfer_read %{{.*}} {in_bounds = [true, true], permutation_map = #{{.*}}} : tensor<2x3xf32>, vector<3x2xf32>
// CHECK:         %[[T:.*]] = vector.transpose %[[M]], [1, 0] : vector<2x3xi1> to vector<3x2xi1>
// CHECK:         %[[B:.*]] = arith.select %[[T]], %{{.*}}, %[[OLD]] : vector<3x2xi1>, vector<3x2xf32>
// CHECK:         vector.transfer_write %[[B]], %{{.*}} {in_bounds = [true, true], permutation_map = #{{.*}}} : vector<3x2xf32>, tensor<2x3xf32>
func.func @permuted(%v: vector<3x2xf32>, %d: tensor<2x3xf32>, %a: index, %b: index) -> tensor<2x3xf32> {
  %c0 = arith.constant 0 : index
  %m = vector.create_mask %a, %b : vector<2x3xi1>
  %r = vector.transfer_write %v, %d[%c0, %c0], %m {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<3x2xf32>, tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// In a vector.mask: the vector.mask replaced.
// CHECK-LABEL: func.func @in_mask(
// CHECK-NOT:     vector.mask
// CHECK:         %[[B:.*]] = arith.select
// CHECK:         %[[R:.*]] = vector.transfer_write %[[B]]
// CHECK-NOT:     vector.mask
// CHECK:         return %[[R]]
func.func @in_mask(%v: vector<4xf32>, %d: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %m = vector.create_mask %n : vector<4xi1>
  %r = vector.mask %m { vector.transfer_write %v, %d[%c0] : vector<4xf32>, tensor<4xf32> } : vector<4xi1> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A vector wider than its tensor, in bounds under its mask (as upstream's
// masked vectorizer writes): unmasked, the read and the write are not in
// bounds, so the lanes past the tensor stay out.
// CHECK-LABEL: func.func @wider(
// CHECK:         %[[OLD:.*]] = vector.transfer_read %{{.*}}[%{{.*}}], %{{.*}} : tensor<5xf32>, vector<8xf32>
// CHECK:         arith.select
// CHECK:         vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}] : vector<8xf32>, tensor<5xf32>
func.func @wider(%v: vector<8xf32>, %d: tensor<5xf32>, %n: index) -> tensor<5xf32> {
  %c0 = arith.constant 0 : index
  %m = vector.create_mask %n : vector<8xi1>
  %r = vector.transfer_write %v, %d[%c0], %m {in_bounds = [true]} : vector<8xf32>, tensor<5xf32>
  return %r : tensor<5xf32>
}

// -----

// An empty tensor: every lane past it, none in bounds.
// CHECK-LABEL: func.func @empty(
// CHECK:         vector.transfer_read %{{.*}}[%{{.*}}], %{{.*}} : tensor<0xf32>, vector<4xf32>
// CHECK:         arith.select
// CHECK:         vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}] : vector<4xf32>, tensor<0xf32>
func.func @empty(%v: vector<4xf32>, %d: tensor<0xf32>, %n: index) -> tensor<0xf32> {
  %c0 = arith.constant 0 : index
  %m = vector.create_mask %n : vector<4xi1>
  %r = vector.transfer_write %v, %d[%c0], %m {in_bounds = [true]} : vector<4xf32>, tensor<0xf32>
  return %r : tensor<0xf32>
}

// -----

// In bounds where the constant index and the size keep the vector in the
// tensor: dimension 0 of this vector<2x4> in tensor<2x3>, not dimension 1.
// CHECK-LABEL: func.func @partly_in_bounds(
// CHECK:         vector.transfer_read {{.*}} {in_bounds = [true, false]} : tensor<2x3xf32>, vector<2x4xf32>
// CHECK:         vector.transfer_write {{.*}} {in_bounds = [true, false]} : vector<2x4xf32>, tensor<2x3xf32>
func.func @partly_in_bounds(%v: vector<2x4xf32>, %d: tensor<2x3xf32>, %n: index) -> tensor<2x3xf32> {
  %c0 = arith.constant 0 : index
  %m = vector.create_mask %n, %n : vector<2x4xi1>
  %r = vector.transfer_write %v, %d[%c0, %c0], %m {in_bounds = [true, true]} : vector<2x4xf32>, tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// Left as they are: a vector that covers part of its tensor (bufferization
// copies the tensor), a tensor.empty destination (no old elements), a
// dynamic shape, an unmasked write, a buffer, a tensor of vectors (its mask
// has fewer dimensions than the vector).
// CHECK-LABEL: func.func @left(
// CHECK-NOT:     arith.select
// CHECK:         vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} : vector<4xf32>, tensor<8xf32>
// CHECK:         vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} : vector<4xf32>, tensor<4xf32>
// CHECK:         vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} : vector<4xf32>, tensor<?xf32>
// CHECK:         vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}] : vector<4xf32>, tensor<4xf32>
// CHECK:         vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} : vector<4xf32>, memref<4xf32>
// CHECK:         vector.mask %{{.*}} { vector.transfer_write %{{.*}} : vector<2x4xf32>, tensor<2xvector<4xf32>> }
func.func @left(%v: vector<4xf32>, %a: tensor<8xf32>, %b: tensor<?xf32>, %c: tensor<4xf32>, %buf: memref<4xf32>, %n: index, %w: vector<2x4xf32>, %t: tensor<2xvector<4xf32>>) -> (tensor<8xf32>, tensor<4xf32>, tensor<?xf32>, tensor<4xf32>, tensor<2xvector<4xf32>>) {
  %c0 = arith.constant 0 : index
  %m = vector.create_mask %n : vector<4xi1>
  %e = tensor.empty() : tensor<4xf32>
  %0 = vector.transfer_write %v, %a[%c0], %m : vector<4xf32>, tensor<8xf32>
  %1 = vector.transfer_write %v, %e[%c0], %m : vector<4xf32>, tensor<4xf32>
  %2 = vector.transfer_write %v, %b[%c0], %m : vector<4xf32>, tensor<?xf32>
  %3 = vector.transfer_write %v, %c[%c0] : vector<4xf32>, tensor<4xf32>
  vector.transfer_write %v, %buf[%c0], %m : vector<4xf32>, memref<4xf32>
  %m2 = vector.create_mask %n : vector<2xi1>
  %4 = vector.mask %m2 { vector.transfer_write %w, %t[%c0] : vector<2x4xf32>, tensor<2xvector<4xf32>> } : vector<2xi1> -> tensor<2xvector<4xf32>>
  return %0, %1, %2, %3, %4 : tensor<8xf32>, tensor<4xf32>, tensor<?xf32>, tensor<4xf32>, tensor<2xvector<4xf32>>
}
