// gather-widen-i1-accesses: each vector read or write of an i1 memref goes
// through an i8 view of it (an unrealized_conversion_cast that the lowering
// to LLVM folds away), extending what it writes and comparing what it reads
// with 0; other element types stay. Values: test/Integration/Runner/
// i1-vectors.mlir.
// RUN: gather-opt %s --pass-pipeline='builtin.module(func.func(gather-widen-i1-accesses))' | FileCheck %s
// The whole pipeline: loads and stores of bytes, no cast left.
// RUN: gather-opt %s --onnx-to-llvm | FileCheck %s --check-prefix=LLVM --implicit-check-not=unrealized_conversion_cast

// CHECK-LABEL: func.func @transfers(
// CHECK-SAME:    %[[A:.*]]: memref<4xi1>, %[[B:.*]]: memref<4xi1, strided<[2]>>
// CHECK:         %[[A8:.*]] = builtin.unrealized_conversion_cast %[[A]] : memref<4xi1> to memref<4xi8>
// CHECK:         %[[P:.*]] = arith.extui %{{.*}} : i1 to i8
// CHECK:         %[[R:.*]] = vector.transfer_read %[[A8]][%{{.*}}], %[[P]], %{{.*}} : memref<4xi8>, vector<4xi8>
// CHECK:         %[[V:.*]] = arith.cmpi ne, %[[R]], %{{.*}} : vector<4xi8>
// CHECK:         %[[B8:.*]] = builtin.unrealized_conversion_cast %[[B]] : memref<4xi1, strided<[2]>> to memref<4xi8, strided<[2]>>
// CHECK:         %[[W:.*]] = arith.extui %[[V]] : vector<4xi1> to vector<4xi8>
// CHECK:         vector.transfer_write %[[W]], %[[B8]][%{{.*}}] {in_bounds = [true]} : vector<4xi8>, memref<4xi8, strided<[2]>>
// LLVM-LABEL:  llvm.func @transfers(
// LLVM:          llvm.intr.masked.load {{.*}} -> vector<4xi8>
// LLVM:          llvm.icmp "ne" {{.*}} : vector<4xi8>
// LLVM:          llvm.zext {{.*}} : vector<4xi1> to vector<4xi8>
func.func @transfers(%a: memref<4xi1>, %b: memref<4xi1, strided<[2]>>, %n: index) {
  %c0 = arith.constant 0 : index
  %p = arith.constant false
  %m = vector.create_mask %n : vector<4xi1>
  %v = vector.transfer_read %a[%c0], %p, %m : memref<4xi1>, vector<4xi1>
  vector.transfer_write %v, %b[%c0] {in_bounds = [true]} : vector<4xi1>, memref<4xi1, strided<[2]>>
  return
}

// CHECK-LABEL: func.func @loads_and_stores(
// CHECK:         %[[L:.*]] = vector.load %{{.*}}[%{{.*}}] : memref<8xi8>, vector<8xi8>
// CHECK:         arith.cmpi ne, %[[L]]
// CHECK:         %[[T:.*]] = arith.extui %{{.*}} : vector<8xi1> to vector<8xi8>
// CHECK:         vector.store %[[T]], %{{.*}}[%{{.*}}] : memref<8xi8>, vector<8xi8>
// CHECK:         %[[PT:.*]] = arith.extui %{{.*}} : vector<8xi1> to vector<8xi8>
// CHECK:         %[[ML:.*]] = vector.maskedload %{{.*}}[%{{.*}}], %{{.*}}, %[[PT]] : memref<8xi8>, vector<8xi1>, vector<8xi8> into vector<8xi8>
// CHECK:         arith.cmpi ne, %[[ML]]
// CHECK:         %[[MS:.*]] = arith.extui %{{.*}} : vector<8xi1> to vector<8xi8>
// CHECK:         vector.maskedstore %{{.*}}[%{{.*}}], %{{.*}}, %[[MS]] : memref<8xi8>, vector<8xi1>, vector<8xi8>
// LLVM-LABEL:  llvm.func @loads_and_stores(
// LLVM-NOT:      vector<8xi1>, !llvm.ptr
// LLVM-NOT:      -> vector<8xi1>
// LLVM:          llvm.return
func.func @loads_and_stores(%a: memref<8xi1>, %m: vector<8xi1>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<8xi1>, vector<8xi1>
  %n = arith.xori %v, %m : vector<8xi1>
  vector.store %n, %a[%c0] : memref<8xi1>, vector<8xi1>
  %l = vector.maskedload %a[%c0], %m, %n : memref<8xi1>, vector<8xi1>, vector<8xi1> into vector<8xi1>
  vector.maskedstore %a[%c0], %m, %l : memref<8xi1>, vector<8xi1>, vector<8xi1>
  return
}

// Other element types, and i1 vectors not read from memory, stay.
// CHECK-LABEL: func.func @others(
// CHECK-NOT:     unrealized_conversion_cast
// CHECK-NOT:     arith.extui
// CHECK:         return
func.func @others(%a: memref<4xf32>, %b: memref<4xi8>) -> vector<4xi1> {
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<4xf32>, vector<4xf32>
  vector.store %v, %a[%c0] : memref<4xf32>, vector<4xf32>
  %w = vector.load %b[%c0] : memref<4xi8>, vector<4xi8>
  %z = arith.constant dense<0> : vector<4xi8>
  %c = arith.cmpi eq, %w, %z : vector<4xi8>
  return %c : vector<4xi1>
}
