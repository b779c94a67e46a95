// REQUIRES: jit
// Gathers whose loops prefetch (docs/CodeShape.md#prefetches: along the
// innermost axis, rows of 64 bytes or more, 32 KiB or more) compute exactly
// what the scalar single-threaded loops without prefetches compute, in every
// code shape, with threads, and with a distance that points past the end of
// the buffers from the first row on (every prefetch address clamped).
//
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=0 num-threads=1 prefetch-distance=0" > %t.oracle
// RUN: FileCheck %s < %t.oracle
// RUN: gather-opt %s --onnx-to-llvm="num-threads=1" | FileCheck %s --check-prefix=IR
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="num-threads=1" > %t.default
// RUN: diff %t.oracle %t.default
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="num-threads=2 parallel-threshold=0" > %t.threads
// RUN: diff %t.oracle %t.threads
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="gather-form=hardware vector-size=8 num-threads=2 parallel-threshold=0" > %t.hw
// RUN: diff %t.oracle %t.hw
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="gather-form=scalarized num-threads=1 prefetch-distance=1048576" > %t.far
// RUN: diff %t.oracle %t.far
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="gather-form=scalar num-threads=2 parallel-threshold=0" > %t.scalar
// RUN: diff %t.oracle %t.scalar
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="gather-form=scalar num-threads=1 prefetch-distance=1048576" > %t.scalarfar
// RUN: diff %t.oracle %t.scalarfar
// Without run-time checks, the scalar serial loops are built for the
// prefetches alone.
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="runtime-checks=false vector-size=0 num-threads=1" > %t.nochecks
// RUN: diff %t.oracle %t.nochecks

// The code prefetches: a data line and two lines of i64 index values in
// @rows and @dynamic, a data line and a line of i32 index values in @rank3.
// IR-COUNT-8: "llvm.intr.prefetch"
// IR-NOT:     "llvm.intr.prefetch"

// Spot checks of the oracle (data[i][j] = 1000 i + j).
// CHECK{LITERAL}: result 0: tensor<64x300xf32> = [[13, 42, 71, 100,
// CHECK{LITERAL}: result 1: tensor<4x8x200xf32> = [[[13, 142, 71, 0,
// CHECK{LITERAL}: result 2: tensor<33x257xf32> = [[13, 295, 276,
// CHECK-NOT:      result 3

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

#id = affine_map<(a, b) -> (a, b)>

func.func @to_i32(%x: tensor<32x200xi64>) -> tensor<32x200xi32> {
  %e = tensor.empty() : tensor<32x200xi32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<32x200xi64>) outs(%e : tensor<32x200xi32>) {
  ^bb0(%v: i64, %o: i32):
    %t = arith.trunci %v : i64 to i32
    linalg.yield %t : i32
  } -> tensor<32x200xi32>
  return %r : tensor<32x200xi32>
}

// Rows of 1200 bytes, i64 indices.
func.func @rows(%d: tensor<64x300xf32>, %i: tensor<64x300xi64>) -> tensor<64x300xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<64x300xf32>, tensor<64x300xi64>
  return %0 : tensor<64x300xf32>
}

// Rank 3, rows of 800 bytes (12 vectors of 16 and 8 left), i32 indices.
func.func @rank3(%d: tensor<4x8x200xf32>, %i: tensor<4x8x200xi32>) -> tensor<4x8x200xf32> {
  %0 = onnx.GatherElements %d, %i axis = 2 : tensor<4x8x200xf32>, tensor<4x8x200xi32>
  return %0 : tensor<4x8x200xf32>
}

// Dynamic sizes; indices shorter than data along the axis.
func.func @dynamic(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  return %0 : tensor<?x?xf32>
}

func.func @main() -> (tensor<64x300xf32>, tensor<4x8x200xf32>, tensor<?x?xf32>) {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c33 = arith.constant 33 : index
  %c64 = arith.constant 64 : index
  %c200 = arith.constant 200 : index
  %c257 = arith.constant 257 : index
  %c300 = arith.constant 300 : index
  %c301 = arith.constant 301 : index
  %d0 = call @data(%c64, %c300) : (index, index) -> tensor<?x?xf32>
  %ds0 = tensor.cast %d0 : tensor<?x?xf32> to tensor<64x300xf32>
  %i0 = call @indices(%c64, %c300, %c300) : (index, index, index) -> tensor<?x?xi64>
  %is0 = tensor.cast %i0 : tensor<?x?xi64> to tensor<64x300xi64>
  %r0 = call @rows(%ds0, %is0) : (tensor<64x300xf32>, tensor<64x300xi64>) -> tensor<64x300xf32>
  %d1 = call @data(%c32, %c200) : (index, index) -> tensor<?x?xf32>
  %ds1 = tensor.cast %d1 : tensor<?x?xf32> to tensor<32x200xf32>
  %dr1 = tensor.expand_shape %ds1 [[0, 1], [2]] output_shape [4, 8, 200] : tensor<32x200xf32> into tensor<4x8x200xf32>
  %i1 = call @indices(%c32, %c200, %c200) : (index, index, index) -> tensor<?x?xi64>
  %is1 = tensor.cast %i1 : tensor<?x?xi64> to tensor<32x200xi64>
  %n1 = call @to_i32(%is1) : (tensor<32x200xi64>) -> tensor<32x200xi32>
  %ir1 = tensor.expand_shape %n1 [[0, 1], [2]] output_shape [4, 8, 200] : tensor<32x200xi32> into tensor<4x8x200xi32>
  %r1 = call @rank3(%dr1, %ir1) : (tensor<4x8x200xf32>, tensor<4x8x200xi32>) -> tensor<4x8x200xf32>
  %d2 = call @data(%c33, %c301) : (index, index) -> tensor<?x?xf32>
  %i2 = call @indices(%c33, %c257, %c301) : (index, index, index) -> tensor<?x?xi64>
  %r2 = call @dynamic(%d2, %i2) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r0, %r1, %r2 : tensor<64x300xf32>, tensor<4x8x200xf32>, tensor<?x?xf32>
}
