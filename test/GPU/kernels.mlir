// RUN: gather-opt %s --pass-pipeline='builtin.module(gather-pipeline-onnx-preprocessing{gpu=cuda},gather-pipeline-onnx-to-linalg{gpu=cuda},gather-pipeline-bufferization{gpu=cuda},func.func(gather-gpu-kernels),canonicalize,cse)' | FileCheck %s
// RUN: gather-opt %s --pass-pipeline='builtin.module(gather-pipeline-onnx-preprocessing{gpu=cuda},gather-pipeline-onnx-to-linalg{gpu=cuda},gather-pipeline-bufferization{gpu=cuda},func.func(gather-gpu-kernels{threads-per-block=256 elements-per-thread=8}),canonicalize,cse)' | FileCheck %s --check-prefix=SHAPE

// The GPU-level IR of gather-gpu-kernels (docs/GPU.md): device buffers and
// copies on one stream, one gpu.launch of ceildiv(n, 128 * 4) blocks of 128
// threads, 4 elements per thread, 32-bit offsets for static shapes that
// fit and 64-bit ones otherwise, the index check fused (atomic min of the
// row-major position) and reported by the host with the CPU's code.

// CHECK-LABEL: func.func @static_i64
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C8_I64:.*]] = arith.constant 8 : i64
// CHECK-DAG:     %[[C12:.*]] = arith.constant 12 : index
// CHECK-DAG:     %[[ANY:.*]] = memref.alloca() : memref<i1>
// The check's "none out of range yet", before the device work.
// CHECK:         linalg.fill ins(%false : i1) outs(%[[ANY]] : memref<i1>)
// CHECK:         %[[DATA:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1]] : memref<3x4xf32> into memref<12xf32>
// CHECK:         %[[IDX:.*]] = memref.collapse_shape %arg1 {{\[\[}}0, 1]] : memref<2x4xi64> into memref<8xi64>
// CHECK:         %[[OUT:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<2x4xf32> into memref<8xf32>
// CHECK:         %[[POS:.*]] = memref.alloca() : memref<1xi64>
// CHECK:         memref.store %[[C8_I64]], %[[POS]]
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK:         %[[DDATA:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%[[C12]]) : memref<?xf32>
// CHECK:         %[[DIDX:.*]], %[[T2:.*]] = gpu.alloc async [%[[T1]]] (%[[C8]]) : memref<?xi64>
// CHECK:         %[[DOUT:.*]], %[[T3:.*]] = gpu.alloc async [%[[T2]]] (%[[C8]]) : memref<?xf32>
// CHECK:         %[[DPOS:.*]], %[[T4:.*]] = gpu.alloc async [%[[T3]]] ({{.*}}) : memref<?xi64>
// CHECK:         %[[T5:.*]] = gpu.memcpy async [%[[T4]]] %[[DDATA]], %[[DATA]]
// CHECK:         %[[T6:.*]] = gpu.memcpy async [%[[T5]]] %[[DIDX]], %[[IDX]]
// CHECK:         %[[T7:.*]] = gpu.memcpy async [%[[T6]]] %[[DPOS]], %[[POS]]
// 8 elements: one block of 128 threads.
// CHECK:         %[[T8:.*]] = gpu.launch async [%[[T7]]] blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// Per thread: the four index loads (a position past the end reads
// element 0: no branch), then the four data loads, then the atomics and
// stores, each guarded.
// CHECK:           %[[TID:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK:           %[[IN0:.*]] = arith.cmpi ult, %[[TID]], %c8_i32 : i32
// CHECK:           %[[AT0:.*]] = arith.select %[[IN0]], %[[TID]], %c0_i32 : i32
// CHECK:           %[[V:.*]] = memref.load %[[DIDX]][%{{.*}}] : memref<?xi64>
// CHECK:           %[[L1:.*]] = arith.addi %[[TID]], %c128_i32 : i32
// CHECK:           memref.load %[[DIDX]]
// CHECK:           arith.addi %[[TID]], %c256_i32 : i32
// CHECK:           memref.load %[[DIDX]]
// CHECK:           arith.addi %[[TID]], %c384_i32 : i32
// CHECK:           memref.load %[[DIDX]]
// CHECK-NOT:       arith.addi %[[TID]], %c512_i32
// CHECK-NOT:       memref.store
// CHECK:           %[[COL:.*]] = arith.remui %[[AT0]], %c4_i32 : i32
// CHECK:           %[[NEG:.*]] = arith.cmpi slt, %[[V]], %c0_i64 : i64
// CHECK:           %[[ADD:.*]] = arith.addi %[[V]], %c3_i64 : i64
// CHECK:           %[[W:.*]] = arith.select %[[NEG]], %[[ADD]], %[[V]] : i64
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[W]], %c3_i64 : i64
// CHECK:           %[[SAFE:.*]] = arith.select %[[IN]], %[[W]], %c0_i64 : i64
// CHECK:           %[[ROW:.*]] = arith.trunci %[[SAFE]] : i64 to i32
// CHECK:           %[[M:.*]] = arith.muli %[[ROW]], %c4_i32 : i32
// CHECK:           %[[OFF:.*]] = arith.addi %[[M]], %[[COL]] : i32
// CHECK:           %[[OFFI:.*]] = arith.index_castui %[[OFF]] : i32 to index
// CHECK:           %[[E:.*]] = memref.load %[[DDATA]][%[[OFFI]]] : memref<?xf32>
// CHECK:           memref.load %[[DDATA]]
// CHECK:           memref.load %[[DDATA]]
// CHECK:           memref.load %[[DDATA]]
// CHECK-NOT:       memref.load
// CHECK:           %[[BAD:.*]] = arith.cmpi uge, %[[W]], %c3_i64 : i64
// CHECK:           %[[BAD0:.*]] = arith.andi %[[IN0]], %[[BAD]] : i1
// CHECK:           scf.if %[[BAD0]] {
// CHECK:             %[[ATP:.*]] = arith.extui %[[TID]] : i32 to i64
// CHECK:             memref.atomic_rmw mins %[[ATP]], %[[DPOS]][%c0] : (i64, memref<?xi64>) -> i64
// CHECK:           }
// CHECK:           scf.if %[[IN0]] {
// CHECK:             memref.store %[[E]], %[[DOUT]]
// CHECK:           }
// CHECK:           gpu.terminator
// CHECK:         %[[T9:.*]] = gpu.memcpy async [%[[T8]]] %[[OUT]], %[[DOUT]]
// CHECK:         %[[T10:.*]] = gpu.memcpy async [%[[T9]]] %[[POS]], %[[DPOS]]
// CHECK:         gpu.dealloc async
// CHECK:         gpu.dealloc async
// CHECK:         gpu.dealloc async
// CHECK:         %[[T14:.*]] = gpu.dealloc async
// CHECK:         gpu.wait [%[[T14]]]
// The fused check: "any out of range" is "a position was recorded".
// CHECK-NOT:     linalg.fill
// CHECK:         %[[FIRST:.*]] = memref.load %[[POS]][%c0] : memref<1xi64>
// CHECK:         %[[REC:.*]] = arith.cmpi ult, %[[FIRST]], %[[C8_I64]] : i64
// CHECK:         %[[PREV:.*]] = memref.load %[[ANY]][] : memref<i1>
// CHECK:         %[[OR:.*]] = arith.ori %[[PREV]], %[[REC]] : i1
// CHECK:         memref.store %[[OR]], %[[ANY]][] : memref<i1>
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     linalg.fill
// CHECK:         %[[ANYV:.*]] = memref.load %[[ANY]][] : memref<i1>
// CHECK:         scf.if %[[ANYV]] {
// CHECK:           scf.for
// CHECK:             func.call @gatherReportIndexError
// CHECK:           func.call @gatherReportIndexErrorsOmitted
func.func @static_i64(%data: tensor<3x4xf32>, %indices: tensor<2x4xi64>) -> tensor<2x4xf32> {
  %out = onnx.GatherElements %data, %indices axis = 0 : tensor<3x4xf32>, tensor<2x4xi64>
  return %out : tensor<2x4xf32>
}

// Dynamic shapes: sizes from memref.dim, no launch for no elements, and
// two kernels chosen at run time: 32-bit offsets when both tensors have at
// most 2^31 - 1 - 512 elements, 64-bit ones otherwise. i32 index values are
// sign-extended for the 64-bit kernel; negative axis = 1.
// CHECK-LABEL: func.func @dynamic_i32
// CHECK-DAG:     %[[LIMIT:.*]] = arith.constant 2147483135 : index
// CHECK:         %[[N:.*]] = arith.muli
// CHECK:         %[[NONEMPTY:.*]] = arith.cmpi ne, %[[N]], %c0 : index
// CHECK:         scf.if %[[NONEMPTY]] {
// CHECK:           %[[N_FITS:.*]] = arith.cmpi ule, %[[N]], %[[LIMIT]] : index
// CHECK:           %[[D_FITS:.*]] = arith.cmpi ule, %{{.*}}, %[[LIMIT]] : index
// CHECK:           %[[FITS:.*]] = arith.andi %[[N_FITS]], %[[D_FITS]] : i1
// CHECK:           scf.if %[[FITS]] {
// CHECK:             %[[BLOCKS:.*]] = arith.ceildivui %[[N]], %c512 : index
// CHECK:             gpu.launch async [%{{.*}}] blocks({{.*}}) in ({{.*}} = %[[BLOCKS]], {{.*}}) threads({{.*}}) in ({{.*}} = %c128
// CHECK:               %[[BID:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK:               %[[TID:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK:               %[[B:.*]] = arith.muli %[[BID]], %c512_i32 : i32
// CHECK:               %[[LIN:.*]] = arith.addi %[[B]], %[[TID]] : i32
// CHECK:               arith.cmpi ult, %[[LIN]], %{{.*}} : i32
// CHECK:               memref.load %{{.*}} : memref<?xi32>
// CHECK-NOT:           arith.extsi
// CHECK:               memref.load %{{.*}} : memref<?xf16>
// CHECK:               memref.atomic_rmw mins
// CHECK:             gpu.terminator
// CHECK:           } else {
// CHECK:             gpu.launch async [%{{.*}}] blocks({{.*}}) in ({{.*}} = %[[BLOCKS]], {{.*}}) threads({{.*}}) in ({{.*}} = %c128
// CHECK:               %[[BID64:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK:               %[[TID64:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK:               %[[B64:.*]] = arith.muli %[[BID64]], %c512_i64 : i64
// CHECK:               %[[LIN64:.*]] = arith.addi %[[B64]], %[[TID64]] : i64
// CHECK:               arith.cmpi ult, %[[LIN64]], %{{.*}} : i64
// CHECK:               memref.load %{{.*}} : memref<?xi32>
// CHECK:               arith.extsi %{{.*}} : i32 to i64
// CHECK-NOT:           arith.trunci
// CHECK:               memref.load %{{.*}} : memref<?xf16>
// CHECK:               memref.atomic_rmw mins %[[LIN64]]
// CHECK:             gpu.terminator
func.func @dynamic_i32(%data: tensor<?x?xf16>, %indices: tensor<?x?xi32>) -> tensor<?x?xf16> {
  %out = onnx.GatherElements %data, %indices axis = -1 : tensor<?x?xf16>, tensor<?x?xi32>
  return %out : tensor<?x?xf16>
}

// More than 2^31 elements of data: 64-bit offsets though static.
// CHECK-LABEL: func.func @large
// CHECK:         gpu.launch
// CHECK:           arith.index_cast %{{.*}} : index to i64
// CHECK:           memref.load %{{.*}} : memref<?xi8>
func.func @large(%data: tensor<65536x65536xi8>, %indices: tensor<2x65536xi64>) -> tensor<2x65536xi8> {
  %out = onnx.GatherElements %data, %indices axis = 0 : tensor<65536x65536xi8>, tensor<2x65536xi64>
  return %out : tensor<2x65536xi8>
}

// No elements: nothing is launched.
// CHECK-LABEL: func.func @empty
// CHECK-NOT:     gpu.
// CHECK:         return
func.func @empty(%data: tensor<3x4xf32>, %indices: tensor<0x4xi64>) -> tensor<0x4xf32> {
  %out = onnx.GatherElements %data, %indices axis = 0 : tensor<3x4xf32>, tensor<0x4xi64>
  return %out : tensor<0x4xf32>
}

// The launch shape follows the pass's options.
// SHAPE-LABEL: func.func @static_i64
// SHAPE:         gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c256
// SHAPE:           arith.addi %{{.*}}, %c1792_i32 : i32
// SHAPE-NOT:       arith.addi %{{.*}}, %c2048_i32 : i32
// SHAPE:           gpu.terminator
// SHAPE-LABEL: func.func @dynamic_i32
// SHAPE:         arith.constant 2147481599 : index
// SHAPE:         arith.ceildivui %{{.*}}, %c2048 : index

// Dimensions of size 1: canonicalization folds their linalg.index into a
// constant 0, still a gather (on the GPU, not left on the host).
// CHECK-LABEL: func.func @unit_dims
// CHECK:         gpu.launch
// CHECK-NOT:     linalg.generic {{.*}}gather.elements
// CHECK:         return
func.func @unit_dims(%data: tensor<5x1x3xf64>, %indices: tensor<2x1x3xi32>) -> tensor<2x1x3xf64> {
  %out = onnx.GatherElements %data, %indices axis = -3 : tensor<5x1x3xf64>, tensor<2x1x3xi32>
  return %out : tensor<2x1x3xf64>
}
