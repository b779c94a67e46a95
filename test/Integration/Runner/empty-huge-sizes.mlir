// REQUIRES: jit
// Empty results whose other sizes are huge (dynamic): 0 bytes to allocate,
// not "out of memory" (the byte count overflowed before the 0 counted), and
// no loop over the 2^62 empty rows (it ran for hours).
// RUN: gather-runner %s -e rows --entry-point-result=void --print-limit=3 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS: result 0: tensor<4611686018427387904x0xf32> = {{\[\[}}], [], [] ... (4611686018427387901 more empty groups not printed; --print-limit=0 prints all)
// ROWS-NOT: error
// RUN: gather-runner %s -e both --entry-point-result=void --print-limit=2 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: result 0: tensor<9223372036854775807x0xi32> = {{\[\[}}], [] ... (9223372036854775805 more empty groups not printed; --print-limit=0 prints all)
// BOTH-NOT: error
// RUN: gather-runner %s -e square --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=SQUARE
// SQUARE: result 0: tensor<0x0xf64> = []
// SQUARE-NOT: error

func.func @g(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.GatherElements %d, %i {axis = 0 : si64} : tensor<?x?xf32>, tensor<?x?xi64> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @rows() -> tensor<?x?xf32> {
  %m = arith.constant 4611686018427387904 : index
  %z = arith.constant 0 : index
  %d = tensor.empty(%m, %z) : tensor<?x?xf32>
  %i = tensor.empty(%m, %z) : tensor<?x?xi64>
  %r = call @g(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @h(%d: tensor<?x?xi32>, %i: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %0 = onnx.GatherElements %d, %i {axis = 1 : si64} : tensor<?x?xi32>, tensor<?x?xi32> -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}
func.func @both() -> tensor<?x?xi32> {
  %m = arith.constant 9223372036854775807 : index
  %z = arith.constant 0 : index
  %d = tensor.empty(%m, %z) : tensor<?x?xi32>
  %i = tensor.empty(%m, %z) : tensor<?x?xi32>
  %r = call @h(%d, %i) : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}

func.func @k(%d: tensor<?x?xf64>, %i: tensor<?x?xi64>) -> tensor<?x?xf64> {
  %0 = onnx.GatherElements %d, %i {axis = 0 : si64} : tensor<?x?xf64>, tensor<?x?xi64> -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
func.func @square() -> tensor<?x?xf64> {
  %z = arith.constant 0 : index
  %d = tensor.empty(%z, %z) : tensor<?x?xf64>
  %i = tensor.empty(%z, %z) : tensor<?x?xi64>
  %r = call @k(%d, %i) : (tensor<?x?xf64>, tensor<?x?xi64>) -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}
