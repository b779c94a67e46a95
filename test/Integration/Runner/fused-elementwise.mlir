// Gathers fused with their elementwise consumers by upstream
// linalg-fuse-elementwise-ops (after convert-onnx-to-linalg) compute the
// values computed by hand below, with vectors, threads and scalar loops, and
// report a bad index value with the gather's own message (its index check
// fused into the loops of the fused generic).
//
// RUN: gather-runner %s -e mul --entry-point-result=void --pass-pipeline="builtin.module(convert-onnx-to-linalg, func.func(linalg-fuse-elementwise-ops), onnx-to-llvm)" 2>&1 | FileCheck %s --check-prefix=MUL
// RUN: gather-runner %s -e mul --entry-point-result=void --pass-pipeline="builtin.module(convert-onnx-to-linalg, func.func(linalg-fuse-elementwise-ops), onnx-to-llvm{num-threads=2 parallel-threshold=0})" 2>&1 | FileCheck %s --check-prefix=MUL
// RUN: gather-runner %s -e mul --entry-point-result=void --pass-pipeline="builtin.module(convert-onnx-to-linalg, func.func(linalg-fuse-elementwise-ops), onnx-to-llvm{vector-size=0})" 2>&1 | FileCheck %s --check-prefix=MUL
// MUL: result 0: tensor<2x40xf32> = {{\[\[}}0, 7, 28, 63, 112, 0, 2, 18, 48, 92, 0, 37, 8, 33, 72, 0, 32, 78, 18, 52, 0, 27, 68, 3, 32, 0, 22, 58, 108, 12, 0, 17, 48, 93, 152, 0, 12, 38, 78, 132], [0, 110, 234, 372, 524, 0, 105, 224, 357, 504, 0, 100, 214, 342, 484, 0, 135, 204, 327, 464, 0, 130, 274, 312, 444, 0, 125, 264, 417, 424, 0, 120, 254, 402, 404, 0, 115, 244, 387, 544]]
// MUL-NOT: error
//
// RUN: gather-runner %s -e relu --entry-point-result=void --pass-pipeline="builtin.module(convert-onnx-to-linalg, func.func(linalg-fuse-elementwise-ops), onnx-to-llvm{num-threads=2 parallel-threshold=0})" 2>&1 | FileCheck %s --check-prefix=RELU
// RELU: result 0: tensor<2x40xf32> = {{\[\[}}0, 0, 0, 1, 8, 15, 0, 0, 0, 3, 10, 17, 0, 0, 0, 5, 12, 19, 0, 0, 0, 7, 14, 0, 0, 0, 2, 9, 16, 0, 0, 0, 4, 11, 18, 0, 0, 0, 6, 13], [83, 90, 97, 104, 111, 118, 85, 92, 99, 106, 113, 80, 87, 94, 101, 108, 115, 82, 89, 96, 103, 110, 117, 84, 91, 98, 105, 112, 119, 86, 93, 100, 107, 114, 81, 88, 95, 102, 109, 116]]
// RELU-NOT: error
//
// RUN: not gather-runner %s -e bad --entry-point-result=void --pass-pipeline="builtin.module(convert-onnx-to-linalg, func.func(linalg-fuse-elementwise-ops), onnx-to-llvm)" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gather-runner %s -e bad --entry-point-result=void --pass-pipeline="builtin.module(convert-onnx-to-linalg, func.func(linalg-fuse-elementwise-ops), onnx-to-llvm{num-threads=2 parallel-threshold=0})" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gather-runner %s -e bad --entry-point-result=void --pass-pipeline="builtin.module(convert-onnx-to-linalg, func.func(linalg-fuse-elementwise-ops), onnx-to-llvm{vector-size=0})" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: 'onnx.GatherElements' op operand 'indices' holds value 40 at position [1, 21], outside the valid range [-40, 39] for axis 1 of size 40
// BAD-NOT: holds value

func.func @g_mul(%d: tensor<2x40xf32>, %i: tensor<2x40xi64>, %w: tensor<2x40xf32>) -> tensor<2x40xf32> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<2x40xf32>, tensor<2x40xi64>
  %e = tensor.empty() : tensor<2x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<2x40xf32>, tensor<2x40xf32>) outs(%e : tensor<2x40xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<2x40xf32>
  return %r : tensor<2x40xf32>
}

func.func @g_relu(%d: tensor<2x40xf32>, %i: tensor<2x40xi64>) -> tensor<2x40xf32> {
  %c = arith.constant 20.0 : f32
  %z = arith.constant 0.0 : f32
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<2x40xf32>, tensor<2x40xi64>
  %e = tensor.empty() : tensor<2x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<2x40xf32>) outs(%e : tensor<2x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.subf %x, %c : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<2x40xf32>
  return %r : tensor<2x40xf32>
}

func.func @mul() -> tensor<2x40xf32> {
  %d = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0], [100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0]]> : tensor<2x40xf32>
  %i = arith.constant dense<[[-40, 7, 14, -19, 28, 35, -38, 9, 16, -17, 30, 37, -36, 11, 18, -15, 32, 39, -34, 13, 20, -13, 34, 1, -32, 15, 22, -11, 36, 3, -30, 17, 24, -9, 38, 5, -28, 19, 26, -7], [-37, 10, 17, -16, 31, 38, -35, 12, 19, -14, 33, 0, -33, 14, 21, -12, 35, 2, -31, 16, 23, -10, 37, 4, -29, 18, 25, -8, 39, 6, -27, 20, 27, -6, 1, 8, -25, 22, 29, -4]]> : tensor<2x40xi64>
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0]]> : tensor<2x40xf32>
  %r = func.call @g_mul(%d, %i, %w) : (tensor<2x40xf32>, tensor<2x40xi64>, tensor<2x40xf32>) -> tensor<2x40xf32>
  return %r : tensor<2x40xf32>
}

func.func @relu() -> tensor<2x40xf32> {
  %d = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0], [100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0]]> : tensor<2x40xf32>
  %i = arith.constant dense<[[-40, 7, 14, -19, 28, 35, -38, 9, 16, -17, 30, 37, -36, 11, 18, -15, 32, 39, -34, 13, 20, -13, 34, 1, -32, 15, 22, -11, 36, 3, -30, 17, 24, -9, 38, 5, -28, 19, 26, -7], [-37, 10, 17, -16, 31, 38, -35, 12, 19, -14, 33, 0, -33, 14, 21, -12, 35, 2, -31, 16, 23, -10, 37, 4, -29, 18, 25, -8, 39, 6, -27, 20, 27, -6, 1, 8, -25, 22, 29, -4]]> : tensor<2x40xi64>
  %r = func.call @g_relu(%d, %i) : (tensor<2x40xf32>, tensor<2x40xi64>) -> tensor<2x40xf32>
  return %r : tensor<2x40xf32>
}

func.func @bad() -> tensor<2x40xf32> {
  %d = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0], [100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0]]> : tensor<2x40xf32>
  %i = arith.constant dense<[[-40, 7, 14, -19, 28, 35, -38, 9, 16, -17, 30, 37, -36, 11, 18, -15, 32, 39, -34, 13, 20, -13, 34, 1, -32, 15, 22, -11, 36, 3, -30, 17, 24, -9, 38, 5, -28, 19, 26, -7], [-37, 10, 17, -16, 31, 38, -35, 12, 19, -14, 33, 0, -33, 14, 21, -12, 35, 2, -31, 16, 23, 40, 37, 4, -29, 18, 25, -8, 39, 6, -27, 20, 27, -6, 1, 8, -25, 22, 29, -4]]> : tensor<2x40xi64>
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0]]> : tensor<2x40xf32>
  %r = func.call @g_mul(%d, %i, %w) : (tensor<2x40xf32>, tensor<2x40xi64>, tensor<2x40xf32>) -> tensor<2x40xf32>
  return %r : tensor<2x40xf32>
}
