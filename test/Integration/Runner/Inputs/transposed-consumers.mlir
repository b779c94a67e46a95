// The functions of transposed-consumers.test: gathers whose result a
// consumer reads transposed (linalg-fuse-elementwise-ops fuses the gather
// into it), multiplied by a second input or not.
#id2 = affine_map<(a, b) -> (a, b)>
#t2 = affine_map<(a, b) -> (b, a)>
#id3 = affine_map<(a, b, c) -> (a, b, c)>
#p3 = affine_map<(a, b, c) -> (b, c, a)>

// transpose(gather(d, i, axis 1)) * w, 2x3.
func.func @t2x3(%d: tensor<2x3xf32>, %i: tensor<2x3xi64>, %w: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<2x3xf32>, tensor<2x3xi64>
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [#t2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// transpose(gather(d, i, axis 0)) * w, 16x16.
func.func @t16(%d: tensor<16x16xf32>, %i: tensor<16x16xi64>, %w: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %g = onnx.GatherElements %d, %i axis = 0 : tensor<16x16xf32>, tensor<16x16xi64>
  %e = tensor.empty() : tensor<16x16xf32>
  %r = linalg.generic {indexing_maps = [#t2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// transpose(gather(d, i, axis 1)) * w, 512x1024.
func.func @t512(%d: tensor<512x1024xf32>, %i: tensor<512x1024xi64>, %w: tensor<1024x512xf32>) -> tensor<1024x512xf32> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<512x1024xf32>, tensor<512x1024xi64>
  %e = tensor.empty() : tensor<1024x512xf32>
  %r = linalg.generic {indexing_maps = [#t2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<512x1024xf32>, tensor<1024x512xf32>) outs(%e : tensor<1024x512xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<1024x512xf32>
  return %r : tensor<1024x512xf32>
}

// Two results, both transposed: transpose(gather) and transpose(gather) * w.
func.func @two(%d: tensor<32x64xf32>, %i: tensor<32x64xi64>, %w: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>) {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<32x64xf32>, tensor<32x64xi64>
  %e = tensor.empty() : tensor<64x32xf32>
  %r:2 = linalg.generic {indexing_maps = [#t2, #id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<32x64xf32>, tensor<64x32xf32>) outs(%e, %e : tensor<64x32xf32>, tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32, %o2: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %x, %m : f32, f32
  } -> (tensor<64x32xf32>, tensor<64x32xf32>)
  return %r#0, %r#1 : tensor<64x32xf32>, tensor<64x32xf32>
}

// transpose(gather(d, i, axis 1)), i32 indices, 512x1024.
func.func @t512i32(%d: tensor<512x1024xf32>, %i: tensor<512x1024xi32>) -> tensor<1024x512xf32> {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<512x1024xf32>, tensor<512x1024xi32>
  %e = tensor.empty() : tensor<1024x512xf32>
  %r = linalg.generic {indexing_maps = [#t2, #id2], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<512x1024xf32>) outs(%e : tensor<1024x512xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<1024x512xf32>
  return %r : tensor<1024x512xf32>
}

// r[c, a, b] = gather(d, i, axis 0)[a, b, c] * w[c, a, b].
func.func @rank3(%d: tensor<6x16x32xf32>, %i: tensor<4x16x32xi64>, %w: tensor<32x4x16xf32>) -> tensor<32x4x16xf32> {
  %g = onnx.GatherElements %d, %i axis = 0 : tensor<6x16x32xf32>, tensor<4x16x32xi64>
  %e = tensor.empty() : tensor<32x4x16xf32>
  %r = linalg.generic {indexing_maps = [#p3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g, %w : tensor<4x16x32xf32>, tensor<32x4x16xf32>) outs(%e : tensor<32x4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<32x4x16xf32>
  return %r : tensor<32x4x16xf32>
}

// The same at 8x64x256 (512 KiB gathered: tiles in blocks of 32 rows of
// indices gathered first).
func.func @rank3big(%d: tensor<10x64x256xf32>, %i: tensor<8x64x256xi64>, %w: tensor<256x8x64xf32>) -> tensor<256x8x64xf32> {
  %g = onnx.GatherElements %d, %i axis = 0 : tensor<10x64x256xf32>, tensor<8x64x256xi64>
  %e = tensor.empty() : tensor<256x8x64xf32>
  %r = linalg.generic {indexing_maps = [#p3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g, %w : tensor<8x64x256xf32>, tensor<256x8x64xf32>) outs(%e : tensor<256x8x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<256x8x64xf32>
  return %r : tensor<256x8x64xf32>
}

// transpose(gather(d, i, axis 0)) * w, 20x40: sizes that are no multiples
// of a tile.
func.func @ragged(%d: tensor<30x40xf32>, %i: tensor<20x40xi64>, %w: tensor<40x20xf32>) -> tensor<40x20xf32> {
  %g = onnx.GatherElements %d, %i axis = 0 : tensor<30x40xf32>, tensor<20x40xi64>
  %e = tensor.empty() : tensor<40x20xf32>
  %r = linalg.generic {indexing_maps = [#t2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<20x40xf32>, tensor<40x20xf32>) outs(%e : tensor<40x20xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<40x20xf32>
  return %r : tensor<40x20xf32>
}

// transpose(gather(d, i, axis 1)) + 1, a dynamic size (129 here; the other
// sizes static, so that no guard of the shapes separates the gather from
// its consumer).
func.func @dynamic(%d: tensor<37x200xf32>, %i: tensor<37x?xi64>) -> tensor<?x37xf32> {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<37x200xf32>, tensor<37x?xi64>
  %n1 = tensor.dim %i, %c1 : tensor<37x?xi64>
  %e = tensor.empty(%n1) : tensor<?x37xf32>
  %r = linalg.generic {indexing_maps = [#t2, #id2], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<37x?xf32>) outs(%e : tensor<?x37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %one : f32
    linalg.yield %s : f32
  } -> tensor<?x37xf32>
  return %r : tensor<?x37xf32>
}

// Results in two orders (a fusion that keeps the gather's own result beside
// its transposing consumer's, as linalg-fuse-elementwise-ops does with a
// control function that fuses producers of several uses): transpose(gather)
// * w, and the gather itself in its own order. gather-codegen makes one
// gather per order (docs/CodeShape.md, "Results in several orders").
func.func @mixed(%d: tensor<64x128xf32>, %i: tensor<64x128xi64>, %w: tensor<128x64xf32>) -> (tensor<128x64xf32>, tensor<64x128xf32>) {
  %g = onnx.GatherElements %d, %i axis = 1 : tensor<64x128xf32>, tensor<64x128xi64>
  %e = tensor.empty() : tensor<128x64xf32>
  %e2 = tensor.empty() : tensor<64x128xf32>
  %r:2 = linalg.generic {indexing_maps = [#t2, #id2, #id2, #t2], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<64x128xf32>, tensor<128x64xf32>) outs(%e, %e2 : tensor<128x64xf32>, tensor<64x128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32, %o2: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m, %x : f32, f32
  } -> (tensor<128x64xf32>, tensor<64x128xf32>)
  return %r#0, %r#1 : tensor<128x64xf32>, tensor<64x128xf32>
}

// The same at 20x40 (sizes that are no multiples of a tile).
func.func @mixed_ragged(%d: tensor<30x40xf32>, %i: tensor<20x40xi64>, %w: tensor<40x20xf32>) -> (tensor<40x20xf32>, tensor<20x40xf32>) {
  %g = onnx.GatherElements %d, %i axis = 0 : tensor<30x40xf32>, tensor<20x40xi64>
  %e = tensor.empty() : tensor<40x20xf32>
  %e2 = tensor.empty() : tensor<20x40xf32>
  %r:2 = linalg.generic {indexing_maps = [#t2, #id2, #id2, #t2], iterator_types = ["parallel", "parallel"]} ins(%g, %w : tensor<20x40xf32>, tensor<40x20xf32>) outs(%e, %e2 : tensor<40x20xf32>, tensor<20x40xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32, %o2: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m, %x : f32, f32
  } -> (tensor<40x20xf32>, tensor<20x40xf32>)
  return %r#0, %r#1 : tensor<40x20xf32>, tensor<20x40xf32>
}

// Rank 3, three results in three orders: r0[c, a, b] = g[a, b, c] * w[c, a,
// b]; r1 = g; r2[b, c, a] = r0[c, a, b].
#q3 = affine_map<(a, b, c) -> (c, a, b)>
func.func @mixed3(%d: tensor<6x16x32xf32>, %i: tensor<4x16x32xi64>, %w: tensor<32x4x16xf32>) -> (tensor<32x4x16xf32>, tensor<4x16x32xf32>, tensor<16x32x4xf32>) {
  %g = onnx.GatherElements %d, %i axis = 0 : tensor<6x16x32xf32>, tensor<4x16x32xi64>
  %e = tensor.empty() : tensor<32x4x16xf32>
  %e1 = tensor.empty() : tensor<4x16x32xf32>
  %e2 = tensor.empty() : tensor<16x32x4xf32>
  %r:3 = linalg.generic {indexing_maps = [#p3, #id3, #id3, #p3, #q3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g, %w : tensor<4x16x32xf32>, tensor<32x4x16xf32>) outs(%e, %e1, %e2 : tensor<32x4x16xf32>, tensor<4x16x32xf32>, tensor<16x32x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32, %o1: f32, %o2: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m, %x, %m : f32, f32, f32
  } -> (tensor<32x4x16xf32>, tensor<4x16x32xf32>, tensor<16x32x4xf32>)
  return %r#0, %r#1, %r#2 : tensor<32x4x16xf32>, tensor<4x16x32xf32>, tensor<16x32x4xf32>
}
