// RUN: gather-opt %s --gather-raise-buffer-gathers | FileCheck %s
//
// An op between a gather and its index check that uses the tensor of a
// buffer (here of the gather's result) moves below the check with that
// tensor, not above the gather: the raised IR verifies (it did not).
// CHECK-LABEL: func.func @f
// CHECK:         linalg.generic {{.*}} attrs = {gather.elements}
// CHECK:         linalg.generic {{.*}} attrs = {gather.index_check}
// CHECK:         bufferization.materialize_in_destination
// CHECK:         bufferization.materialize_in_destination
// CHECK:         %[[T:.*]] = bufferization.to_tensor %alloc : memref<4x8xf32> to tensor<4x8xf32>
// CHECK:         %[[V:.*]] = tensor.extract %[[T]]
// CHECK:         scf.if
// CHECK:         memref.store %[[V]], %alloc
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
module {
  func.func private @gatherReportIndexErrorsOmitted(!llvm.ptr, i64, i64, i64)
  llvm.mlir.global private constant @__gather_location_46D9B29FDF84A6C7() {addr_space = 0 : i32} : !llvm.struct<(ptr, array<16 x i8>)> {
    %0 = llvm.mlir.addressof @__gather_error_sink : !llvm.ptr
    %1 = llvm.mlir.constant("dom/in.mlir:2:8\00") : !llvm.array<16 x i8>
    %2 = llvm.mlir.undef : !llvm.struct<(ptr, array<16 x i8>)>
    %3 = llvm.insertvalue %0, %2[0] : !llvm.struct<(ptr, array<16 x i8>)> 
    %4 = llvm.insertvalue %1, %3[1] : !llvm.struct<(ptr, array<16 x i8>)> 
    llvm.return %4 : !llvm.struct<(ptr, array<16 x i8>)>
  }
  llvm.mlir.global weak @__gather_error_sink() {addr_space = 0 : i32} : !llvm.struct<(ptr, ptr)> {
    %0 = llvm.mlir.zero : !llvm.struct<(ptr, ptr)>
    llvm.return %0 : !llvm.struct<(ptr, ptr)>
  }
  func.func private @gatherReportIndexError(!llvm.ptr, i64, !llvm.ptr, i64, i64, i64)
  func.func @f(%arg0: memref<4x8xf32>, %arg1: memref<4x8xi64>) -> memref<4x8xf32> {
    %alloca = memref.alloca() : memref<i1>
    %c8 = arith.constant 8 : index
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : memref<4x8xi64>) outs(%alloc : memref<4x8xf32>) attrs =  {gather.elements} {
    ^bb0(%in: i64, %out: f32):
      %2 = arith.index_cast %in : i64 to index
      %c0 = arith.constant 0 : index
      %3 = arith.cmpi slt, %2, %c0 : index
      %4 = arith.addi %2, %c8 : index
      %5 = arith.select %3, %4, %2 : index
      %6 = arith.cmpi ult, %5, %c8 : index
      %7 = arith.select %6, %5, %c0 : index
      %8 = linalg.index 0 : index
      %9 = memref.load %arg0[%8, %7] : memref<4x8xf32>
      linalg.yield %9 : f32
    }
    %tt = bufferization.to_tensor %alloc : memref<4x8xf32> to tensor<4x8xf32>
    %cz = arith.constant 0 : index
    %vv = tensor.extract %tt[%cz, %cz] : tensor<4x8xf32>
    %false = arith.constant false
    linalg.fill ins(%false : i1) outs(%alloca : memref<i1>)
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction"]} ins(%arg1 : memref<4x8xi64>) outs(%alloca : memref<i1>) attrs =  {gather.index_check} {
    ^bb0(%in: i64, %out: i1):
      %2 = arith.index_cast %in : i64 to index
      %c0 = arith.constant 0 : index
      %3 = arith.cmpi slt, %2, %c0 : index
      %4 = arith.addi %2, %c8 : index
      %5 = arith.select %3, %4, %2 : index
      %6 = arith.cmpi ult, %5, %c8 : index
      %true = arith.constant true
      %7 = arith.xori %6, %true : i1
      %8 = arith.ori %out, %7 : i1
      linalg.yield %8 : i1
    }
    %0 = memref.load %alloca[] : memref<i1>
    %1 = llvm.mlir.addressof @__gather_location_46D9B29FDF84A6C7 : !llvm.ptr
    scf.if %0 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c10 = arith.constant 10 : index
      %c4 = arith.constant 4 : index
      %2 = arith.muli %c1, %c4 : index
      %c8_0 = arith.constant 8 : index
      %3 = arith.muli %2, %c8_0 : index
      %alloc_1 = memref.alloc() : memref<2xi64>
      %intptr = memref.extract_aligned_pointer_as_index %alloc_1 : memref<2xi64> -> index
      %4 = arith.index_cast %intptr : index to i64
      %5 = llvm.inttoptr %4 : i64 to !llvm.ptr
      %6 = scf.for %arg2 = %c0 to %3 step %c1 iter_args(%arg3 = %c0) -> (index) {
        %8 = arith.remui %arg2, %c8_0 : index
        %9 = arith.divui %arg2, %c8_0 : index
        %10 = arith.remui %9, %c4 : index
        %11 = arith.divui %9, %c4 : index
        %12 = memref.load %arg1[%10, %8] : memref<4x8xi64>
        %13 = arith.index_cast %12 : i64 to index
        %c0_2 = arith.constant 0 : index
        %14 = arith.cmpi slt, %13, %c0_2 : index
        %15 = arith.addi %13, %c8 : index
        %16 = arith.select %14, %15, %13 : index
        %17 = arith.cmpi ult, %16, %c8 : index
        %true = arith.constant true
        %18 = arith.xori %17, %true : i1
        %19 = arith.cmpi ult, %arg3, %c10 : index
        %20 = arith.andi %18, %19 : i1
        scf.if %20 {
          %23 = arith.index_cast %10 : index to i64
          %c0_3 = arith.constant 0 : index
          memref.store %23, %alloc_1[%c0_3] : memref<2xi64>
          %24 = arith.index_cast %8 : index to i64
          %c1_4 = arith.constant 1 : index
          memref.store %24, %alloc_1[%c1_4] : memref<2xi64>
          %c2_i64 = arith.constant 2 : i64
          %c1_i64 = arith.constant 1 : i64
          %25 = arith.index_cast %c8 : index to i64
          func.call @gatherReportIndexError(%1, %12, %5, %c2_i64, %c1_i64, %25) : (!llvm.ptr, i64, !llvm.ptr, i64, i64, i64) -> ()
        }
        %21 = arith.index_castui %18 : i1 to index
        %22 = arith.addi %arg3, %21 : index
        scf.yield %22 : index
      }
      %7 = arith.cmpi ugt, %6, %c10 : index
      scf.if %7 {
        %8 = arith.subi %6, %c10 : index
        %9 = arith.index_cast %8 : index to i64
        %c1_i64 = arith.constant 1 : i64
        %10 = arith.index_cast %c8 : index to i64
        func.call @gatherReportIndexErrorsOmitted(%1, %9, %c1_i64, %10) : (!llvm.ptr, i64, i64, i64) -> ()
      }
    }
    memref.store %vv, %alloc[%cz, %cz] : memref<4x8xf32>
    return %alloc : memref<4x8xf32>
  }
}

