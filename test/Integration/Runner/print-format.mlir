// REQUIRES: jit
// The format in which gather-runner prints the tensors an entry function
// returns (include/gather/Runtime/GatherRuntime.h): one line per result,
// `result <n>: tensor<sizes x type> = values`, with run-time sizes.
// RUN: gather-runner %s -e main --entry-point-result=void | FileCheck %s --match-full-lines
// An entry point that returns nothing keeps the mlir-runner behaviour:
// RUN: gather-runner %s -e nothing --entry-point-result=void | FileCheck %s --check-prefix=NOTHING --match-full-lines

// Rank 0: a bare value.
// CHECK: result 0: tensor<f64> = 0.1
// Rank 3: brackets per dimension.
// CHECK-NEXT{LITERAL}: result 1: tensor<2x2x2xi32> = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
// Zero-size dimensions: empty brackets at the level that is empty.
// CHECK-NEXT{LITERAL}: result 2: tensor<2x0xf32> = [[], []]
// CHECK-NEXT{LITERAL}: result 3: tensor<0x3xi64> = []
// Dynamic sizes print as their run-time values.
// CHECK-NEXT{LITERAL}: result 4: tensor<3xui8> = [255, 0, 128]
// Bool as true/false; complex as (re, im); an empty string.
// CHECK-NEXT{LITERAL}: result 5: tensor<2xi1> = [false, true]
// CHECK-NEXT{LITERAL}: result 6: tensor<1xcomplex<f32>> = [(-0, inf)]
// CHECK-NEXT{LITERAL}: result 7: tensor<1x1x!onnx.string> = [[""]]
// Strings: well-formed UTF-8 as is; invalid UTF-8 bytes (a lone
// continuation byte, a truncated sequence, an overlong form, a surrogate)
// and control bytes escaped as \XX, so the text always reads back.
// CHECK-NEXT{LITERAL}: result 8: tensor<5x!onnx.string> = ["ü€😀", "\80x", "a\E2\82", "\C0\AF", "\ED\A0\80\7F\00"]
// CHECK-NOT: result

// NOTHING: nothing here
// NOTHING-NOT: result

func.func @main() -> (tensor<f64>, tensor<2x2x2xi32>, tensor<2x0xf32>, tensor<0x3xi64>, tensor<?xui8>, tensor<2xi1>, tensor<1xcomplex<f32>>, tensor<1x1x!onnx.string>, tensor<5x!onnx.string>) {
  %0 = arith.constant dense<0.1> : tensor<f64>
  %1 = arith.constant dense<[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]> : tensor<2x2x2xi32>
  %2 = tensor.empty() : tensor<2x0xf32>
  %3 = tensor.empty() : tensor<0x3xi64>
  %c = arith.constant dense<[255, 0, 128]> : tensor<3xui8>
  %4 = tensor.cast %c : tensor<3xui8> to tensor<?xui8>
  %5 = arith.constant dense<[false, true]> : tensor<2xi1>
  %6 = arith.constant dense<[(-0.0, 0x7F800000)]> : tensor<1xcomplex<f32>>
  %7 = onnx.Constant dense<""> : tensor<1x1x!onnx.string>
  %8 = onnx.Constant dense<["\C3\BC\E2\82\AC\F0\9F\98\80", "\80x", "a\E2\82", "\C0\AF", "\ED\A0\80\7F\00"]> : tensor<5x!onnx.string>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<f64>, tensor<2x2x2xi32>, tensor<2x0xf32>, tensor<0x3xi64>, tensor<?xui8>, tensor<2xi1>, tensor<1xcomplex<f32>>, tensor<1x1x!onnx.string>, tensor<5x!onnx.string>
}

func.func @nothing() {
  vector.print str "nothing here\n"
  return
}
