// REQUIRES: jit
// String constants of any bytes: NUL, invalid UTF-8 (\FF\FE), UTF-8,
// newline, empty strings, repeated strings and strings that are prefixes of
// others, in a rank-2 constant printed as it is, gathered at run time and
// gathered at compile time (folded). onnx.StringSlice, which reads the
// elements out of the constant's bytes, clamps its offset and length to the
// string: it never reaches outside it (begin past the end, huge unsigned
// begin or length).
// RUN: gather-runner %s -e main --entry-point-result=void | FileCheck %s
// RUN: gather-runner %s -e main --entry-point-result=void -O0 | FileCheck %s

// CHECK{LITERAL}: result 0: tensor<2x4x!onnx.string> = [["nul\00byte", "", "\FF\FEraw", "größe"], ["nul", "nul\00byte", "数据\n", "\00"]]
// CHECK-NEXT{LITERAL}: result 1: tensor<2x3x!onnx.string> = [["größe", "\FF\FEraw", "nul\00byte"], ["\00", "数据\n", "nul\00byte"]]
// CHECK-NEXT{LITERAL}: result 2: tensor<2x2x!onnx.string> = [["", "nul\00byte"], ["nul", "\00"]]
// CHECK-NEXT: result 3: tensor<7x!onnx.string> = ["h\00l", "llo", "", "", "", "\00llo", "lo"]
// CHECK-NOT: result

func.func @gather(%d: tensor<2x4x!onnx.string>, %i: tensor<2x3xi32>) -> tensor<2x3x!onnx.string> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<2x4x!onnx.string>, tensor<2x3xi32>
  return %0 : tensor<2x3x!onnx.string>
}

func.func @slices(%begins: tensor<7xi64>, %lengths: tensor<7xi64>) -> tensor<7x!onnx.string> {
  %s = onnx.ConstantString "h\00llo"
  %e = tensor.empty() : tensor<7x!onnx.string>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%begins, %lengths : tensor<7xi64>, tensor<7xi64>) outs(%e : tensor<7x!onnx.string>) {
  ^bb0(%begin: i64, %length: i64, %out: !onnx.string):
    %t = onnx.StringSlice %s[%begin, %length]
    linalg.yield %t : !onnx.string
  } -> tensor<7x!onnx.string>
  return %0 : tensor<7x!onnx.string>
}

func.func @main() -> (tensor<2x4x!onnx.string>, tensor<2x3x!onnx.string>, tensor<2x2x!onnx.string>, tensor<7x!onnx.string>) {
  %table = onnx.Constant dense<[["nul\00byte", "", "\FF\FEraw", "größe"], ["nul", "nul\00byte", "数据\0A", "\00"]]> : tensor<2x4x!onnx.string>
  %i = onnx.Constant dense<[[3, -2, 0], [-1, 2, 1]]> : tensor<2x3xi32>
  %r1 = call @gather(%table, %i) : (tensor<2x4x!onnx.string>, tensor<2x3xi32>) -> tensor<2x3x!onnx.string>
  %fi = onnx.Constant dense<[[1, 0], [0, 3]]> : tensor<2x2xi64>
  %r2 = onnx.GatherElements %table, %fi axis = 1 : tensor<2x4x!onnx.string>, tensor<2x2xi64>
  // Offsets and lengths in "h\00llo" (5 bytes); -1 is 2^64 - 1 unsigned.
  %begins = onnx.Constant dense<[0, 2, 5, 6, -1, 1, 3]> : tensor<7xi64>
  %lengths = onnx.Constant dense<[3, 100, 1, 1, 2, -1, 2]> : tensor<7xi64>
  %r3 = call @slices(%begins, %lengths) : (tensor<7xi64>, tensor<7xi64>) -> tensor<7x!onnx.string>
  return %table, %r1, %r2, %r3 : tensor<2x4x!onnx.string>, tensor<2x3x!onnx.string>, tensor<2x2x!onnx.string>, tensor<7x!onnx.string>
}
