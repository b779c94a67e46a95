// REQUIRES: jit
// Run-time errors name the op that failed (file:line:col) in the words of
// the verifier; with --on-runtime-error=continue every bad position of the op
// is reported, up to 10, then their number.
//
// Two gathers in one function; the second gets bad indices.
// RUN: not gather-runner %s -e two_gathers --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=SECOND
// SECOND-NOT: error
// SECOND: {{.*}}error-locations.mlir:[[# @LINE + 30]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 4 at position [1], outside the valid range [-3, 2] for axis 0 of size 3
// SECOND-NOT: error
//
// RUN: not gather-runner %s -e two_gathers --entry-point-result=void --on-runtime-error=continue 2>&1 | FileCheck %s --check-prefix=CONTINUE
// CONTINUE:      {{.*}}error-locations.mlir:[[# @LINE + 26]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 4 at position [1],
// CONTINUE-NEXT: {{.*}}error-locations.mlir:[[# @LINE + 25]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value -4 at position [2],
// CONTINUE-COUNT-8: {{.*}}error-locations.mlir:{{[0-9]+}}:8: error: 'onnx.GatherElements' op operand 'indices' holds value 9 at position
// CONTINUE-NEXT: {{.*}}error-locations.mlir:[[# @LINE + 23]]:8: error: 'onnx.GatherElements' op operand 'indices' holds 3 more values outside the valid range [-3, 2] for axis 0 of size 3 (not listed)
// CONTINUE-NEXT: result 0: tensor<2xf32> = [30, 10]
// CONTINUE-NOT: error
//
// The compile-time error for constant indices uses the same words; in
// gather-runner it is reported as invalid input IR (not a parse failure).
// RUN: not gather-opt %S/Inputs/constant-bad-index.mlir 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: not gather-runner %S/Inputs/constant-bad-index.mlir -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefixes=STATIC,INVALID
// STATIC: constant-bad-index.mlir{{.*}}:4:8{{.*}}: error: 'onnx.GatherElements' op operand 'indices' holds value 4 at position [1], outside the valid range [-3, 2] for axis 0 of size 3
// INVALID: error: invalid input IR: the verifier rejects it
// INVALID-NOT: could not parse

func.func @dynamic(%i: tensor<14xi64>) -> tensor<?xi64> {
  %0 = tensor.cast %i : tensor<14xi64> to tensor<?xi64>
  return %0 : tensor<?xi64>
}

func.func @two_gathers() -> (tensor<2xf32>, tensor<?xf32>) {
  %d = arith.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %good = arith.constant dense<[2, 0]> : tensor<2xi64>
  %bad = arith.constant dense<[0, 4, -4, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9]> : tensor<14xi64>
  %i = call @dynamic(%bad) : (tensor<14xi64>) -> tensor<?xi64>
  %0 = onnx.GatherElements %d, %good : tensor<3xf32>, tensor<2xi64>
  %1 = onnx.GatherElements %d, %i : tensor<3xf32>, tensor<?xi64>
  return %0, %1 : tensor<2xf32>, tensor<?xf32>
}

