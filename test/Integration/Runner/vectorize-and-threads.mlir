// REQUIRES: jit
// Vectorized and threaded code computes exactly what the scalar,
// single-threaded loops compute (the oracle, `vector-size=0 num-threads=1`):
// one program (remainders of vector tiles, sizes below one vector, dynamic
// shapes, ranks 1 to 3, every axis, indices smaller or larger than data,
// negative and out-of-range-free indices, i32 and i64 indices, 7 element
// types, a gather large enough to be threaded by default, strided `data`,
// a kernel with dynamic sizes in destination-passing style)
// prints identical
// results under every configuration.
//
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=0 num-threads=1" > %t.oracle
// RUN: FileCheck %s < %t.oracle
// RUN: gather-runner %s -e main --entry-point-result=void > %t.default
// RUN: diff %t.oracle %t.default
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=16 num-threads=2 parallel-threshold=0" > %t.v16t2
// RUN: diff %t.oracle %t.v16t2
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=8 num-threads=1" > %t.v8t1
// RUN: diff %t.oracle %t.v8t1
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=4 num-threads=2 parallel-threshold=0" > %t.v4t2
// RUN: diff %t.oracle %t.v4t2
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=0 num-threads=2 parallel-threshold=0" > %t.v0t2
// RUN: diff %t.oracle %t.v0t2
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="runtime-checks=false vector-size=16 num-threads=2 parallel-threshold=0" > %t.nochecks
// RUN: diff %t.oracle %t.nochecks
// RUN: gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options="vector-size=16 num-threads=2 parallel-threshold=0" > %t.O0
// RUN: diff %t.oracle %t.O0
// Every code shape of the gathers (docs/CodeShape.md): hardware gathers,
// scalarized vectors, scalar loops, whatever the host would choose.
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="gather-form=hardware num-threads=1" > %t.hw
// RUN: diff %t.oracle %t.hw
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="gather-form=hardware vector-size=4 num-threads=2 parallel-threshold=0" > %t.hw4
// RUN: diff %t.oracle %t.hw4
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="gather-form=scalarized num-threads=1" > %t.sc
// RUN: diff %t.oracle %t.sc
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="gather-form=scalarized vector-size=8 num-threads=2 parallel-threshold=0" > %t.sc8
// RUN: diff %t.oracle %t.sc8
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="gather-form=scalar num-threads=2 parallel-threshold=0" > %t.scalar
// RUN: diff %t.oracle %t.scalar
// RUN: not gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=x" 2>&1 | FileCheck %s --check-prefix=INVALID
// INVALID: error: invalid onnx-to-llvm pipeline options: 'vector-size=x'

// The oracle's values themselves (spot checks; data[i][j] = 1000 i + j).
// CHECK{LITERAL}: result 0: tensor<5x37xf32> = [[13, 32, 14, 33,
// CHECK{LITERAL}: result 1: tensor<5x37xf32> = [[3000, 2001, 1002, 3,
// CHECK{LITERAL}: result 10: tensor<2x3xf32> = [[1, 0, 2], [1000, 1002, 1001]]
// CHECK:          result 16: tensor<300x300xf32>
// Row 1 of result 17 reads row 1 of the slice (1000 + j), not row 0.
// CHECK{LITERAL}: result 17: tensor<2x16xf32> = [[13, 6, 15, 8, 1, 10, 3, 12, 5, 14, 7, 0, 9, 2, 11, 4], [1012, 1005,
// CHECK:          result 18: tensor<3x16xf32>
// CHECK:          result 19: tensor<0x45xf32> = []
// Row 0 of result 20: data[0][(13 + 104729 j) mod 90 - 45, wrapped].
// CHECK{LITERAL}: result 20: tensor<300x45xf32> = [[13, 27, 41,
// CHECK-NOT:      result 21

#id = affine_map<(a, b) -> (a, b)>

// data[i][j] = 1000 i + j; indices[i][j] = (7919 i + 104729 j + 13) mod 2s - s,
// in [-s, s) (half of them negative).
func.func @data(%rows: index, %cols: index) -> tensor<?x?xf32> {
  %t = tensor.generate %rows, %cols {
  ^bb0(%i: index, %j: index):
    %c1000 = arith.constant 1000 : index
    %a = arith.muli %i, %c1000 : index
    %b = arith.addi %a, %j : index
    %i64 = arith.index_cast %b : index to i64
    %f = arith.sitofp %i64 : i64 to f32
    tensor.yield %f : f32
  } : tensor<?x?xf32>
  return %t : tensor<?x?xf32>
}

func.func @indices(%rows: index, %cols: index, %s: index) -> tensor<?x?xi64> {
  %t = tensor.generate %rows, %cols {
  ^bb0(%i: index, %j: index):
    %c7919 = arith.constant 7919 : index
    %c104729 = arith.constant 104729 : index
    %c13 = arith.constant 13 : index
    %c2 = arith.constant 2 : index
    %a = arith.muli %i, %c7919 : index
    %b = arith.muli %j, %c104729 : index
    %c = arith.addi %a, %b : index
    %d = arith.addi %c, %c13 : index
    %s2 = arith.muli %s, %c2 : index
    %m = arith.remui %d, %s2 : index
    %v = arith.subi %m, %s : index
    %i64 = arith.index_cast %v : index to i64
    tensor.yield %i64 : i64
  } : tensor<?x?xi64>
  return %t : tensor<?x?xi64>
}

func.func @gather_axis1(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  return %0 : tensor<?x?xf32>
}

func.func @gather_axis0(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.GatherElements %d, %i axis = 0 : tensor<?x?xf32>, tensor<?x?xi64>
  return %0 : tensor<?x?xf32>
}

// Destination-passing style: the result is computed in `out` (no buffer of
// its own, no copy), on every path (threaded or serial loops, shape checks).
func.func @gather_axis1_into(%data: memref<?x?xf32>, %indices: memref<?x?xi64>, %out: memref<?x?xf32>) {
  %d = bufferization.to_tensor %data restrict : memref<?x?xf32> to tensor<?x?xf32>
  %i = bufferization.to_tensor %indices restrict : memref<?x?xi64> to tensor<?x?xi64>
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}

func.func @to_f16(%x: tensor<6x35xf32>) -> tensor<6x35xf16> {
  %e = tensor.empty() : tensor<6x35xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x35xf32>) outs(%e : tensor<6x35xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<6x35xf16>
  return %r : tensor<6x35xf16>
}

func.func @to_i8(%x: tensor<6x35xf32>) -> tensor<6x35xi8> {
  %e = tensor.empty() : tensor<6x35xi8>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x35xf32>) outs(%e : tensor<6x35xi8>) {
  ^bb0(%v: f32, %o: i8):
    %i = arith.fptosi %v : f32 to i32
    %t = arith.trunci %i : i32 to i8
    linalg.yield %t : i8
  } -> tensor<6x35xi8>
  return %r : tensor<6x35xi8>
}

func.func @to_f64(%x: tensor<6x35xf32>) -> tensor<6x35xf64> {
  %e = tensor.empty() : tensor<6x35xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x35xf32>) outs(%e : tensor<6x35xf64>) {
  ^bb0(%v: f32, %o: f64):
    %t = arith.extf %v : f32 to f64
    linalg.yield %t : f64
  } -> tensor<6x35xf64>
  return %r : tensor<6x35xf64>
}

func.func @to_i1(%x: tensor<6x35xf32>) -> tensor<6x35xi1> {
  %e = tensor.empty() : tensor<6x35xi1>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x35xf32>) outs(%e : tensor<6x35xi1>) {
  ^bb0(%v: f32, %o: i1):
    %i = arith.fptosi %v : f32 to i32
    %t = arith.trunci %i : i32 to i1
    linalg.yield %t : i1
  } -> tensor<6x35xi1>
  return %r : tensor<6x35xi1>
}

func.func @main() -> (tensor<5x37xf32>, tensor<5x37xf32>, tensor<?x?xf32>, tensor<?x?xf32>,
                      tensor<?xf32>, tensor<3x4x21xf32>, tensor<3x4x21xf32>, tensor<3x4x21xf32>,
                      tensor<4x33xf32>, tensor<3x40xf32>, tensor<2x3xf32>, tensor<6x35xf32>,
                      tensor<6x35xf16>, tensor<6x35xi8>, tensor<6x35xf64>, tensor<6x35xi1>,
                      tensor<300x300xf32>, tensor<2x16xf32>, tensor<3x16xf32>,
                      tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c21 = arith.constant 21 : index
  %c33 = arith.constant 33 : index
  %c35 = arith.constant 35 : index
  %c37 = arith.constant 37 : index
  %c40 = arith.constant 40 : index
  %c45 = arith.constant 45 : index
  %c50 = arith.constant 50 : index
  %c84 = arith.constant 84 : index
  %c300 = arith.constant 300 : index

  // 0, 1: static [5, 37] (two vectors of 16 + a remainder of 5), axis 1, 0.
  %d0 = call @data(%c5, %c37) : (index, index) -> tensor<?x?xf32>
  %ds0 = tensor.cast %d0 : tensor<?x?xf32> to tensor<5x37xf32>
  %i0 = call @indices(%c5, %c37, %c37) : (index, index, index) -> tensor<?x?xi64>
  %is0 = tensor.cast %i0 : tensor<?x?xi64> to tensor<5x37xi64>
  %r0 = onnx.GatherElements %ds0, %is0 axis = 1 : tensor<5x37xf32>, tensor<5x37xi64>
  %i1 = call @indices(%c5, %c37, %c5) : (index, index, index) -> tensor<?x?xi64>
  %is1 = tensor.cast %i1 : tensor<?x?xi64> to tensor<5x37xi64>
  %r1 = onnx.GatherElements %ds0, %is1 axis = 0 : tensor<5x37xf32>, tensor<5x37xi64>

  // 2, 3: dynamic [7, 45], axis 1 and 0 (peeled remainder of 13).
  %d2 = call @data(%c7, %c45) : (index, index) -> tensor<?x?xf32>
  %i2 = call @indices(%c7, %c45, %c45) : (index, index, index) -> tensor<?x?xi64>
  %r2 = call @gather_axis1(%d2, %i2) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %i3 = call @indices(%c7, %c45, %c7) : (index, index, index) -> tensor<?x?xi64>
  %r3 = call @gather_axis0(%d2, %i3) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>

  // 4: rank 1, dynamic [50].
  %d4 = call @data(%c1, %c50) : (index, index) -> tensor<?x?xf32>
  %d4r = tensor.collapse_shape %d4 [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %i4 = call @indices(%c1, %c50, %c50) : (index, index, index) -> tensor<?x?xi64>
  %i4r = tensor.collapse_shape %i4 [[0, 1]] : tensor<?x?xi64> into tensor<?xi64>
  %r4 = onnx.GatherElements %d4r, %i4r : tensor<?xf32>, tensor<?xi64> -> tensor<?xf32>

  // 5, 6, 7: rank 3 [3, 4, 21], axes 0, 1, 2.
  %d5 = call @data(%c3, %c84) : (index, index) -> tensor<?x?xf32>
  %d5s = tensor.cast %d5 : tensor<?x?xf32> to tensor<3x84xf32>
  %d5r = tensor.expand_shape %d5s [[0], [1, 2]] output_shape [3, 4, 21] : tensor<3x84xf32> into tensor<3x4x21xf32>
  %i5 = call @indices(%c3, %c84, %c3) : (index, index, index) -> tensor<?x?xi64>
  %i5s = tensor.cast %i5 : tensor<?x?xi64> to tensor<3x84xi64>
  %i5r = tensor.expand_shape %i5s [[0], [1, 2]] output_shape [3, 4, 21] : tensor<3x84xi64> into tensor<3x4x21xi64>
  %r5 = onnx.GatherElements %d5r, %i5r axis = 0 : tensor<3x4x21xf32>, tensor<3x4x21xi64>
  %i6 = call @indices(%c3, %c84, %c4) : (index, index, index) -> tensor<?x?xi64>
  %i6s = tensor.cast %i6 : tensor<?x?xi64> to tensor<3x84xi64>
  %i6r = tensor.expand_shape %i6s [[0], [1, 2]] output_shape [3, 4, 21] : tensor<3x84xi64> into tensor<3x4x21xi64>
  %r6 = onnx.GatherElements %d5r, %i6r axis = 1 : tensor<3x4x21xf32>, tensor<3x4x21xi64>
  %i7 = call @indices(%c3, %c84, %c21) : (index, index, index) -> tensor<?x?xi64>
  %i7s = tensor.cast %i7 : tensor<?x?xi64> to tensor<3x84xi64>
  %i7r = tensor.expand_shape %i7s [[0], [1, 2]] output_shape [3, 4, 21] : tensor<3x84xi64> into tensor<3x4x21xi64>
  %r7 = onnx.GatherElements %d5r, %i7r axis = -1 : tensor<3x4x21xf32>, tensor<3x4x21xi64>

  // 8: indices [4, 33] smaller than data [6, 40] off the axis (axis 1);
  // 9: indices [3, 40] larger than data [3, 5] along the axis.
  %d8 = call @data(%c6, %c40) : (index, index) -> tensor<?x?xf32>
  %ds8 = tensor.cast %d8 : tensor<?x?xf32> to tensor<6x40xf32>
  %i8 = call @indices(%c4, %c33, %c40) : (index, index, index) -> tensor<?x?xi64>
  %is8 = tensor.cast %i8 : tensor<?x?xi64> to tensor<4x33xi64>
  %r8 = onnx.GatherElements %ds8, %is8 axis = 1 : tensor<6x40xf32>, tensor<4x33xi64>
  %d9 = call @data(%c3, %c5) : (index, index) -> tensor<?x?xf32>
  %ds9 = tensor.cast %d9 : tensor<?x?xf32> to tensor<3x5xf32>
  %i9 = call @indices(%c3, %c40, %c5) : (index, index, index) -> tensor<?x?xi64>
  %is9 = tensor.cast %i9 : tensor<?x?xi64> to tensor<3x40xi64>
  %r9 = onnx.GatherElements %ds9, %is9 axis = 1 : tensor<3x5xf32>, tensor<3x40xi64>

  // 10: [2, 3], below one vector.
  %d10 = call @data(%c2, %c3) : (index, index) -> tensor<?x?xf32>
  %ds10 = tensor.cast %d10 : tensor<?x?xf32> to tensor<2x3xf32>
  %i10 = call @indices(%c2, %c3, %c3) : (index, index, index) -> tensor<?x?xi64>
  %is10 = tensor.cast %i10 : tensor<?x?xi64> to tensor<2x3xi64>
  %r10 = onnx.GatherElements %ds10, %is10 axis = 1 : tensor<2x3xf32>, tensor<2x3xi64>

  // 11-15: [6, 35] with i32 indices, and f16, i8, f64, i1 data.
  %d11 = call @data(%c6, %c35) : (index, index) -> tensor<?x?xf32>
  %ds11 = tensor.cast %d11 : tensor<?x?xf32> to tensor<6x35xf32>
  %i11 = call @indices(%c6, %c35, %c35) : (index, index, index) -> tensor<?x?xi64>
  %is11 = tensor.cast %i11 : tensor<?x?xi64> to tensor<6x35xi64>
  %e11 = tensor.empty() : tensor<6x35xi32>
  %i32 = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%is11 : tensor<6x35xi64>) outs(%e11 : tensor<6x35xi32>) {
  ^bb0(%x: i64, %o: i32):
    %t = arith.trunci %x : i64 to i32
    linalg.yield %t : i32
  } -> tensor<6x35xi32>
  %r11 = onnx.GatherElements %ds11, %i32 axis = 1 : tensor<6x35xf32>, tensor<6x35xi32>
  %df16 = call @to_f16(%ds11) : (tensor<6x35xf32>) -> tensor<6x35xf16>
  %r12 = onnx.GatherElements %df16, %is11 axis = 1 : tensor<6x35xf16>, tensor<6x35xi64>
  %di8 = call @to_i8(%ds11) : (tensor<6x35xf32>) -> tensor<6x35xi8>
  %r13 = onnx.GatherElements %di8, %is11 axis = 1 : tensor<6x35xi8>, tensor<6x35xi64>
  %df64 = call @to_f64(%ds11) : (tensor<6x35xf32>) -> tensor<6x35xf64>
  %r14 = onnx.GatherElements %df64, %is11 axis = 1 : tensor<6x35xf64>, tensor<6x35xi64>
  %di1 = call @to_i1(%ds11) : (tensor<6x35xf32>) -> tensor<6x35xi1>
  %r15 = onnx.GatherElements %di1, %is11 axis = 1 : tensor<6x35xi1>, tensor<6x35xi64>

  // 16: [300, 300] (90,000 elements): threaded by the default pipeline.
  %d16 = call @data(%c300, %c300) : (index, index) -> tensor<?x?xf32>
  %ds16 = tensor.cast %d16 : tensor<?x?xf32> to tensor<300x300xf32>
  %i16 = call @indices(%c300, %c300, %c300) : (index, index, index) -> tensor<?x?xi64>
  %is16 = tensor.cast %i16 : tensor<?x?xi64> to tensor<300x300xi64>
  %r16 = onnx.GatherElements %ds16, %is16 axis = 1 : tensor<300x300xf32>, tensor<300x300xi64>

  // 17, 18: `data` is a strided slice (columns 0-15, then 8-23, of rows
  // 32 long): vector.gather would assume contiguous rows; it stays scalar.
  %d17 = call @data(%c3, %c32) : (index, index) -> tensor<?x?xf32>
  %ds17 = tensor.cast %d17 : tensor<?x?xf32> to tensor<3x32xf32>
  %slice17 = tensor.extract_slice %ds17[0, 0] [2, 16] [1, 1] : tensor<3x32xf32> to tensor<2x16xf32>
  %i17 = call @indices(%c2, %c16, %c16) : (index, index, index) -> tensor<?x?xi64>
  %is17 = tensor.cast %i17 : tensor<?x?xi64> to tensor<2x16xi64>
  %r17 = onnx.GatherElements %slice17, %is17 axis = 1 : tensor<2x16xf32>, tensor<2x16xi64>
  %slice18 = tensor.extract_slice %ds17[0, 8] [3, 16] [1, 1] : tensor<3x32xf32> to tensor<3x16xf32>
  %i18 = call @indices(%c3, %c16, %c3) : (index, index, index) -> tensor<?x?xi64>
  %is18 = tensor.cast %i18 : tensor<?x?xi64> to tensor<3x16xi64>
  %r18 = onnx.GatherElements %slice18, %is18 axis = 0 : tensor<3x16xf32>, tensor<3x16xi64>

  // 19: dynamic shapes whose run-time sizes are 0 rows (threaded and
  // vectorized code must not run a single iteration).
  %d19 = call @data(%c0, %c45) : (index, index) -> tensor<?x?xf32>
  %i19 = call @indices(%c0, %c45, %c45) : (index, index, index) -> tensor<?x?xi64>
  %r19 = call @gather_axis1(%d19, %i19) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>

  // 20: dynamic [300, 45] (13,500 elements: threaded by default; two
  // vectors of 16 + 13 per row) into a destination memref.
  %d20 = call @data(%c300, %c45) : (index, index) -> tensor<?x?xf32>
  %i20 = call @indices(%c300, %c45, %c45) : (index, index, index) -> tensor<?x?xi64>
  %dm20 = bufferization.to_buffer %d20 read_only : tensor<?x?xf32> to memref<?x?xf32>
  %im20 = bufferization.to_buffer %i20 read_only : tensor<?x?xi64> to memref<?x?xi64>
  %out20 = memref.alloc(%c300, %c45) : memref<?x?xf32>
  call @gather_axis1_into(%dm20, %im20, %out20) : (memref<?x?xf32>, memref<?x?xi64>, memref<?x?xf32>) -> ()
  %r20 = bufferization.to_tensor %out20 restrict : memref<?x?xf32> to tensor<?x?xf32>

  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20
      : tensor<5x37xf32>, tensor<5x37xf32>, tensor<?x?xf32>, tensor<?x?xf32>,
        tensor<?xf32>, tensor<3x4x21xf32>, tensor<3x4x21xf32>, tensor<3x4x21xf32>,
        tensor<4x33xf32>, tensor<3x40xf32>, tensor<2x3xf32>, tensor<6x35xf32>,
        tensor<6x35xf16>, tensor<6x35xi8>, tensor<6x35xf64>, tensor<6x35xi1>,
        tensor<300x300xf32>, tensor<2x16xf32>, tensor<3x16xf32>, tensor<?x?xf32>,
        tensor<?x?xf32>
}
