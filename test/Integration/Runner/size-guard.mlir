// REQUIRES: jit
// The size guard of 32-bit lane offsets (narrow-offsets=true) with dynamic
// shapes: the kernel checks the sizes once at entry and takes the 32-bit
// loops when data holds at most narrow-limit elements, else the 64-bit
// ones. Each path prints what the scalar loops (the oracle) print, and a bad
// index value is reported with the same message on both, i64 values past
// 2^32 included (checked before the truncation: 2^32 + 3 must not read
// element 3).
//
// @main calls one kernel twice: with data of 1 x 40 and of 3 x 40 elements;
// narrow-limit=100 takes the 32-bit path for the first, the 64-bit one for
// the second; the default limit takes the 32-bit one for both, and 10 the
// 64-bit one for both.
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="vector-size=0 num-threads=1" > %t.oracle
// RUN: FileCheck %s < %t.oracle
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="narrow-offsets=true num-threads=1" > %t.narrow
// RUN: diff %t.oracle %t.narrow
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="narrow-offsets=true narrow-limit=100 num-threads=1" > %t.both
// RUN: diff %t.oracle %t.both
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="narrow-offsets=true narrow-limit=10 num-threads=1" > %t.wide
// RUN: diff %t.oracle %t.wide
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="narrow-offsets=true narrow-limit=100 num-threads=2 parallel-threshold=0" > %t.threads
// RUN: diff %t.oracle %t.threads
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="narrow-offsets=true narrow-limit=100 num-threads=1 gather-form=hardware" > %t.hardware
// RUN: diff %t.oracle %t.hardware
// CHECK: result 0: tensor<1x40xf32> = {{\[\[}}31, 10, 10, 23, 10, 21,
// CHECK: result 1: tensor<3x40xf32> = {{\[\[}}1, 19, 10, 6, 9, 28,
//
// The bad index: 2^32 + 3 at [1, 21], reported on the 32-bit path (default
// limit), on the 64-bit path (narrow-limit=10), with 64-bit offsets only,
// and with static shapes and 32-bit offsets.
// RUN: not gather-runner %s -e bad --entry-point-result=void --pipeline-options="narrow-offsets=true num-threads=1" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gather-runner %s -e bad --entry-point-result=void --pipeline-options="narrow-offsets=true narrow-limit=10 num-threads=1" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gather-runner %s -e bad --entry-point-result=void --pipeline-options="narrow-offsets=true num-threads=2 parallel-threshold=0" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gather-runner %s -e bad --entry-point-result=void --pipeline-options="num-threads=1" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gather-runner %s -e bad_static --entry-point-result=void --pipeline-options="narrow-offsets=true num-threads=1" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gather-runner %s -e bad_static --entry-point-result=void --pipeline-options="vector-size=0 num-threads=1" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: 'onnx.GatherElements' op operand 'indices' holds value 4294967299 at position [1, 21], outside the valid range [-40, 39] for axis 1 of size 40
// BAD-NOT: holds value

func.func @g(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  return %0 : tensor<?x?xf32>
}

func.func @g_static(%d: tensor<2x40xf32>, %i: tensor<2x40xi64>) -> tensor<2x40xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<2x40xf32>, tensor<2x40xi64>
  return %0 : tensor<2x40xf32>
}

func.func @main() -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %d1 = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0]]> : tensor<1x40xf32>
  %i1 = arith.constant dense<[[-9, 10, 10, 23, -30, -19, 17, 11, 30, -5, -23, 15, 30, -5, 13, 5, 8, -11, -21, -30, -18, -21, -11, -11, -39, 22, 35, -17, -7, -4, -40, -22, 13, 28, 7, 38, 32, 0, -24, 25]]> : tensor<1x40xi64>
  %d3 = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0], [100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0], [200.0, 201.0, 202.0, 203.0, 204.0, 205.0, 206.0, 207.0, 208.0, 209.0, 210.0, 211.0, 212.0, 213.0, 214.0, 215.0, 216.0, 217.0, 218.0, 219.0, 220.0, 221.0, 222.0, 223.0, 224.0, 225.0, 226.0, 227.0, 228.0, 229.0, 230.0, 231.0, 232.0, 233.0, 234.0, 235.0, 236.0, 237.0, 238.0, 239.0]]> : tensor<3x40xf32>
  %i3 = arith.constant dense<[[1, -21, 10, -34, -31, 28, -28, 6, 34, -33, 24, -13, -36, -29, 15, 13, -32, -10, -29, 30, 14, -33, 32, -25, -12, 34, -33, 33, 34, 10, -34, -12, -35, 31, -23, -3, 13, -22, 29, -25], [33, -1, 31, -17, -27, 34, 33, -16, 7, -28, 30, -32, 32, -33, 39, -14, 23, 28, 14, 0, 19, 34, 18, 6, -2, -9, -17, -9, -30, 33, -2, 27, 23, 3, 17, -4, 37, -31, -25, 25], [13, -19, 3, -21, 22, 13, -35, -31, 31, 33, 0, 3, 4, 36, 23, 34, 18, -32, -29, -6, 20, -32, -33, -1, 33, 17, -4, 9, 4, -38, 19, 5, -19, 38, -26, 23, -33, -13, -4, -24]]> : tensor<3x40xi64>
  %dd1 = tensor.cast %d1 : tensor<1x40xf32> to tensor<?x?xf32>
  %id1 = tensor.cast %i1 : tensor<1x40xi64> to tensor<?x?xi64>
  %dd3 = tensor.cast %d3 : tensor<3x40xf32> to tensor<?x?xf32>
  %id3 = tensor.cast %i3 : tensor<3x40xi64> to tensor<?x?xi64>
  %r1 = func.call @g(%dd1, %id1) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %r3 = func.call @g(%dd3, %id3) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r1, %r3 : tensor<?x?xf32>, tensor<?x?xf32>
}

func.func @bad() -> tensor<?x?xf32> {
  %d = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0], [100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0]]> : tensor<2x40xf32>
  %i = arith.constant dense<[[1, -21, 10, -34, -31, 28, -28, 6, 34, -33, 24, -13, -36, -29, 15, 13, -32, -10, -29, 30, 14, -33, 32, -25, -12, 34, -33, 33, 34, 10, -34, -12, -35, 31, -23, -3, 13, -22, 29, -25], [33, -1, 31, -17, -27, 34, 33, -16, 7, -28, 30, -32, 32, -33, 39, -14, 23, 28, 14, 0, 19, 4294967299, 18, 6, -2, -9, -17, -9, -30, 33, -2, 27, 23, 3, 17, -4, 37, -31, -25, 25]]> : tensor<2x40xi64>
  %dd = tensor.cast %d : tensor<2x40xf32> to tensor<?x?xf32>
  %id = tensor.cast %i : tensor<2x40xi64> to tensor<?x?xi64>
  %r = func.call @g(%dd, %id) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @bad_static() -> tensor<2x40xf32> {
  %d = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0], [100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0]]> : tensor<2x40xf32>
  %i = arith.constant dense<[[1, -21, 10, -34, -31, 28, -28, 6, 34, -33, 24, -13, -36, -29, 15, 13, -32, -10, -29, 30, 14, -33, 32, -25, -12, 34, -33, 33, 34, 10, -34, -12, -35, 31, -23, -3, 13, -22, 29, -25], [33, -1, 31, -17, -27, 34, 33, -16, 7, -28, 30, -32, 32, -33, 39, -14, 23, 28, 14, 0, 19, 4294967299, 18, 6, -2, -9, -17, -9, -30, 33, -2, 27, 23, 3, 17, -4, 37, -31, -25, 25]]> : tensor<2x40xi64>
  %r = func.call @g_static(%d, %i) : (tensor<2x40xf32>, tensor<2x40xi64>) -> tensor<2x40xf32>
  return %r : tensor<2x40xf32>
}
