// gather-restrict-to-tensors: a to_tensor becomes restrict only where its
// buffer is allocated in the function and accessed only before it.
// RUN: gather-opt %s --split-input-file --gather-restrict-to-tensors --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @alloc
// CHECK:         bufferization.to_tensor %{{.*}} restrict :
func.func @alloc(%x: f32) -> tensor<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<4xf32>)
  %t = bufferization.to_tensor %a : memref<4xf32> to tensor<4xf32>
  return %t : tensor<4xf32>
}

// -----

// The result of an scf.if whose branches yield casts of allocations.
// CHECK-LABEL: func.func @branches
// CHECK:         bufferization.to_tensor %{{.*}} restrict :
func.func @branches(%c: i1, %n: index) -> tensor<?xf32> {
  %r = scf.if %c -> memref<?xf32, strided<[?], offset: ?>> {
    %a = memref.alloc(%n) : memref<?xf32>
    %k = memref.cast %a : memref<?xf32> to memref<?xf32, strided<[?], offset: ?>>
    scf.yield %k : memref<?xf32, strided<[?], offset: ?>>
  } else {
    %b = memref.alloc(%n) : memref<?xf32>
    %k = memref.cast %b : memref<?xf32> to memref<?xf32, strided<[?], offset: ?>>
    scf.yield %k : memref<?xf32, strided<[?], offset: ?>>
  }
  %t = bufferization.to_tensor %r : memref<?xf32, strided<[?], offset: ?>> to tensor<?xf32>
  return %t : tensor<?xf32>
}

// -----

// Written after the to_tensor, an argument, in a loop, returned: left.
// CHECK-LABEL: func.func @left
// CHECK-NOT:     restrict
func.func @left(%arg: memref<4xf32>, %x: f32, %n: index) -> (tensor<4xf32>, tensor<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %t = bufferization.to_tensor %a : memref<4xf32> to tensor<4xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<4xf32>)
  %u = bufferization.to_tensor %arg : memref<4xf32> to tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %b = memref.alloc() : memref<4xf32>
    %v = bufferization.to_tensor %b : memref<4xf32> to tensor<4xf32>
    "test.use"(%v) : (tensor<4xf32>) -> ()
  }
  %e = memref.alloc() : memref<4xf32>
  %w = bufferization.to_tensor %e : memref<4xf32> to tensor<4xf32>
  return %t, %u, %e : tensor<4xf32>, tensor<4xf32>, memref<4xf32>
}
