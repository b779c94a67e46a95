// REQUIRES: jit
// Unranked data (the rank learned through tensor.cast) with dynamic
// indices: its buffer may be a strided view cast to memref<*x...>, so the
// gathers read it with scalar loads whatever the options (a vector.gather
// on that buffer would linearize its offsets with a row-major shape, and
// the lowering to LLVM refuses its strided layout). Ranks 1-4; i32, i64,
// f32, f64; some data strided slices; rows that no vector size divides.
// The values are those of an independent oracle (Python); every option
// class prints exactly what the scalar, single-threaded loops print.
//
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=0 num-threads=1" > %t.oracle
// RUN: FileCheck %s < %t.oracle
// RUN: gather-runner %s -e main --entry-point-result=void > %t.default
// RUN: diff %t.oracle %t.default
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=3 prefetch-distance=1" > %t.v3
// RUN: diff %t.oracle %t.v3
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=4 parallel-threshold=1 num-threads=2" > %t.v4
// RUN: diff %t.oracle %t.v4
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=8 gather-form=hardware" > %t.v8
// RUN: diff %t.oracle %t.v8
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=32 gather-form=scalarized parallel-threshold=1 prefetch-distance=1" > %t.v32
// RUN: diff %t.oracle %t.v32
//
// The cases mirror the inputs a fuzzer found failing (a vector.gather left
// by the lowering).

// CHECK{LITERAL}: result 0: tensor<4xi32> = [-57, -57, -57, -57]
// CHECK-NEXT{LITERAL}: result 1: tensor<37xi64> = [22, 22, 22, 22, -44, -44, 32, 22, -44, -44, 22, 22, 22, 32, -44, -44, 32, -44, 22, -44, -44, 32, 22, -44, 32, -44, 32, 32, -44, 22, 32, -44, -44, -44, -44, 22, 22]
// CHECK-NEXT{LITERAL}: result 2: tensor<45xf32> = [-67.5, 44, -67.5, -10.5, 44, -80, -93, 5, -53, -17.5, -47.5, -80, 47.5, 47.5, -13.5, -67.5, -10.5, -98.5, 75, -13.5, 71, -54.5, -47.5, 47.5, -47.5, -98.5, -37, 44, -13.5, 3.5, -98.5, 5, 44, 71, -98.5, 3.5, -24.5, -98.5, 71, -10.5, 44, 71, 5, 44, -93]
// CHECK-NEXT{LITERAL}: result 3: tensor<5x7xf64> = [[82, 93, 38.5, -74.5, -43, 83, -34.5], [82, -66.5, 38.5, -74.5, -43, -92.5, -3], [-68.5, 93, 38.5, 2.5, 2, 83, -3], [82, 55, -96.5, 2.5, -43, -53, -3], [-33.5, -66.5, -96.5, 2.5, 2, -92.5, -34.5]]
// CHECK-NEXT{LITERAL}: result 4: tensor<3x21xi32> = [[8, -81, 8, 95, 8, -81, -81, 95, 95, -81, -81, -80, 95, 95, -80, 8, 95, -81, 95, -80, 95], [14, 30, 14, 14, 14, 66, 30, 66, 30, 66, -94, 14, 30, 66, 66, -94, 66, -94, 30, 66, 14], [0, -81, -81, -93, 0, 0, -93, 33, 0, 33, 0, 33, -81, -93, -93, 33, -81, -81, -81, -93, -81]]
// CHECK-NEXT{LITERAL}: result 5: tensor<2x6x5xi64> = [[[12, -55, 71, 71, -91], [72, 18, -51, 71, -91], [72, -55, 71, 71, 60], [12, -74, 71, 71, -28], [72, -55, 71, -1, 60], [12, 18, -51, -1, -28]], [[-10, 62, 80, 16, 2], [-80, 62, 81, -89, 2], [-80, 29, 81, -5, -38], [56, 13, 49, 16, 2], [56, 13, 80, 16, -38], [-10, 62, 80, -5, 2]]]
// CHECK-NEXT{LITERAL}: result 6: tensor<2x3x17xf32> = [[[74, -93.5, 74, -93.5, -57.5, 74, -93.5, -57.5, 74, 74, -93.5, 74, -93.5, 74, 74, 74, 74], [-19.5, -19.5, 79.5, 79.5, -54.5, -19.5, -54.5, -54.5, 79.5, -54.5, 79.5, 79.5, -54.5, -19.5, -54.5, 79.5, -54.5], [32.5, -52.5, -52.5, -52.5, -52.5, 94.5, 32.5, 94.5, -52.5, 94.5, 32.5, 32.5, 32.5, -52.5, 32.5, 94.5, -52.5]], [[23.5, -47, 11.5, -47, -47, 11.5, 11.5, 11.5, 23.5, -47, 23.5, 11.5, -47, 23.5, 23.5, -47, 11.5], [-22, -58.5, -58.5, -58.5, -91, -22, -91, -22, -91, -91, -58.5, -91, -22, -22, -91, -91, -22], [-92.5, -40.5, -40.5, -40.5, 48.5, -40.5, 48.5, -92.5, 48.5, -40.5, -40.5, -40.5, -92.5, 48.5, -92.5, 48.5, -40.5]]]
// CHECK-NEXT{LITERAL}: result 7: tensor<2x2x3x9xf64> = [[[[-57, -29.5, 78.5, 78.5, -57, 78.5, -23, 78.5, -57], [60, 60, -61, -52, -86.5, 60, 60, 60, -52], [-57, 61.5, -60, -57, 42, 61.5, -57, 42, 42]], [[38, -68, -47, -68, -78, -68, -47, 38, 38], [11, -43, -43, -43, 3.5, 3.5, -37, -43, 3.5], [48.5, -87.5, -87.5, -87.5, 48.5, 48.5, 48.5, -17.5, 48.5]]], [[[64, 98.5, 64, 98.5, -53, 64, -33.5, -53, -33.5], [85.5, 36, 36, 36, -24.5, 85.5, -4.5, 85.5, -24.5], [-86, 0.5, 68.5, 0.5, 68.5, -86, 68.5, -26, 0.5]], [[25.5, -64, -19.5, -64, -64, 0, -19.5, -64, 25.5], [-3.5, -29.5, -40, -29.5, -3.5, -40, 32, -29.5, -29.5], [61.5, 86, -43.5, -87.5, 86, -43.5, 86, -87.5, -43.5]]]]
// CHECK-NEXT{LITERAL}: result 8: tensor<5x2x2x5xi32> = [[[[-55, 41, -69, 58, -35], [85, -44, -92, 2, -1]], [[-63, 85, 63, -89, -37], [-23, 13, -41, -22, 11]]], [[[-55, 41, -69, 58, -35], [85, -44, -92, -20, -1]], [[-63, 91, 87, -99, 62], [-83, -17, -76, 47, 5]]], [[[-55, 41, -21, 58, -97], [-16, 97, 87, 2, -1]], [[-24, 91, 63, -99, -37], [-83, 13, -76, 47, 11]]], [[[-57, 41, -69, 6, -35], [85, 97, -92, 2, 34]], [[-63, 91, 63, -89, -37], [-23, -17, -41, 47, 11]]], [[[-55, 41, -69, 58, -35], [-16, 97, -92, -20, -1]], [[-24, 91, 87, -99, 62], [-83, 13, -76, -22, 5]]]]

func.func @rank1_i32(%d: tensor<*xi32>, %i: tensor<?xi32>) -> tensor<?xi32> {
  %0 = onnx.GatherElements %d, %i {axis = -1 : si64} : tensor<*xi32>, tensor<?xi32> -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

func.func @rank1_i64(%d: tensor<*xi64>, %i: tensor<?xi64>) -> tensor<?xi64> {
  %0 = onnx.GatherElements %d, %i {axis = -1 : si64} : tensor<*xi64>, tensor<?xi64> -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

func.func @rank1_f32_strided(%d: tensor<*xf32>, %i: tensor<?xi32>) -> tensor<?xf32> {
  %0 = onnx.GatherElements %d, %i {axis = 0 : si64} : tensor<*xf32>, tensor<?xi32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

func.func @rank2_f64(%d: tensor<*xf64>, %i: tensor<?x?xi64>) -> tensor<?x?xf64> {
  %0 = onnx.GatherElements %d, %i {axis = 0 : si64} : tensor<*xf64>, tensor<?x?xi64> -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}

func.func @rank2_i32_strided(%d: tensor<*xi32>, %i: tensor<?x?xi64>) -> tensor<?x?xi32> {
  %0 = onnx.GatherElements %d, %i {axis = 1 : si64} : tensor<*xi32>, tensor<?x?xi64> -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

func.func @rank3_i64(%d: tensor<*xi64>, %i: tensor<?x?x?xi32>) -> tensor<?x?x?xi64> {
  %0 = onnx.GatherElements %d, %i {axis = 1 : si64} : tensor<*xi64>, tensor<?x?x?xi32> -> tensor<?x?x?xi64>
  return %0 : tensor<?x?x?xi64>
}

func.func @rank3_f32_strided(%d: tensor<*xf32>, %i: tensor<?x?x?xi64>) -> tensor<?x?x?xf32> {
  %0 = onnx.GatherElements %d, %i {axis = -1 : si64} : tensor<*xf32>, tensor<?x?x?xi64> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

func.func @rank4_f64(%d: tensor<*xf64>, %i: tensor<?x?x?x?xi32>) -> tensor<?x?x?x?xf64> {
  %0 = onnx.GatherElements %d, %i {axis = 3 : si64} : tensor<*xf64>, tensor<?x?x?x?xi32> -> tensor<?x?x?x?xf64>
  return %0 : tensor<?x?x?x?xf64>
}

func.func @rank4_i32_strided(%d: tensor<*xi32>, %i: tensor<?x?x?x?xi64>) -> tensor<?x?x?x?xi32> {
  %0 = onnx.GatherElements %d, %i {axis = -4 : si64} : tensor<*xi32>, tensor<?x?x?x?xi64> -> tensor<?x?x?x?xi32>
  return %0 : tensor<?x?x?x?xi32>
}

func.func @main() -> (tensor<?xi32>, tensor<?xi64>, tensor<?xf32>, tensor<?x?xf64>, tensor<?x?xi32>, tensor<?x?x?xi64>, tensor<?x?x?xf32>, tensor<?x?x?x?xf64>, tensor<?x?x?x?xi32>) {
  %d0 = arith.constant dense<[-57]> : tensor<1xi32>
  %i0 = arith.constant dense<[0, 0, 0, 0]> : tensor<4xi32>
  %u0 = tensor.cast %d0 : tensor<1xi32> to tensor<*xi32>
  %c0 = tensor.cast %i0 : tensor<4xi32> to tensor<?xi32>
  %r0 = call @rank1_i32(%u0, %c0) : (tensor<*xi32>, tensor<?xi32>) -> tensor<?xi32>

  %d1 = arith.constant dense<[-44, 22, 32]> : tensor<3xi64>
  %i1 = arith.constant dense<[-2, 1, 1, -2, -3, -3, -1, 1, 0, -3, -2, -2, -2, 2, -3, 0, 2, 0, 1, 0, -3, -1, 1, 0, 2, -3, 2, -1, -3, -2, 2, -3, -3, -3, 0, -2, 1]> : tensor<37xi64>
  %u1 = tensor.cast %d1 : tensor<3xi64> to tensor<*xi64>
  %c1 = tensor.cast %i1 : tensor<37xi64> to tensor<?xi64>
  %r1 = call @rank1_i64(%u1, %c1) : (tensor<*xi64>, tensor<?xi64>) -> tensor<?xi64>

  %d2 = arith.constant dense<[87.5, 3.5, -61.0, 71.0, 21.0, -80.0, -46.0, -67.5, 44.5, -47.5, -61.5, -24.5, 16.5, -17.5, -0.5, -93.0, -58.5, -98.5, -82.0, 47.5, 43.0, -53.0, 61.5, -13.5, 96.5, -37.0, -56.0, -54.5, -4.0, 75.0, 74.0, 5.0, 90.0, -10.5, 30.5, 71.0, -37.0, 44.0, 13.5, 99.5]> : tensor<40xf32>
  %s2 = tensor.extract_slice %d2[1] [19] [2] : tensor<40xf32> to tensor<19xf32>
  %i2 = arith.constant dense<[-16, -1, -16, -3, -1, -17, 7, -4, -9, 6, -15, 2, -10, -10, 11, -16, -3, -11, 14, 11, -18, -6, 4, -10, 4, 8, 12, 18, 11, 0, -11, 15, 18, -2, -11, -19, 5, -11, -18, -3, 18, 1, -4, 18, 7]> : tensor<45xi32>
  %u2 = tensor.cast %s2 : tensor<19xf32> to tensor<*xf32>
  %c2 = tensor.cast %i2 : tensor<45xi32> to tensor<?xi32>
  %r2 = call @rank1_f32_strided(%u2, %c2) : (tensor<*xf32>, tensor<?xi32>) -> tensor<?xf32>

  %d3 = arith.constant dense<[[-33.5, 93.0, -65.0, -74.5, -75.0, -92.5, -63.0], [-68.5, -66.5, 38.5, 2.5, -43.0, -53.0, -3.0], [82.0, 55.0, -96.5, 19.0, 2.0, 83.0, -34.5]]> : tensor<3x7xf64>
  %i3 = arith.constant dense<[[2, -3, -2, 0, -2, -1, 2], [-1, 1, 1, 0, 1, -3, 1], [1, -3, 1, 1, 2, -1, 1], [-1, -1, 2, 1, 1, 1, -2], [-3, 1, -1, -2, -1, -3, -1]]> : tensor<5x7xi64>
  %u3 = tensor.cast %d3 : tensor<3x7xf64> to tensor<*xf64>
  %c3 = tensor.cast %i3 : tensor<5x7xi64> to tensor<?x?xi64>
  %r3 = call @rank2_f64(%u3, %c3) : (tensor<*xf64>, tensor<?x?xi64>) -> tensor<?x?xf64>

  %d4 = arith.constant dense<[[69, 8, -72, -80, 67, -81, 61, 95], [15, 30, 60, -94, 75, 66, 81, 14], [21, 33, 32, 0, 3, -81, -42, -93]]> : tensor<3x8xi32>
  %s4 = tensor.extract_slice %d4[0, 1] [3, 4] [1, 2] : tensor<3x8xi32> to tensor<3x4xi32>
  %i4 = arith.constant dense<[[-4, 2, -4, -1, 0, 2, 2, 3, -1, 2, 2, 1, 3, -1, -3, -4, 3, -2, 3, 1, -1], [3, 0, -1, 3, 3, 2, 0, 2, -4, -2, 1, -1, 0, 2, -2, -3, -2, -3, 0, 2, 3], [-3, -2, 2, -1, 1, 1, -1, 0, -3, -4, 1, 0, -2, -1, -1, 0, 2, -2, 2, 3, 2]]> : tensor<3x21xi64>
  %u4 = tensor.cast %s4 : tensor<3x4xi32> to tensor<*xi32>
  %c4 = tensor.cast %i4 : tensor<3x21xi64> to tensor<?x?xi64>
  %r4 = call @rank2_i32_strided(%u4, %c4) : (tensor<*xi32>, tensor<?x?xi64>) -> tensor<?x?xi32>

  %d5 = arith.constant dense<[[[12, 18, 58, 71, -28], [72, -55, 71, -1, 60], [-30, -74, -51, -44, -91]], [[-10, 62, 81, -5, -95], [-80, 29, 49, -89, 2], [56, 13, 80, 16, -38]]]> : tensor<2x3x5xi64>
  %i5 = arith.constant dense<[[[-3, 1, -2, -3, -1], [-2, 0, -1, -3, -1], [-2, -2, 1, 0, 1], [-3, -1, -2, 0, 0], [1, -2, -2, 1, 1], [0, -3, 2, 1, -3]], [[-3, 0, 2, 2, -2], [-2, -3, 0, 1, 1], [1, 1, 0, 0, 2], [2, -1, -2, -1, -2], [-1, -1, -1, 2, 2], [-3, -3, 2, -3, -2]]]> : tensor<2x6x5xi32>
  %u5 = tensor.cast %d5 : tensor<2x3x5xi64> to tensor<*xi64>
  %c5 = tensor.cast %i5 : tensor<2x6x5xi32> to tensor<?x?x?xi32>
  %r5 = call @rank3_i64(%u5, %c5) : (tensor<*xi64>, tensor<?x?x?xi32>) -> tensor<?x?x?xi64>

  %d6 = arith.constant dense<[[[32.0, 74.0, -6.5, -9.0, -58.0, 50.5], [-28.5, -59.0, -73.0, -7.5, 5.0, 77.0], [87.5, -78.5, -43.0, 29.0, 87.5, 56.0]], [[-93.5, 27.5, -57.5, -94.5, 74.0, -44.0], [-19.5, -45.5, 79.5, -96.5, -54.5, 56.0], [94.5, 66.0, -52.5, -47.0, 32.5, 99.5]], [[90.5, -78.0, 4.0, -8.5, 47.0, -92.5], [49.0, 71.0, 90.0, -44.5, 32.5, -68.0], [-37.5, 58.5, 98.5, 93.0, 67.0, -35.0]], [[11.5, -42.5, 23.5, -88.5, -47.0, -12.5], [-22.0, 88.0, -58.5, -62.5, -91.0, 71.5], [48.5, -48.5, -40.5, 73.0, -92.5, -65.5]]]> : tensor<4x3x6xf32>
  %s6 = tensor.extract_slice %d6[1, 0, 0] [2, 3, 3] [2, 1, 2] : tensor<4x3x6xf32> to tensor<2x3x3xf32>
  %i6 = arith.constant dense<[[[-1, 0, -1, 0, 1, 2, 0, 1, 2, 2, -3, -1, -3, -1, 2, -1, 2], [0, -3, -2, 1, -1, -3, 2, -1, -2, 2, -2, -2, -1, -3, 2, 1, -1], [2, -2, 1, -2, -2, 0, 2, 0, -2, -3, 2, -1, 2, 1, -1, -3, -2]], [[-2, -1, -3, -1, 2, 0, -3, -3, 1, 2, 1, -3, 2, -2, 1, 2, 0], [0, 1, 1, 1, -1, 0, 2, -3, 2, -1, -2, -1, 0, 0, 2, 2, 0], [2, 1, 1, -2, 0, -2, -3, 2, 0, -2, 1, 1, 2, -3, -1, 0, -2]]]> : tensor<2x3x17xi64>
  %u6 = tensor.cast %s6 : tensor<2x3x3xf32> to tensor<*xf32>
  %c6 = tensor.cast %i6 : tensor<2x3x17xi64> to tensor<?x?x?xi64>
  %r6 = call @rank3_f32_strided(%u6, %c6) : (tensor<*xf32>, tensor<?x?x?xi64>) -> tensor<?x?x?xf32>

  %d7 = arith.constant dense<[[[[-57.0, -29.5, 78.5, -23.0], [-86.5, -52.0, -61.0, 60.0], [-60.0, 42.0, -57.0, 61.5]], [[-68.0, -47.0, 38.0, -78.0], [-43.0, -37.0, 11.0, 3.5], [-17.5, 7.0, 48.5, -87.5]]], [[[98.5, -53.0, 64.0, -33.5], [85.5, 36.0, -24.5, -4.5], [68.5, 0.5, -86.0, -26.0]], [[25.5, -64.0, -19.5, 0.0], [-29.5, -40.0, -3.5, 32.0], [61.5, -43.5, 86.0, -87.5]]]]> : tensor<2x2x3x4xf64>
  %i7 = arith.constant dense<[[[[0, 1, 2, -2, -4, 2, -1, -2, -4], [-1, -1, -2, 1, -4, -1, 3, -1, 1], [2, -1, 0, -2, 1, 3, -2, 1, 1]], [[-2, 0, -3, -4, -1, 0, 1, 2, -2], [2, -4, 0, 0, -1, -1, -3, -4, -1], [2, -1, 3, -1, -2, 2, 2, 0, -2]]], [[[2, -4, -2, -4, -3, -2, 3, -3, 3], [-4, -3, 1, -3, -2, 0, 3, 0, 2], [2, -3, 0, 1, -4, 2, 0, 3, 1]], [[0, 1, -2, 1, 1, -1, -2, -3, 0], [-2, -4, 1, -4, -2, 1, -1, -4, -4], [-4, -2, 1, -1, -2, 1, -2, -1, -3]]]]> : tensor<2x2x3x9xi32>
  %u7 = tensor.cast %d7 : tensor<2x2x3x4xf64> to tensor<*xf64>
  %c7 = tensor.cast %i7 : tensor<2x2x3x9xi32> to tensor<?x?x?x?xi32>
  %r7 = call @rank4_f64(%u7, %c7) : (tensor<*xf64>, tensor<?x?x?x?xi32>) -> tensor<?x?x?x?xf64>

  %d8 = arith.constant dense<[[[[-55, 88, -21, 6, -35], [-16, -44, 87, 2, -1]], [[-24, 91, 87, -89, -37], [-23, -17, -41, -22, 11]]], [[[98, -51, -78, 59, 19], [18, 83, 78, -53, -52]], [[85, 58, 13, -87, -2], [25, -78, 83, 43, 25]]], [[[-57, 41, -69, 58, -97], [85, 97, -92, -20, 34]], [[-63, 85, 63, -99, 62], [-83, 13, -76, 47, 5]]]]> : tensor<3x2x2x5xi32>
  %s8 = tensor.extract_slice %d8[0, 0, 0, 0] [2, 2, 2, 5] [2, 1, 1, 1] : tensor<3x2x2x5xi32> to tensor<2x2x2x5xi32>
  %i8 = arith.constant dense<[[[[0, 1, 1, 1, 0], [-1, 0, -1, 0, -2]], [[-1, -1, 1, 0, 0], [0, 1, -2, 0, -2]]], [[[-2, -1, -1, 1, 0], [1, 0, -1, 1, 0]], [[-1, 0, 0, 1, 1], [-1, 0, -1, -1, -1]]], [[[-2, -1, 0, 1, 1], [0, -1, 0, -2, -2]], [[0, -2, -1, -1, -2], [-1, 1, 1, 1, 0]]], [[[-1, 1, -1, -2, 0], [1, 1, -1, 0, 1]], [[1, 0, -1, -2, 0], [0, 0, 0, 1, -2]]], [[[0, -1, -1, -1, -2], [0, -1, -1, -1, 0]], [[-2, -2, -2, 1, -1], [-1, 1, 1, 0, 1]]]]> : tensor<5x2x2x5xi64>
  %u8 = tensor.cast %s8 : tensor<2x2x2x5xi32> to tensor<*xi32>
  %c8 = tensor.cast %i8 : tensor<5x2x2x5xi64> to tensor<?x?x?x?xi64>
  %r8 = call @rank4_i32_strided(%u8, %c8) : (tensor<*xi32>, tensor<?x?x?x?xi64>) -> tensor<?x?x?x?xi32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8 : tensor<?xi32>, tensor<?xi64>, tensor<?xf32>, tensor<?x?xf64>, tensor<?x?xi32>, tensor<?x?x?xi64>, tensor<?x?x?xf32>, tensor<?x?x?x?xf64>, tensor<?x?x?x?xi32>
}
