// A pipeline that bufferizes before onnx-to-llvm (one-shot-bufferize with
// the three usual option sets) gets the same gather code as onnx-to-llvm's
// own bufferization: gather-raise-buffer-gathers puts each gather and its
// index check back on tensors, and gather-codegen fuses, threads,
// vectorizes and prefetches them as for the lowering's IR (the same remark
// as test/Codegen/codegen-contract.mlir's). With the default fully dynamic
// layout at function boundaries, under a run-time check of unit strides.
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --one-shot-bufferize="bufferize-function-boundaries" --gather-raise-buffer-gathers --gather-codegen="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --gather-raise-buffer-gathers --gather-codegen="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --one-shot-bufferize --gather-raise-buffer-gathers --gather-codegen="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// And without the user's bufferization, for comparison:
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --gather-codegen="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
//
// The raised form: to_tensor restrict of what it reads, the generics on
// tensors, the results materialized into their buffers.
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --gather-raise-buffer-gathers | FileCheck %s --check-prefix=RAISED
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --one-shot-bufferize="bufferize-function-boundaries" --gather-raise-buffer-gathers | FileCheck %s --check-prefix=VERSIONED
//
// The whole pipeline after the user's bufferization: threads, vector
// gathers and prefetches, as without it.
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --onnx-to-llvm="target-cpu=znver4 gather-form=hardware" | FileCheck %s --check-prefix=LLVM
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --onnx-to-llvm="target-cpu=znver4 gather-form=hardware" | FileCheck %s --check-prefix=LLVM
//
// What is not raised says why (a warning at a gather of the lowering).
// RUN: gather-opt %s --split-input-file --gather-raise-buffer-gathers="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOT-RAISED --implicit-check-not=remark: --implicit-check-not=warning:


// RAISED-LABEL: func.func @axis1
// RAISED-DAG:     %[[FLAG:.*]] = memref.alloca() : memref<i1>
// RAISED-DAG:     %[[OUT:.*]] = memref.alloc() {{.*}} : memref<512x1024xf32>
// RAISED-DAG:     %[[O:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// RAISED-DAG:     %[[I:.*]] = bufferization.to_tensor %arg1 restrict : memref<512x1024xi64> to tensor<512x1024xi64>
// RAISED-DAG:     %[[D:.*]] = bufferization.to_tensor %arg0 restrict : memref<512x1024xf32> to tensor<512x1024xf32>
// RAISED:         %[[G:.*]] = linalg.generic {{.*}} ins(%[[I]] : tensor<512x1024xi64>) outs(%[[O]] : tensor<512x1024xf32>) attrs = {gather.elements}
// RAISED:           tensor.extract %[[D]]
// RAISED:         %[[F:.*]] = bufferization.to_tensor %[[FLAG]] restrict writable
// RAISED:         %[[FILL:.*]] = linalg.fill {{.*}} outs(%[[F]] : tensor<i1>)
// RAISED:         %[[C:.*]] = linalg.generic {{.*}} ins(%[[I]] : tensor<512x1024xi64>) outs(%[[FILL]] : tensor<i1>) attrs = {gather.index_check}
// RAISED:         bufferization.materialize_in_destination %[[G]] in restrict writable %[[OUT]]
// RAISED:         bufferization.materialize_in_destination %[[C]] in restrict writable %[[FLAG]]
// RAISED:         memref.load %[[FLAG]][]

// VERSIONED-LABEL: func.func @axis1
// VERSIONED:         %{{.*}}, %[[OFFSET:.*]], %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %arg1
// VERSIONED:         arith.cmpi eq, %[[OFFSET]], %c0
// VERSIONED:         arith.cmpi eq, %[[STRIDES]]#1, %c1
// VERSIONED:         arith.cmpi eq, %[[STRIDES]]#0, %{{.*}}
// VERSIONED:         memref.extract_strided_metadata %arg0
// VERSIONED:         scf.if
// VERSIONED:           memref.reinterpret_cast %arg1 to offset: [0], sizes: [512, 1024], strides: [1024, 1] : memref<512x1024xi64, strided<[?, ?], offset: ?>> to memref<512x1024xi64>
// VERSIONED:           memref.reinterpret_cast %arg0 to offset: [0], sizes: [512, 1024], strides: [1024, 1] : memref<512x1024xf32, strided<[?, ?], offset: ?>> to memref<512x1024xf32>
// VERSIONED:           linalg.generic {{.*}} attrs = {gather.elements}
// VERSIONED:           linalg.generic {{.*}} attrs = {gather.index_check}
// VERSIONED:           bufferization.materialize_in_destination
// VERSIONED:         } else {
// VERSIONED:           memref.load
// VERSIONED:         }

// LLVM-LABEL: llvm.func @axis1
// LLVM:         omp.parallel
// LLVM:         llvm.intr.masked.gather
// LLVM:         "llvm.intr.prefetch"
func.func @axis1(%d: tensor<512x1024xf32>, %i: tensor<512x1024xi64>) -> tensor<512x1024xf32> {
  // FUSED: raise-buffer-gathers.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; prefetches 4096 B ahead; index check fused
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<512x1024xf32>, tensor<512x1024xi64>
  return %r : tensor<512x1024xf32>
}

// -----

func.func @axis0(%d: tensor<300x200xf32>, %i: tensor<100x200xi64>) -> tensor<100x200xf32> {
  // FUSED: raise-buffer-gathers.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; no prefetches (not along the innermost axis); index check fused
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<300x200xf32>, tensor<100x200xi64>
  return %r : tensor<100x200xf32>
}

// -----

func.func @i32(%d: tensor<512x1024xf32>, %i: tensor<512x1024xi32>) -> tensor<512x1024xf32> {
  // FUSED: raise-buffer-gathers.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; prefetches 4096 B ahead; index check fused
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<512x1024xf32>, tensor<512x1024xi32>
  return %r : tensor<512x1024xf32>
}

// -----

// A gather on buffers into a function argument: it might alias data.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @into_argument(%d: memref<4x4xf32>, %i: memref<4x4xindex>, %out: memref<4x4xf32>) {
  // NOT-RAISED: raise-buffer-gathers.mlir:[[# @LINE + 1]]:3: warning: gather on buffers left to scalar loops: its output buffer is not allocated in the function (an argument may alias its inputs)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%i : memref<4x4xindex>) outs(%out : memref<4x4xf32>) attrs = {gather.elements} {
  ^bb0(%in: index, %o: f32):
    %r = linalg.index 0 : index
    %v = memref.load %d[%r, %in] : memref<4x4xf32>
    linalg.yield %v : f32
  }
  return
}

// -----

// Not marked: a remark (with remarks=true) for a strided last dimension.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @strided(%d: memref<4x4xf32, strided<[8, 2]>>, %i: memref<4x4xindex>) -> memref<4x4xf32> {
  %out = memref.alloc() : memref<4x4xf32>
  // NOT-RAISED: raise-buffer-gathers.mlir:[[# @LINE + 1]]:3: remark: not raised to tensors: it accesses a buffer of memref<4x4xf32, strided<[8, 2]>>, not contiguous and row-major
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%i : memref<4x4xindex>) outs(%out : memref<4x4xf32>) {
  ^bb0(%in: index, %o: f32):
    %r = linalg.index 0 : index
    %v = memref.load %d[%r, %in] : memref<4x4xf32, strided<[8, 2]>>
    linalg.yield %v : f32
  }
  return %out : memref<4x4xf32>
}
