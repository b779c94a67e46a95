// REQUIRES: jit
// Vectors of i1 read and written on i1 buffers, as a user's vectorized IR
// brings them: MLIR 22's convert-vector-to-llvm would load and store
// <N x i1> (N packed bits) where the buffer holds one byte per element;
// gather-widen-i1-accesses makes them accesses of i8 views
// (test/Pipelines/widen-i1-accesses.mlir). Right values with and without
// threads and vectors of the pipeline.
// RUN: for o in "" "num-threads=1" "vector-size=0"; do \
// RUN:   echo "options: $o"; \
// RUN:   gather-run %s --function=sel --pipeline-options="$o" --input=4xi1=0,1,0,1 || exit 1; \
// RUN:   gather-run %s --function=masked --pipeline-options="$o" --input=4xi1=0,1,0,1 --input=1xi64=3 || exit 1; \
// RUN:   gather-run %s --function=transposed --pipeline-options="$o" --input=2x4xi1=1,0,0,1,1,1,0,0 || exit 1; \
// RUN:   gather-run %s --function=rows --pipeline-options="$o" --input=3x16xi1=1,0,1,1,0,0,0,1,1,1,1,0,0,1,0,1,0,0,0,0,1,1,1,1,0,1,0,1,1,0,0,1,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,1 || exit 1; \
// RUN: done | FileCheck %s
// CHECK-LABEL: options: {{$}}
// CHECK-NEXT:  result 0: tensor<4xi1> = [false, true, true, false]
// CHECK-NEXT:  result 0: tensor<4xi1> = [false, true, false, false]
// CHECK-NEXT{LITERAL}: result 0: tensor<4x2xi1> = [[true, true], [false, true], [false, false], [true, false]]
// CHECK-NEXT{LITERAL}: result 0: tensor<3x16xi1> = [[false, true, false, false, true, true, true, false, false, false, false, true, true, false, true, false], [true, true, true, true, false, false, false, false, true, false, true, false, false, true, true, false], [false, false, false, false, false, false, false, false, true, true, true, true, true, true, true, false]]
// CHECK-LABEL: options: num-threads=1
// CHECK-NEXT:  result 0: tensor<4xi1> = [false, true, true, false]
// CHECK-NEXT:  result 0: tensor<4xi1> = [false, true, false, false]
// CHECK-NEXT{LITERAL}: result 0: tensor<4x2xi1> = [[true, true], [false, true], [false, false], [true, false]]
// CHECK-NEXT{LITERAL}: result 0: tensor<3x16xi1> = [[false, true, false, false, true, true, true, false, false, false, false, true, true, false, true, false], [true, true, true, true, false, false, false, false, true, false, true, false, false, true, true, false], [false, false, false, false, false, false, false, false, true, true, true, true, true, true, true, false]]
// CHECK-LABEL: options: vector-size=0
// CHECK-NEXT:  result 0: tensor<4xi1> = [false, true, true, false]
// CHECK-NEXT:  result 0: tensor<4xi1> = [false, true, false, false]
// CHECK-NEXT{LITERAL}: result 0: tensor<4x2xi1> = [[true, true], [false, true], [false, false], [true, false]]
// CHECK-NEXT{LITERAL}: result 0: tensor<3x16xi1> = [[false, true, false, false, true, true, true, false, false, false, false, true, true, false, true, false], [true, true, true, true, false, false, false, false, true, false, true, false, false, true, true, false], [false, false, false, false, false, false, false, false, true, true, true, true, true, true, true, false]]

// The first two elements of x, the last two of [true, false, true, false].
func.func @sel(%x: tensor<4xi1>) -> tensor<4xi1> {
  %c0 = arith.constant 0 : index
  %p = arith.constant false
  %cst = arith.constant dense<[true, false, true, false]> : tensor<4xi1>
  %m = arith.constant dense<[true, true, false, false]> : vector<4xi1>
  %v = vector.transfer_read %x[%c0], %p : tensor<4xi1>, vector<4xi1>
  %o = vector.transfer_read %cst[%c0], %p : tensor<4xi1>, vector<4xi1>
  %s = arith.select %m, %v, %o : vector<4xi1>, vector<4xi1>
  %e = tensor.empty() : tensor<4xi1>
  %r = vector.transfer_write %s, %e[%c0] : vector<4xi1>, tensor<4xi1>
  return %r : tensor<4xi1>
}

// The first n elements of x, then those of [false, false, false, false]:
// a masked write into a constant (also gather-blend-masked-writes).
func.func @masked(%x: tensor<4xi1>, %n: tensor<1xi64>) -> tensor<4xi1> {
  %c0 = arith.constant 0 : index
  %p = arith.constant false
  %cst = arith.constant dense<false> : tensor<4xi1>
  %n0 = tensor.extract %n[%c0] : tensor<1xi64>
  %ni = arith.index_cast %n0 : i64 to index
  %m = vector.create_mask %ni : vector<4xi1>
  %v = vector.transfer_read %x[%c0], %p : tensor<4xi1>, vector<4xi1>
  %r = vector.transfer_write %v, %cst[%c0], %m : vector<4xi1>, tensor<4xi1>
  return %r : tensor<4xi1>
}

// x transposed through a 2-D vector (convert-vector-to-scf's loops).
func.func @transposed(%x: tensor<2x4xi1>) -> tensor<4x2xi1> {
  %c0 = arith.constant 0 : index
  %p = arith.constant false
  %v = vector.transfer_read %x[%c0, %c0], %p : tensor<2x4xi1>, vector<2x4xi1>
  %t = vector.transpose %v, [1, 0] : vector<2x4xi1> to vector<4x2xi1>
  %e = tensor.empty() : tensor<4x2xi1>
  %r = vector.transfer_write %t, %e[%c0, %c0] : vector<4x2xi1>, tensor<4x2xi1>
  return %r : tensor<4x2xi1>
}

// Each row of x negated, 16 lanes at a time in a loop.
func.func @rows(%x: tensor<3x16xi1>) -> tensor<3x16xi1> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %p = arith.constant false
  %true = arith.constant dense<true> : vector<16xi1>
  %e = tensor.empty() : tensor<3x16xi1>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %e) -> tensor<3x16xi1> {
    %v = vector.transfer_read %x[%i, %c0], %p : tensor<3x16xi1>, vector<16xi1>
    %n = arith.xori %v, %true : vector<16xi1>
    %w = vector.transfer_write %n, %acc[%i, %c0] : vector<16xi1>, tensor<3x16xi1>
    scf.yield %w : tensor<3x16xi1>
  }
  return %r : tensor<3x16xi1>
}
