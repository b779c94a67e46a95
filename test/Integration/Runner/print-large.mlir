// REQUIRES: jit
// ASan reserves terabytes of virtual memory for its shadow, so `ulimit -v`
// cannot apply to a sanitizer build.
// UNSUPPORTED: asan
// The result printer streams: a result of any size prints in bounded memory,
// without first building its text in one string. tensor<10000000000x0xf32>
// (no elements, 40 GB of text) starts printing at once instead of aborting
// for lack of memory; the pipe is closed after the first bytes. (With
// --print-limit=0: by default at most 10^6 empty groups print, see
// print-limit.mlir.)
// RUN: (ulimit -v 1000000; gather-runner %s -e ten_billion_rows --entry-point-result=void --print-limit=0; true) | head -c 64 | FileCheck %s --check-prefix=HUGE
// HUGE: result 0: tensor<10000000000x0xf32> = {{\[\[}}], [], [], [],
//
// Ten million empty rows: every byte arrives ("[], " per row, minus the last
// separator, plus the outer brackets, the prefix and the newline).
// RUN: (ulimit -v 1000000; gather-runner %s -e ten_million_rows --entry-point-result=void --print-limit=0) | wc -c | FileCheck %s --check-prefix=COUNT
// COUNT: 40000036
//
// A standard output that fails is reported (exit status 1), not ignored.
// RUN: not gather-runner %s -e ten_million_rows --entry-point-result=void 2>&1 >/dev/full | FileCheck %s --check-prefix=FULL
// FULL: error: cannot write result 0 to the standard output: No space left on device

func.func @gather(%d: tensor<?x?xf32>, %i: tensor<?x0xi64>) -> tensor<?x0xf32> {
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<?x?xf32>, tensor<?x0xi64>
  return %r : tensor<?x0xf32>
}

func.func @rows(%n: index) -> tensor<?x0xf32> {
  %i = tensor.empty(%n) : tensor<?x0xi64>
  %d0 = arith.constant dense<1.0> : tensor<1x1xf32>
  %d = tensor.cast %d0 : tensor<1x1xf32> to tensor<?x?xf32>
  %r = func.call @gather(%d, %i) : (tensor<?x?xf32>, tensor<?x0xi64>) -> tensor<?x0xf32>
  return %r : tensor<?x0xf32>
}

func.func @ten_billion_rows() -> tensor<?x0xf32> {
  %n = arith.constant 10000000000 : index
  %r = func.call @rows(%n) : (index) -> tensor<?x0xf32>
  return %r : tensor<?x0xf32>
}

func.func @ten_million_rows() -> tensor<?x0xf32> {
  %n = arith.constant 10000000 : index
  %r = func.call @rows(%n) : (index) -> tensor<?x0xf32>
  return %r : tensor<?x0xf32>
}
