// REQUIRES: jit
// Copies between strided buffers (gather-lower-strided-copies: loops, not
// the runner library's memrefCopy) copy the right elements: every other
// column of a 4x6 constant into a 4x3 buffer, and back into every other
// column of a 4x6 buffer of -1, also with dynamic sizes and strides, and
// into an unranked memref.
// RUN: gather-runner %s -e main --entry-point-result=void | FileCheck %s
// RUN: gather-runner %s -e main --entry-point-result=void -O0 | FileCheck %s
// CHECK: sizes = [4, 3]
// CHECK-NEXT{LITERAL}: [[1,   3,   5],
// CHECK-NEXT{LITERAL}:  [7,   9,   11],
// CHECK-NEXT{LITERAL}:  [13,   15,   17],
// CHECK-NEXT{LITERAL}:  [19,   21,   23]]
// CHECK: sizes = [4, 6]
// CHECK-NEXT{LITERAL}: [[1,   -1,   3,   -1,   5,   -1],
// CHECK-NEXT{LITERAL}:  [7,   -1,   9,   -1,   11,   -1],
// CHECK-NEXT{LITERAL}:  [13,   -1,   15,   -1,   17,   -1],
// CHECK-NEXT{LITERAL}:  [19,   -1,   21,   -1,   23,   -1]]
// CHECK: sizes = [2, 3]
// CHECK-NEXT{LITERAL}: [[8,   10,   12],
// CHECK-NEXT{LITERAL}:  [14,   16,   18]]
// CHECK: sizes = [4, 3]
// CHECK-NEXT{LITERAL}: [[1,   3,   5],
// CHECK-NEXT{LITERAL}:  [7,   9,   11],
// CHECK-NEXT{LITERAL}:  [13,   15,   17],
// CHECK-NEXT{LITERAL}:  [19,   21,   23]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0],
                             [6.0, 7.0, 8.0, 9.0, 10.0, 11.0],
                             [12.0, 13.0, 14.0, 15.0, 16.0, 17.0],
                             [18.0, 19.0, 20.0, 21.0, 22.0, 23.0]]> : tensor<4x6xf32>
  %m = bufferization.to_buffer %c read_only : tensor<4x6xf32> to memref<4x6xf32>
  %odd = memref.subview %m[0, 1] [4, 3] [1, 2] : memref<4x6xf32> to memref<4x3xf32, strided<[6, 2], offset: 1>>
  %packed = memref.alloca() : memref<4x3xf32>
  memref.copy %odd, %packed : memref<4x3xf32, strided<[6, 2], offset: 1>> to memref<4x3xf32>
  %p = memref.cast %packed : memref<4x3xf32> to memref<*xf32>
  call @printMemrefF32(%p) : (memref<*xf32>) -> ()

  %minus = arith.constant -1.0 : f32
  %wide = memref.alloca() : memref<4x6xf32>
  linalg.fill ins(%minus : f32) outs(%wide : memref<4x6xf32>)
  %even = memref.subview %wide[0, 0] [4, 3] [1, 2] : memref<4x6xf32> to memref<4x3xf32, strided<[6, 2]>>
  memref.copy %packed, %even : memref<4x3xf32> to memref<4x3xf32, strided<[6, 2]>>
  %w = memref.cast %wide : memref<4x6xf32> to memref<*xf32>
  call @printMemrefF32(%w) : (memref<*xf32>) -> ()

  // Rows 1 and 2, columns 2, 4 and 6 of the constant, through dynamic sizes
  // and strides.
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %block = memref.subview %m[%c1, %c2] [%c2, %c3] [%c1, %c2] : memref<4x6xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %out = memref.alloca(%c2, %c3) : memref<?x?xf32>
  memref.copy %block, %out : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<?x?xf32>
  %o = memref.cast %out : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%o) : (memref<*xf32>) -> ()

  // Into an unranked view of a 4x3 buffer of -1, from the odd columns.
  %into = memref.alloca() : memref<4x3xf32>
  linalg.fill ins(%minus : f32) outs(%into : memref<4x3xf32>)
  %u = memref.cast %into : memref<4x3xf32> to memref<*xf32>
  memref.copy %odd, %u : memref<4x3xf32, strided<[6, 2], offset: 1>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
