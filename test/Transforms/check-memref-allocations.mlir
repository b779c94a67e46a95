// RUN: gather-opt %s --check-memref-allocations | FileCheck %s

// Every heap allocation: its byte size (element size x static sizes x
// dynamic sizes) multiplied with overflow checks and reported as -1 if it
// does not fit, then a null buffer of a non-zero size reported with its
// bytes. The description names the site and the type.
// CHECK-DAG: llvm.mlir.global private constant @[[$SITE:__gather_alloc_site_[0-9]+]]("{{.*}}check-memref-allocations.mlir:[[# @LINE + 24]]:8 (memref<?x4x?xf32>)\00")
// CHECK-DAG: llvm.mlir.global private constant @[[$BIG:__gather_alloc_site_[0-9]+]]("{{.*}}check-memref-allocations.mlir:[[# @LINE + 35]]:8 (memref<2x9223372036854775807xi16>)\00")
// CHECK-DAG: func.func private @gatherReportAllocationError(i64, !llvm.ptr)
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:      %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : i64
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK:         %[[N64:.*]] = arith.index_castui %[[N]] : index to i64
// CHECK:         %[[LO1:.*]], %[[HI1:.*]] = arith.mului_extended %[[C16]], %[[N64]] : i64
// CHECK:         %[[M64:.*]] = arith.index_castui %[[M]] : index to i64
// CHECK:         %[[LO2:.*]], %[[HI2:.*]] = arith.mului_extended %[[LO1]], %[[M64]] : i64
// CHECK:         %[[BYTES:.*]] = arith.select %[[TOO_BIG:.*]], %{{.*}}, %[[LO2]] : i64
// CHECK:         scf.if %[[TOO_BIG]] {
// CHECK:           %[[WHAT:.*]] = llvm.mlir.addressof @[[$SITE]] : !llvm.ptr
// CHECK:           func.call @gatherReportAllocationError(%[[BYTES]], %[[WHAT]])
// CHECK:         %[[ALLOC:.*]] = memref.alloc(%[[N]], %[[M]]) : memref<?x4x?xf32>
// CHECK:         %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[ALLOC]]
// CHECK:         %[[NULL:.*]] = arith.cmpi eq, %[[PTR]], %{{.*}} : index
// CHECK:         %[[NONEMPTY:.*]] = arith.cmpi ne, %[[BYTES]], %{{.*}} : i64
// CHECK:         %[[FAILED:.*]] = arith.andi %[[NULL]], %[[NONEMPTY]] : i1
// CHECK:         scf.if %[[FAILED]] {
// CHECK:           func.call @gatherReportAllocationError(%[[BYTES]], %{{.*}})
// CHECK:         return %[[ALLOC]]
func.func @dynamic(%n: index, %m: index) -> memref<?x4x?xf32> {
  %0 = memref.alloc(%n, %m) : memref<?x4x?xf32>
  return %0 : memref<?x4x?xf32>
}

// A static size beyond 2^63 - 1 bytes is reported unconditionally.
// CHECK-LABEL: func.func @too_big(
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK:         scf.if %[[TRUE]] {
// CHECK:           llvm.mlir.addressof @[[$BIG]]
// CHECK:           func.call @gatherReportAllocationError
// CHECK:         memref.alloc() : memref<2x9223372036854775807xi16>
func.func @too_big() -> memref<2x9223372036854775807xi16> {
  %0 = memref.alloc() : memref<2x9223372036854775807xi16>
  return %0 : memref<2x9223372036854775807xi16>
}

// Stack buffers are left alone.
// CHECK-LABEL: func.func @stack(
// CHECK-NOT:     gatherReportAllocationError
// CHECK:         return
func.func @stack() {
  %0 = memref.alloca() : memref<16xf32>
  return
}
