// gather-lower-strided-copies: a memref.copy that the lowering to LLVM would
// turn into a call of the runner library's memrefCopy (a layout that is not
// contiguous, or not static, or one unranked side) becomes a linalg.copy;
// copies that become llvm.memcpy and copies between unranked memrefs stay.
// RUN: gather-opt %s --pass-pipeline='builtin.module(func.func(gather-lower-strided-copies))' | FileCheck %s
// The whole pipeline: loops for the strided copies, llvm.memcpy for the
// contiguous ones, memrefCopy for the unranked one only.
// RUN: gather-opt %s --onnx-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: gather-opt %s --onnx-to-llvm | grep -c 'llvm.call @memrefCopy' | FileCheck %s --check-prefix=CALLS
// CALLS: {{^1$}}

// CHECK-LABEL: func.func @strided_source(
// CHECK-NEXT: linalg.copy ins(%{{.*}} : memref<4x3xf32, strided<[6, 2], offset: 1>>) outs(%{{.*}} : memref<4x3xf32>)
// CHECK-NEXT: return
// LLVM-LABEL: llvm.func @strided_source(
// LLVM-NOT: llvm.intr.memcpy
// LLVM: llvm.load
// LLVM: llvm.store
// LLVM: llvm.return
func.func @strided_source(%a: memref<4x3xf32, strided<[6, 2], offset: 1>>, %b: memref<4x3xf32>) {
  memref.copy %a, %b : memref<4x3xf32, strided<[6, 2], offset: 1>> to memref<4x3xf32>
  return
}

// CHECK-LABEL: func.func @strided_target(
// CHECK-NEXT: linalg.copy ins(%{{.*}} : memref<4x3xf32>) outs(%{{.*}} : memref<4x3xf32, strided<[6, 1], offset: ?>>)
func.func @strided_target(%a: memref<4x3xf32>, %b: memref<4x3xf32, strided<[6, 1], offset: ?>>) {
  memref.copy %a, %b : memref<4x3xf32> to memref<4x3xf32, strided<[6, 1], offset: ?>>
  return
}

// A layout that is not the identity but of a dynamic shape: memrefCopy
// upstream, loops here.
// CHECK-LABEL: func.func @dynamic_strided(
// CHECK-NEXT: linalg.copy ins(%{{.*}} : memref<?x3xf32, strided<[?, 1], offset: ?>>) outs(%{{.*}} : memref<?x3xf32>)
func.func @dynamic_strided(%a: memref<?x3xf32, strided<[?, 1], offset: ?>>, %b: memref<?x3xf32>) {
  memref.copy %a, %b : memref<?x3xf32, strided<[?, 1], offset: ?>> to memref<?x3xf32>
  return
}

// A static contiguous block at an offset, and identity layouts of any
// shape: llvm.memcpy.
// CHECK-LABEL: func.func @contiguous_block(
// CHECK-NEXT: memref.copy
// LLVM-LABEL: llvm.func @contiguous_block(
// LLVM: "llvm.intr.memcpy"
func.func @contiguous_block(%a: memref<2x6xf32, strided<[6, 1], offset: 12>>, %b: memref<2x6xf32>) {
  memref.copy %a, %b : memref<2x6xf32, strided<[6, 1], offset: 12>> to memref<2x6xf32>
  return
}

// CHECK-LABEL: func.func @identity(
// CHECK-NEXT: memref.copy
// LLVM-LABEL: llvm.func @identity(
// LLVM: "llvm.intr.memcpy"
func.func @identity(%a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  memref.copy %a, %b : memref<?x?xf32> to memref<?x?xf32>
  return
}

// A non-identity layout of no elements: memrefCopy upstream (which returns
// at once), an empty loop nest here.
// CHECK-LABEL: func.func @empty_strided(
// CHECK-NEXT: linalg.copy
func.func @empty_strided(%a: memref<0x3xf32, strided<[6, 2], offset: 1>>, %b: memref<0x3xf32>) {
  memref.copy %a, %b : memref<0x3xf32, strided<[6, 2], offset: 1>> to memref<0x3xf32>
  return
}

// A ranked side gives the rank: the unranked one cast to it.
// CHECK-LABEL: func.func @ranked_to_unranked(
// CHECK-NEXT: %[[CAST:.*]] = memref.cast %{{.*}} : memref<*xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT: linalg.copy ins(%{{.*}} : memref<4x3xf32>) outs(%[[CAST]] : memref<?x?xf32, strided<[?, ?], offset: ?>>)
func.func @ranked_to_unranked(%a: memref<4x3xf32>, %b: memref<*xf32>) {
  memref.copy %a, %b : memref<4x3xf32> to memref<*xf32>
  return
}

// CHECK-LABEL: func.func @unranked_to_strided(
// CHECK-NEXT: %[[CAST:.*]] = memref.cast %{{.*}} : memref<*xf32> to memref<?xf32, strided<[?], offset: ?>>
// CHECK-NEXT: linalg.copy ins(%[[CAST]] : memref<?xf32, strided<[?], offset: ?>>) outs(%{{.*}} : memref<4xf32, strided<[2]>>)
func.func @unranked_to_strided(%a: memref<*xf32>, %b: memref<4xf32, strided<[2]>>) {
  memref.copy %a, %b : memref<*xf32> to memref<4xf32, strided<[2]>>
  return
}

// Copies between two unranked memrefs have no rank to loop over: left
// (gathers never take or make unranked memrefs).
// CHECK-LABEL: func.func @unranked(
// CHECK-NEXT: memref.copy
// LLVM-LABEL: llvm.func @unranked(
// LLVM: llvm.call @memrefCopy(
func.func @unranked(%a: memref<*xf32>, %b: memref<*xf32>) {
  memref.copy %a, %b : memref<*xf32> to memref<*xf32>
  return
}
