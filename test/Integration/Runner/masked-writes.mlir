// REQUIRES: jit
// Masked vector.transfer_writes that cover their whole tensor, as IR that a
// user vectorized with masks brings: MLIR 22's canonicalizer folds such a
// write of a read to the tensor read (the mask dropped), and its
// bufferization gives such a write into a constant a new buffer without
// the constant's elements. gather-blend-masked-writes makes each one a
// blend (test/Pipelines/blend-masked-writes.mlir): the masked-off elements
// keep their old values, with and without threads.
// RUN: for o in "" "num-threads=1" "vector-size=0"; do \
// RUN:   echo "options: $o"; \
// RUN:   gather-run %s --function=keep --pipeline-options="$o" --input=4xf32=10,20,30,40 --input=1xi64=2 || exit 1; \
// RUN:   gather-run %s --function=keep --pipeline-options="$o" --input=4xf32=10,20,30,40 --input=1xi64=0 || exit 1; \
// RUN:   gather-run %s --function=permuted --pipeline-options="$o" --input=3x2xf32=10,20,30,40,50,60 --input=2xi64=1,2 || exit 1; \
// RUN:   gather-run %s --function=in_mask --pipeline-options="$o" --input=4xf32=10,20,30,40 --input=1xi64=3 || exit 1; \
// RUN:   gather-run %s --function=read_after --pipeline-options="$o" --input=4xf32=10,20,30,40 --input=4xf32=1,2,3,4 --input=1xi64=1 || exit 1; \
// RUN:   gather-run %s --function=wider --pipeline-options="$o" --input=3xf32=10,20,30 --input=1xi64=2 || exit 1; \
// RUN: done | FileCheck %s
// CHECK-LABEL: options: {{$}}
// CHECK-NEXT:  result 0: tensor<4xf32> = [10, 20, 3, 4]
// CHECK-NEXT:  result 0: tensor<4xf32> = [1, 2, 3, 4]
// CHECK-NEXT{LITERAL}: result 0: tensor<2x3xf32> = [[10, 30, 3], [4, 5, 6]]
// CHECK-NEXT:  result 0: tensor<4xf32> = [10, 20, 30, 4]
// CHECK-NEXT:  result 0: tensor<4xf32> = [10, 2, 3, 4]
// CHECK-NEXT:  result 1: tensor<4xf32> = [1, 2, 3, 4]
// CHECK-NEXT:  result 0: tensor<3xf32> = [10, 20, 3]
// CHECK-LABEL: options: num-threads=1
// CHECK-NEXT:  result 0: tensor<4xf32> = [10, 20, 3, 4]
// CHECK-NEXT:  result 0: tensor<4xf32> = [1, 2, 3, 4]
// CHECK-NEXT{LITERAL}: result 0: tensor<2x3xf32> = [[10, 30, 3], [4, 5, 6]]
// CHECK-NEXT:  result 0: tensor<4xf32> = [10, 20, 30, 4]
// CHECK-NEXT:  result 0: tensor<4xf32> = [10, 2, 3, 4]
// CHECK-NEXT:  result 1: tensor<4xf32> = [1, 2, 3, 4]
// CHECK-NEXT:  result 0: tensor<3xf32> = [10, 20, 3]
// CHECK-LABEL: options: vector-size=0
// CHECK-NEXT:  result 0: tensor<4xf32> = [10, 20, 3, 4]
// CHECK-NEXT:  result 0: tensor<4xf32> = [1, 2, 3, 4]
// CHECK-NEXT{LITERAL}: result 0: tensor<2x3xf32> = [[10, 30, 3], [4, 5, 6]]
// CHECK-NEXT:  result 0: tensor<4xf32> = [10, 20, 30, 4]
// CHECK-NEXT:  result 0: tensor<4xf32> = [10, 2, 3, 4]
// CHECK-NEXT:  result 1: tensor<4xf32> = [1, 2, 3, 4]
// CHECK-NEXT:  result 0: tensor<3xf32> = [10, 20, 3]

// keep(x, n): the first n elements of x, then those of [1, 2, 3, 4].
func.func @keep(%x: tensor<4xf32>, %n: tensor<1xi64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %n0 = tensor.extract %n[%c0] : tensor<1xi64>
  %ni = arith.index_cast %n0 : i64 to index
  %m = vector.create_mask %ni : vector<4xi1>
  %v = vector.transfer_read %x[%c0], %p : tensor<4xf32>, vector<4xf32>
  %r = vector.transfer_write %v, %cst[%c0], %m : vector<4xf32>, tensor<4xf32>
  return %r : tensor<4xf32>
}

// permuted(x, n): [[1, 2, 3], [4, 5, 6]] with element [i, j] x[j, i] where
// i < n[0] and j < n[1] (a transposing write, its mask in the tensor's
// order).
func.func @permuted(%x: tensor<3x2xf32>, %n: tensor<2xi64>) -> tensor<2x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.constant 0.0 : f32
  %cst = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %n0 = tensor.extract %n[%c0] : tensor<2xi64>
  %n1 = tensor.extract %n[%c1] : tensor<2xi64>
  %i0 = arith.index_cast %n0 : i64 to index
  %i1 = arith.index_cast %n1 : i64 to index
  %m = vector.create_mask %i0, %i1 : vector<2x3xi1>
  %v = vector.transfer_read %x[%c0, %c0], %p : tensor<3x2xf32>, vector<3x2xf32>
  %r = vector.transfer_write %v, %cst[%c0, %c0], %m {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<3x2xf32>, tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// in_mask(x, n): as keep, the mask a vector.mask around the write (folded
// into it by gather-lower-vector-masks, after the canonicalizer's folds).
func.func @in_mask(%x: tensor<4xf32>, %n: tensor<1xi64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %n0 = tensor.extract %n[%c0] : tensor<1xi64>
  %ni = arith.index_cast %n0 : i64 to index
  %m = vector.create_mask %ni : vector<4xi1>
  %v = vector.transfer_read %x[%c0], %p : tensor<4xf32>, vector<4xf32>
  %r = vector.mask %m { vector.transfer_write %v, %cst[%c0] : vector<4xf32>, tensor<4xf32> } : vector<4xi1> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// read_after(x, y, n): the first n elements of x, then those of y, and y
// itself (read after the write: the write gets a buffer of its own).
func.func @read_after(%x: tensor<4xf32>, %y: tensor<4xf32>, %n: tensor<1xi64>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %n0 = tensor.extract %n[%c0] : tensor<1xi64>
  %ni = arith.index_cast %n0 : i64 to index
  %m = vector.create_mask %ni : vector<4xi1>
  %v = vector.transfer_read %x[%c0], %p : tensor<4xf32>, vector<4xf32>
  %r = vector.transfer_write %v, %y[%c0], %m : vector<4xf32>, tensor<4xf32>
  return %r, %y : tensor<4xf32>, tensor<4xf32>
}

// wider(x, n): as keep, with a vector of 1024 lanes on a tensor of 3 (in
// bounds under its mask): unmasked, its lanes past the tensor must stay out
// of the buffer.
func.func @wider(%x: tensor<3xf32>, %n: tensor<1xi64>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %cst = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %n0 = tensor.extract %n[%c0] : tensor<1xi64>
  %ni = arith.index_cast %n0 : i64 to index
  %m = vector.create_mask %ni : vector<1024xi1>
  %v = vector.transfer_read %x[%c0], %p, %m {in_bounds = [true]} : tensor<3xf32>, vector<1024xf32>
  %r = vector.transfer_write %v, %cst[%c0], %m {in_bounds = [true]} : vector<1024xf32>, tensor<3xf32>
  return %r : tensor<3xf32>
}
