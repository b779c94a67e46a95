// REQUIRES: jit
// --on-runtime-error=continue: every report is printed, the program goes on
// (memory-safe, unspecified results) and gather-runner exits with status 1.
//
// A declared result more static than `indices` (tensor<1xf32> for 1000
// indices): reported, and the gather is skipped instead of writing past the
// 1-element result.
// RUN: not gather-runner %s -e result_more_static --entry-point-result=void --on-runtime-error=continue 2>&1 | FileCheck %s --check-prefix=MORE-STATIC
// MORE-STATIC: {{.*}}runtime-errors-continue.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' has size 1000 in dimension 0, but the declared result type has size 1 there
// MORE-STATIC-NEXT: done
//
// The other direction: tensor<1000xf32> declared, 1 index given.
// RUN: not gather-runner %s -e result_more_static_2 --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=MORE-STATIC-2
// MORE-STATIC-2: {{.*}}runtime-errors-continue.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' has size 1 in dimension 0, but the declared result type has size 1000 there
//
// A static empty axis with dynamic, non-empty indices: every index is
// reported (the first 10 one by one, then their number), and nothing is read
// from the empty `data`.
// RUN: not gather-runner %s -e static_empty_axis --entry-point-result=void --on-runtime-error=continue 2>&1 | FileCheck %s --check-prefix=EMPTY-AXIS
// EMPTY-AXIS: {{.*}}runtime-errors-continue.mlir:[[# @LINE + 72]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 0 at position [0, 0], outside the valid range [0, -1] for axis 0 of size 0
// EMPTY-AXIS-NEXT: {{.*}}runtime-errors-continue.mlir:[[# @LINE + 71]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 0 at position [0, 1], outside the valid range [0, -1] for axis 0 of size 0
// EMPTY-AXIS-NEXT: {{.*}}runtime-errors-continue.mlir:[[# @LINE + 70]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 0 at position [0, 2], outside the valid range [0, -1] for axis 0 of size 0
// EMPTY-AXIS-NEXT: {{.*}}runtime-errors-continue.mlir:[[# @LINE + 69]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 0 at position [0, 3], outside the valid range [0, -1] for axis 0 of size 0
// EMPTY-AXIS-NEXT: {{.*}}runtime-errors-continue.mlir:[[# @LINE + 68]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 0 at position [0, 4], outside the valid range [0, -1] for axis 0 of size 0
// EMPTY-AXIS-NEXT: {{.*}}runtime-errors-continue.mlir:[[# @LINE + 67]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 0 at position [0, 5], outside the valid range [0, -1] for axis 0 of size 0
// EMPTY-AXIS-NEXT: {{.*}}runtime-errors-continue.mlir:[[# @LINE + 66]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 0 at position [0, 6], outside the valid range [0, -1] for axis 0 of size 0
// EMPTY-AXIS-NEXT: {{.*}}runtime-errors-continue.mlir:[[# @LINE + 65]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 0 at position [0, 7], outside the valid range [0, -1] for axis 0 of size 0
// EMPTY-AXIS-NEXT: {{.*}}runtime-errors-continue.mlir:[[# @LINE + 64]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 0 at position [0, 8], outside the valid range [0, -1] for axis 0 of size 0
// EMPTY-AXIS-NEXT: {{.*}}runtime-errors-continue.mlir:[[# @LINE + 63]]:8: error: 'onnx.GatherElements' op operand 'indices' holds value 0 at position [0, 9], outside the valid range [0, -1] for axis 0 of size 0
// EMPTY-AXIS-NEXT: {{.*}}runtime-errors-continue.mlir:{{[0-9]+}}:8: error: 'onnx.GatherElements' op operand 'indices' holds 990 more values outside the valid range [0, -1] for axis 0 of size 0 (not listed)
// EMPTY-AXIS-NEXT: done
//
// A report in every iteration of a long loop does not grow the stack.
// RUN: not gather-runner %s -e report_in_loop --entry-point-result=void --on-runtime-error=continue 2>&1 | FileCheck %s --check-prefix=LOOP
// LOOP-COUNT-100000: {{.*}}runtime-errors-continue.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value 5 at position [0], outside the valid range [-2, 1] for axis 0 of size 2
// LOOP-NEXT: 100000
// LOOP-NEXT: done
//
// A skipped gather yields zeros (empty strings), not uninitialized memory.
// RUN: not gather-runner %s -e skipped_is_zero --entry-point-result=void --on-runtime-error=continue 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: {{.*}}runtime-errors-continue.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' has size 3 in dimension 0, larger than size 2 of operand 'data' there; only along the axis (dimension 1) may 'indices' be larger than 'data'
// ZERO: {{.*}}runtime-errors-continue.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' has size 3 in dimension 0, larger than size 2 of operand 'data' there; only along the axis (dimension 1) may 'indices' be larger than 'data'
// ZERO: result 0: tensor<3x2xf32> = {{\[\[}}0, 0], [0, 0], [0, 0]]
// ZERO-NEXT: result 1: tensor<3x2x!onnx.string> = {{\[\[}}"", ""], ["", ""], ["", ""]]
//
// Constant indices that are not a dense elements attribute (dense_resource)
// are checked at run time.
// RUN: not gather-runner %s -e resource_indices --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=RESOURCE
// RESOURCE: {{.*}}runtime-errors-continue.mlir:{{[0-9]+:[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value 99 at position [0], outside the valid range [-4, 3] for axis 0 of size 4

func.func @gather_1(%d: tensor<4xf32>, %i: tensor<?xi64>) -> tensor<1xf32> {
  %0 = onnx.GatherElements %d, %i : tensor<4xf32>, tensor<?xi64> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

func.func @gather_1000(%d: tensor<4xf32>, %i: tensor<?xi64>) -> tensor<1000xf32> {
  %0 = onnx.GatherElements %d, %i : tensor<4xf32>, tensor<?xi64> -> tensor<1000xf32>
  return %0 : tensor<1000xf32>
}

func.func @fill_indices(%n: index, %v: i64) -> tensor<?xi64> {
  %e = tensor.empty(%n) : tensor<?xi64>
  %i = linalg.fill ins(%v : i64) outs(%e : tensor<?xi64>) -> tensor<?xi64>
  return %i : tensor<?xi64>
}

func.func @done() {
  vector.print str "done\n"
  return
}

func.func @result_more_static() {
  %n = arith.constant 1000 : index
  %v = arith.constant 3 : i64
  %d = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %i = call @fill_indices(%n, %v) : (index, i64) -> tensor<?xi64>
  %r = call @gather_1(%d, %i) : (tensor<4xf32>, tensor<?xi64>) -> tensor<1xf32>
  call @done() : () -> ()
  return
}

func.func @result_more_static_2() {
  %n = arith.constant 1 : index
  %v = arith.constant 3 : i64
  %d = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %i = call @fill_indices(%n, %v) : (index, i64) -> tensor<?xi64>
  %r = call @gather_1000(%d, %i) : (tensor<4xf32>, tensor<?xi64>) -> tensor<1000xf32>
  return
}

func.func @gather_empty_axis(%d: tensor<0x1000xf32>, %i: tensor<?x1000xi64>) -> tensor<?x1000xf32> {
  %0 = onnx.GatherElements %d, %i : tensor<0x1000xf32>, tensor<?x1000xi64>
  return %0 : tensor<?x1000xf32>
}

func.func @static_empty_axis() {
  %d = tensor.empty() : tensor<0x1000xf32>
  %c = arith.constant dense<0> : tensor<1x1000xi64>
  %i = tensor.cast %c : tensor<1x1000xi64> to tensor<?x1000xi64>
  %r = call @gather_empty_axis(%d, %i) : (tensor<0x1000xf32>, tensor<?x1000xi64>) -> tensor<?x1000xf32>
  call @done() : () -> ()
  return
}

func.func @gather_2(%d: tensor<2xf32>, %i: tensor<?xi64>) -> tensor<?xf32> {
  %0 = onnx.GatherElements %d, %i : tensor<2xf32>, tensor<?xi64>
  return %0 : tensor<?xf32>
}

func.func @report_in_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 100000 : index
  %v = arith.constant 5 : i64
  %d = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %i = call @fill_indices(%c1, %v) : (index, i64) -> tensor<?xi64>
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %r = onnx.GatherElements %d, %i : tensor<2xf32>, tensor<?xi64>
    %x = tensor.extract %r[%c0] : tensor<?xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  vector.print %sum : f32
  call @done() : () -> ()
  return
}

func.func @resource_indices() {
  %d = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>
  %i = arith.constant dense_resource<idx> : tensor<2xi64>
  %0 = onnx.GatherElements %d, %i : tensor<4xf32>, tensor<2xi64>
  %c0 = arith.constant 0 : index
  %a = tensor.extract %0[%c0] : tensor<2xf32>
  vector.print %a : f32
  return
}

{-#
  dialect_resources: {
    builtin: {
      idx: "0x080000006300000000000000FFFFFFFFFFFFFF7F"
    }
  }
#-}

func.func @gather_dyn_f32(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  return %0 : tensor<?x?xf32>
}

func.func @gather_dyn_string(%d: tensor<?x?x!onnx.string>, %i: tensor<?x?xi64>) -> tensor<?x?x!onnx.string> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<?x?x!onnx.string>, tensor<?x?xi64>
  return %0 : tensor<?x?x!onnx.string>
}

func.func @skipped_is_zero() -> (tensor<?x?xf32>, tensor<?x?x!onnx.string>) {
  %data = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %strings = onnx.Constant dense<[["a", "b"], ["c", "d"]]> : tensor<2x2x!onnx.string>
  %indices = arith.constant dense<[[0, 1], [1, 0], [0, 0]]> : tensor<3x2xi64>
  %d = tensor.cast %data : tensor<2x2xf32> to tensor<?x?xf32>
  %s = tensor.cast %strings : tensor<2x2x!onnx.string> to tensor<?x?x!onnx.string>
  %i = tensor.cast %indices : tensor<3x2xi64> to tensor<?x?xi64>
  %r = call @gather_dyn_f32(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %t = call @gather_dyn_string(%s, %i) : (tensor<?x?x!onnx.string>, tensor<?x?xi64>) -> tensor<?x?x!onnx.string>
  return %r, %t : tensor<?x?xf32>, tensor<?x?x!onnx.string>
}
