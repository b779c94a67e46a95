// REQUIRES: jit
// A gather of dynamic shape cast to a static type (tensor.cast) and written
// into a destination of that type: the cast's sizes are checked at run time
// like a declared result type, so a gather larger than the destination is
// reported and nothing is written past its end (the cast alone would be
// undefined behavior).
//
// RUN: not gather-runner %s -e too_large --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=LARGE
// RUN: not gather-runner %s -e too_large --entry-point-result=void --pipeline-options="vector-size=0 num-threads=1" 2>&1 | FileCheck %s --check-prefix=LARGE
// LARGE: cast-to-static.mlir:35:8: {{(error: )?}}'onnx.GatherElements' op operand 'indices' has size 30 in dimension 0, but the declared result type has size 2 there
// LARGE-NOT: error
//
// With --on-runtime-error=continue the gather's result is zeros (a failed
// shape check), within the 2x2 view of a 4x4 buffer of -7: nothing around
// it is written.
// RUN: not gather-runner %s -e too_large --entry-point-result=void --on-runtime-error=continue 2>&1 | FileCheck %s --check-prefix=CONTINUE
// CONTINUE: sizes = [4, 4]
// CONTINUE-NEXT{LITERAL}: [[0,   0,   -7,   -7],
// CONTINUE-NEXT{LITERAL}:  [0,   0,   -7,   -7],
// CONTINUE-NEXT{LITERAL}:  [-7,   -7,   -7,   -7],
// CONTINUE-NEXT{LITERAL}:  [-7,   -7,   -7,   -7]]
//
// RUN: gather-runner %s -e fits --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=FITS
// FITS-NOT: error
// FITS: sizes = [4, 4]
// FITS-NEXT{LITERAL}: [[1.5,   1.5,   -7,   -7],
// FITS-NEXT{LITERAL}:  [1.5,   1.5,   -7,   -7],
// FITS-NEXT{LITERAL}:  [-7,   -7,   -7,   -7],

func.func private @printMemrefF32(memref<*xf32>)

func.func @kernel(%data: memref<?x?xf32>, %indices: memref<?x?xi64>, %out: memref<2x2xf32, strided<[?, 1], offset: ?>>) {
  %d = bufferization.to_tensor %data restrict : memref<?x?xf32> to tensor<?x?xf32>
  %i = bufferization.to_tensor %indices restrict : memref<?x?xi64> to tensor<?x?xi64>
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  %c = tensor.cast %r : tensor<?x?xf32> to tensor<2x2xf32>
  bufferization.materialize_in_destination %c in restrict writable %out : (tensor<2x2xf32>, memref<2x2xf32, strided<[?, 1], offset: ?>>) -> ()
  return
}

func.func @run(%n: index) {
  %data = memref.alloc(%n, %n) : memref<?x?xf32>
  %indices = memref.alloc(%n, %n) : memref<?x?xi64>
  %one = arith.constant 1.5 : f32
  %zero = arith.constant 0 : i64
  linalg.fill ins(%one : f32) outs(%data : memref<?x?xf32>)
  linalg.fill ins(%zero : i64) outs(%indices : memref<?x?xi64>)
  %buffer = memref.alloc() : memref<4x4xf32>
  %minus = arith.constant -7.0 : f32
  linalg.fill ins(%minus : f32) outs(%buffer : memref<4x4xf32>)
  %view = memref.subview %buffer[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1]>>
  %out = memref.cast %view : memref<2x2xf32, strided<[4, 1]>> to memref<2x2xf32, strided<[?, 1], offset: ?>>
  func.call @kernel(%data, %indices, %out) : (memref<?x?xf32>, memref<?x?xi64>, memref<2x2xf32, strided<[?, 1], offset: ?>>) -> ()
  %u = memref.cast %buffer : memref<4x4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @too_large() {
  %n = arith.constant 30 : index
  func.call @run(%n) : (index) -> ()
  return
}

func.func @fits() {
  %n = arith.constant 2 : index
  func.call @run(%n) : (index) -> ()
  return
}
