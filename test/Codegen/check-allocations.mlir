// RUN: gather-opt %s --gather-check-allocations | FileCheck %s

// Every heap allocation: its byte size (element size x static sizes x
// dynamic sizes) multiplied with overflow checks and reported as -1 if it
// does not fit (0 bytes, not an overflow, when a size is 0), then a null
// buffer of a non-zero size reported with its
// bytes. Both are unconditional calls with a "failed" flag: no branch. The
// description names the type; equal descriptions share one global. The
// source location is the report site (GatherReportSite: the module's error
// sink and the text), one per location.
// CHECK:      llvm.mlir.global private constant @[[$F32X8:__gather_alloc_site[_0-9]*]]("memref<8xf32>\00")
// CHECK-NEXT: llvm.mlir.global private constant @[[$SHARED:__gather_location_[0-9A-F]+]]() {{.*}} : !llvm.struct<(ptr, array<16 x i8>)> {
// CHECK-NEXT:   llvm.mlir.addressof @__gather_error_sink : !llvm.ptr
// CHECK-NEXT:   llvm.mlir.constant("shared.mlir:1:1\00") : !llvm.array<16 x i8>
// CHECK:      llvm.mlir.global private constant @[[$BIG:__gather_alloc_site[_0-9]*]]("memref<2x9223372036854775807xi16>\00")
// CHECK:      llvm.mlir.global private constant @[[$TYPE:__gather_alloc_site[_0-9]*]]("memref<?x4x?xf32>\00")
// CHECK-NEXT: llvm.mlir.global private constant @[[$SITE:__gather_location_[0-9A-F]+]]()
// CHECK-NEXT:   llvm.mlir.addressof @__gather_error_sink : !llvm.ptr
// CHECK-NEXT:   llvm.mlir.constant("{{.*}}check-allocations.mlir:[[# @LINE + 33]]:8\00")
// CHECK:      llvm.mlir.global weak @__gather_error_sink() {{.*}} : !llvm.struct<(ptr, ptr)> {
// CHECK-NEXT:   llvm.mlir.zero : !llvm.struct<(ptr, ptr)>
// CHECK-DAG: func.func private @gatherReportAllocationErrorIf(i32, i64, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:      %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : i64
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG:     %[[WHERE:.*]] = llvm.mlir.addressof @[[$SITE]] : !llvm.ptr
// CHECK-DAG:     %[[WHAT:.*]] = llvm.mlir.addressof @[[$TYPE]] : !llvm.ptr
// CHECK:         %[[N64:.*]] = arith.index_castui %[[N]] : index to i64
// CHECK:         %[[N0:.*]] = arith.cmpi eq, %[[N64]], %[[ZERO]] : i64
// CHECK:         %[[LO1:.*]], %[[HI1:.*]] = arith.mului_extended %[[C16]], %[[N64]] : i64
// CHECK:         %[[M64:.*]] = arith.index_castui %[[M]] : index to i64
// CHECK:         %[[M0:.*]] = arith.cmpi eq, %[[M64]], %[[ZERO]] : i64
// CHECK:         %[[ANY0:.*]] = arith.ori %[[N0]], %[[M0]] : i1
// CHECK:         %[[LO2:.*]], %[[HI2:.*]] = arith.mului_extended %[[LO1]], %[[M64]] : i64
// CHECK:         %[[NONE0:.*]] = arith.xori %[[ANY0]], %{{.*}} : i1
// CHECK:         %[[TOO_BIG:.*]] = arith.andi %{{.*}}, %[[NONE0]] : i1
// CHECK:         %[[PRODUCT:.*]] = arith.select %[[ANY0]], %[[ZERO]], %[[LO2]] : i64
// CHECK:         %[[BYTES:.*]] = arith.select %[[TOO_BIG]], %{{.*}}, %[[PRODUCT]] : i64
// CHECK:         %[[TOO_BIG32:.*]] = arith.extui %[[TOO_BIG]] : i1 to i32
// CHECK:         call @gatherReportAllocationErrorIf(%[[TOO_BIG32]], %[[BYTES]], %[[WHERE]], %[[WHAT]])
// CHECK:         %[[ALLOC:.*]] = memref.alloc(%[[N]], %[[M]]) : memref<?x4x?xf32>
// CHECK:         %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[ALLOC]]
// CHECK:         %[[NULL:.*]] = arith.cmpi eq, %[[PTR]], %{{.*}} : index
// CHECK:         %[[NONEMPTY:.*]] = arith.cmpi ne, %[[BYTES]], %{{.*}} : i64
// CHECK:         %[[FAILED:.*]] = arith.andi %[[NULL]], %[[NONEMPTY]] : i1
// CHECK:         %[[FAILED32:.*]] = arith.extui %[[FAILED]] : i1 to i32
// CHECK:         call @gatherReportAllocationErrorIf(%[[FAILED32]], %[[BYTES]], %[[WHERE]], %[[WHAT]])
// CHECK-NOT:     scf.if
// CHECK:         return %[[ALLOC]]
func.func @dynamic(%n: index, %m: index) -> memref<?x4x?xf32> {
  %0 = memref.alloc(%n, %m) : memref<?x4x?xf32>
  return %0 : memref<?x4x?xf32>
}

// A static size beyond 2^63 - 1 bytes is reported unconditionally.
// CHECK-LABEL: func.func @too_big(
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[WHAT:.*]] = llvm.mlir.addressof @[[$BIG]]
// CHECK:         %[[TRUE32:.*]] = arith.extui %[[TRUE]] : i1 to i32
// CHECK:         call @gatherReportAllocationErrorIf(%[[TRUE32]], %{{.*}}, %{{.*}}, %[[WHAT]])
// CHECK:         memref.alloc() : memref<2x9223372036854775807xi16>
func.func @too_big() -> memref<2x9223372036854775807xi16> {
  %0 = memref.alloc() : memref<2x9223372036854775807xi16>
  return %0 : memref<2x9223372036854775807xi16>
}

// Allocations with the same location and type share their globals; one
// symbol table names the globals (distinct from the function named like
// them).
// CHECK-LABEL: func.func @shared(
// CHECK:         llvm.mlir.addressof @[[$SHARED]]
// CHECK:         llvm.mlir.addressof @[[$F32X8]]
// CHECK:         llvm.mlir.addressof @[[$SHARED]]
// CHECK:         llvm.mlir.addressof @[[$F32X8]]
// CHECK-NOT:     llvm.mlir.addressof
// CHECK:         return
func.func @shared() {
  %0 = memref.alloc() : memref<8xf32> loc("shared.mlir":1:1)
  %1 = memref.alloc() : memref<8xf32> loc("shared.mlir":1:1)
  return
}

func.func private @__gather_alloc_site()

// Stack buffers are left alone.
// CHECK-LABEL: func.func @stack(
// CHECK-NOT:     gatherReportAllocationErrorIf
// CHECK:         return
func.func @stack() {
  %0 = memref.alloca() : memref<16xf32>
  return
}

// A static size 0 makes 0 bytes, even beside a size whose product would
// overflow: no "too big" report, only the null check (of 0 bytes: never).
// CHECK-LABEL: func.func @static_empty(
// CHECK-NOT:     arith.constant true
// CHECK:         %[[BYTES:.*]] = arith.constant 0 : i64
// CHECK-NOT:     arith.constant true
// CHECK:         memref.alloc() : memref<9223372036854775807x0xi16>
// CHECK:         arith.cmpi ne, %[[BYTES]], %{{.*}} : i64
func.func @static_empty() -> memref<9223372036854775807x0xi16> {
  %0 = memref.alloc() : memref<9223372036854775807x0xi16>
  return %0 : memref<9223372036854775807x0xi16>
}
