// gather-lower-alloca-scopes: each memref.alloca_scope becomes its body
// between llvm.intr.stacksave and llvm.intr.stackrestore (innermost
// first), its results the values its body returns; convert-scf-to-cf would
// otherwise give it more blocks than it takes.
// RUN: gather-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gather-lower-alloca-scopes))' | FileCheck %s
// The whole pipeline with threads: the scope that convert-scf-to-openmp
// puts around a loop body with a call or a memref.alloca and a loop
// (canonicalization keeps it) lowers, the stack given back once per
// iteration. Values: test/Integration/Runner/forall-with-call.test.
// RUN: gather-opt %s --split-input-file --onnx-to-llvm="num-threads=2" | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @nested(
// CHECK-NOT:     memref.alloca_scope
// CHECK:         %[[OUTER:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK:         memref.alloca() : memref<4xf32>
// CHECK:         %[[INNER:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK:         %[[X:.*]] = memref.alloca() : memref<8xf32>
// CHECK:         %[[V:.*]] = memref.load %[[X]]
// CHECK:         llvm.intr.stackrestore %[[INNER]] : !llvm.ptr
// CHECK:         llvm.intr.stackrestore %[[OUTER]] : !llvm.ptr
// CHECK-NOT:     memref.alloca_scope
// CHECK:         return %[[V]] : f32
func.func @nested(%i: index) -> f32 {
  %r = memref.alloca_scope -> (f32) {
    %a = memref.alloca() : memref<4xf32>
    %s = memref.alloca_scope -> (f32) {
      %b = memref.alloca() : memref<8xf32>
      %v = memref.load %b[%i] : memref<8xf32>
      memref.alloca_scope.return %v : f32
    }
    memref.alloca_scope.return %s : f32
  }
  return %r : f32
}

// -----

// A scope in a loop body, with a loop of its own: the stack saved and
// given back in each iteration, around the loop.
// CHECK-LABEL: func.func @in_loop(
// CHECK:         scf.for
// CHECK-NEXT:      %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK-NEXT:      memref.alloca()
// CHECK-NEXT:      scf.for
// CHECK:           }
// CHECK-NEXT:      llvm.intr.stackrestore %[[SP]] : !llvm.ptr
// CHECK-NEXT:    }
func.func @in_loop(%m: memref<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    memref.alloca_scope {
      %t = memref.alloca() : memref<4xf32>
      scf.for %j = %c0 to %c4 step %c1 {
        %v = memref.load %m[%i, %j] : memref<8x4xf32>
        memref.store %v, %t[%j] : memref<4xf32>
      }
    }
  }
  return
}

// -----

// A threaded loop whose body calls a function and runs a loop.
// LLVM-LABEL:  llvm.func @forall_call(
// LLVM:          omp.parallel
// LLVM:            omp.loop_nest
// LLVM:              %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// LLVM:              llvm.call @h
// LLVM:              llvm.intr.stackrestore %[[SP]] : !llvm.ptr
func.func private @h(i32)
func.func @forall_call(%m: memref<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i32
  scf.forall (%i) in (8) {
    func.call @h(%z) : (i32) -> ()
    scf.for %j = %c0 to %c4 step %c1 {
      %v = memref.load %m[%i, %j] : memref<8x4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %m[%i, %j] : memref<8x4xf32>
    }
  }
  return
}

// -----

// A threaded loop whose body allocates on the stack and runs a loop.
// LLVM-LABEL:  llvm.func @forall_alloca(
// LLVM:          omp.parallel
// LLVM:            omp.loop_nest
// LLVM:              %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// LLVM:              llvm.alloca
// LLVM:              llvm.intr.stackrestore %[[SP]] : !llvm.ptr
func.func @forall_alloca(%m: memref<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.forall (%i) in (8) {
    %t = memref.alloca() : memref<4xf32>
    scf.for %j = %c0 to %c4 step %c1 {
      %v = memref.load %m[%i, %j] : memref<8x4xf32>
      memref.store %v, %t[%j] : memref<4xf32>
      %w = memref.load %t[%j] : memref<4xf32>
      memref.store %w, %m[%i, %j] : memref<8x4xf32>
    }
  }
  return
}
