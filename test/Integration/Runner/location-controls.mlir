// REQUIRES: jit
// A location whose name or file name holds control characters (a NUL, a
// newline) is reported on one line, each control character written as \XX:
// the NUL no longer ends the C string of the report site and the newline
// does not split the report.
// RUN: not gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s
// RUN: not gather-runner %s -e main --entry-point-result=void 2>&1 | count 1
// CHECK: {{^}}f\0Ag.mlir:3:4: a\00b\0Ac\09d: error: 'onnx.GatherElements' op operand 'indices' holds value 4 at position [1], outside the valid range [-3, 2] for axis 0 of size 3{{$}}
//
// gather-runner prints its compile-time diagnostics the same way (gather-opt
// prints them as stock mlir-opt does).
// RUN: not gather-runner %S/Inputs/location-controls-constant.mlir -e constant --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: {{^}}x\0Ay.mlir:5:6: n\00m: error: 'onnx.GatherElements' op operand 'indices' holds value 7 at position [0], outside the valid range [-3, 2] for axis 0 of size 3{{$}}
// STATIC-NEXT: {{^}}x\0Ay.mlir:5:6: n\00m: note: see current operation
//
// A backslash is written \\, so a name that holds the four characters
// `\0A` is not read as one holding a newline.
// RUN: not gather-runner %s -e backslash --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=BACKSLASH
// BACKSLASH: {{^}}b\\0A\0A.mlir:7:8: n\\0A\0Am: error: 'onnx.GatherElements' op operand 'indices' holds value 4 at position [1], outside the valid range [-3, 2] for axis 0 of size 3{{$}}

func.func @dynamic(%i: tensor<2xi64>) -> tensor<?xi64> {
  %0 = tensor.cast %i : tensor<2xi64> to tensor<?xi64>
  return %0 : tensor<?xi64>
}

func.func @main() -> tensor<?xf32> {
  %d = arith.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %bad = arith.constant dense<[0, 4]> : tensor<2xi64>
  %i = call @dynamic(%bad) : (tensor<2xi64>) -> tensor<?xi64>
  %1 = onnx.GatherElements %d, %i : tensor<3xf32>, tensor<?xi64> loc("a\00b\0Ac\09d"("f\0Ag.mlir":3:4))
  return %1 : tensor<?xf32>
}

func.func @backslash() -> tensor<?xf32> {
  %d = arith.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %bad = arith.constant dense<[0, 4]> : tensor<2xi64>
  %i = call @dynamic(%bad) : (tensor<2xi64>) -> tensor<?xi64>
  %1 = onnx.GatherElements %d, %i : tensor<3xf32>, tensor<?xi64> loc("n\\0A\0Am"("b\\0A\0A.mlir":7:8))
  return %1 : tensor<?xf32>
}
