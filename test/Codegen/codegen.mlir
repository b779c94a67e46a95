// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen --canonicalize --cse --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="vector-size=0 parallel=false" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=SCALAR
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="parallel-threshold=0" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=ALL
// RUN: not gather-opt %s --gather-codegen="vector-size=-1" 2>&1 | FileCheck %s --check-prefix=BAD-NEG
// RUN: not gather-opt %s --gather-codegen="vector-size=257" 2>&1 | FileCheck %s --check-prefix=BAD-BIG
// RUN: not gather-opt %s --onnx-to-llvm="parallel-threshold=-5" 2>&1 | FileCheck %s --check-prefix=BAD-THRESHOLD
// RUN: not gather-opt %s --gather-codegen="parallel-chunk=0" 2>&1 | FileCheck %s --check-prefix=BAD-CHUNK
// vector-size=1 is scalar code.
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="vector-size=1" --split-input-file | FileCheck %s --check-prefix=SCALAR

// BAD-NEG: error: gather-codegen: vector-size must be in [0, 256] (0: scalar loops), not -1
// BAD-NEG-NOT: error
// BAD-BIG: error: gather-codegen: vector-size must be in [0, 256] (0: scalar loops), not 257
// BAD-BIG-NOT: error
// BAD-THRESHOLD: error: gather-codegen: parallel-threshold must be >= 0, not -5
// BAD-THRESHOLD-NOT: error
// BAD-CHUNK: error: gather-codegen: parallel-chunk must be >= 1, not 0
// BAD-CHUNK-NOT: error

// A large static gather (2^16 elements, the default threshold): one
// scf.forall over the rows; each row is one loop of vectors of 16 that reads
// the index values once (vector.transfer_read), gathers with them
// (vector.gather) and ORs "out of range" into a vector<16xi1>, reduced once
// per row; a row that found one sets the flag (an atomic or). No second pass
// over the indices, no buffer of flags.
// CHECK-LABEL: func.func @large
// CHECK-SAME:    (%{{.*}}: tensor<256x256xf32>, %[[IDX:.*]]: tensor<256x256xi64>)
// CHECK:         %[[FLAG:.*]] = memref.alloca() : memref<i8>
// CHECK-NOT:     linalg.generic
// CHECK:         memref.store %{{.*}}, %[[FLAG]][] : memref<i8>
// CHECK:         scf.forall (%[[ROW:.*]]) in (256) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<256x256xf32>)
// CHECK:           %[[VEC:.*]]:2 = scf.for %[[J:.*]] = %c0 to %c256 step %c16 iter_args(%{{.*}} = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (tensor<256xf32>, vector<16xi1>)
// CHECK:             %[[I:.*]] = vector.transfer_read %[[IDX]][%[[ROW]], %[[J]]], {{.*}} : tensor<256x256xi64>, vector<16xi64>
// CHECK:             %[[OK:.*]] = arith.cmpi ult
// CHECK:             %[[SAFE:.*]] = arith.select %[[OK]]
// CHECK:             vector.gather %{{.*}}[%[[ROW]], %c0] [%[[SAFE]]]{{.*}} : tensor<256x256xf32>, vector<16xindex>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK:             vector.transfer_write {{.*}} : vector<16xf32>, tensor<256xf32>
// CHECK:             %[[OOR:.*]] = arith.cmpi uge
// CHECK:             arith.ori %[[ACC]], %[[OOR]] : vector<16xi1>
// CHECK:           %[[ROWBAD:.*]] = vector.reduction <or>, %[[VEC]]#1 : vector<16xi1> into i1
// CHECK:           scf.if %[[ROWBAD]] {
// CHECK:             memref.atomic_rmw ori %{{.*}}, %[[FLAG]][] : (i8, memref<i8>) -> i8
// CHECK:           scf.forall.in_parallel
// CHECK-NOT:     scf.forall
// CHECK:         memref.load %[[FLAG]][] : memref<i8>
// Only the cold report loop (after a bad value was found) reads the
// indices again.
// CHECK:         scf.if
// CHECK:           gatherReportIndexError
// CHECK-NOT:     linalg.generic
// SCALAR-LABEL: func.func @large
// SCALAR-NOT:     vector.
// SCALAR-NOT:     linalg.generic
// SCALAR:         scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (tensor<256{{(x256)?}}xf32>, i1)
// SCALAR:           %[[I:.*]] = tensor.extract %{{.*}}[%[[ROW:.*]], %[[J:.*]]] : tensor<256x256xi64>
// SCALAR:           arith.index_cast %[[I]]
// SCALAR:           tensor.extract %{{.*}}[%[[ROW]], %{{.*}}] : tensor<256x256xf32>
// SCALAR:           tensor.insert
// SCALAR:           %[[OOR:.*]] = arith.cmpi uge
// SCALAR:           arith.ori %{{.*}}, %[[OOR]] : i1
// SCALAR-NOT:     linalg.generic
// SCALAR:         return
func.func @large(%d: tensor<256x256xf32>, %i: tensor<256x256xi64>) -> tensor<256x256xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xf32>, tensor<256x256xi64>
  return %0 : tensor<256x256xf32>
}

// -----

// `data` is a slice (strided rows): vector.gather would read the wrong
// elements, so the gather stays scalar (still threaded, still fused).
// CHECK-LABEL: func.func @strided_data
// CHECK:         scf.forall
// CHECK:           scf.for {{.*}} -> (tensor<256xf32>, i1)
// CHECK-NOT:     vector.gather
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @strided_data(%d: tensor<256x512xf32>, %i: tensor<256x256xi64>) -> tensor<256x256xf32> {
  %s = tensor.extract_slice %d[0, 0] [256, 256] [1, 1] : tensor<256x512xf32> to tensor<256x256xf32>
  %0 = onnx.GatherElements %s, %i axis = 1 : tensor<256x256xf32>, tensor<256x256xi64>
  return %0 : tensor<256x256xf32>
}

// -----

// Below the threshold: no threads; one loop over the rows, each with the
// vectors, then the rest (37 = 2 x 16 + 5) as scalars (no masks), both
// checking the values they read.
// CHECK-LABEL: func.func @small_with_remainder
// CHECK-NOT:     scf.forall
// CHECK-NOT:     memref.alloca
// CHECK:         scf.for %{{.*}} = %c0 to %c5 step %c1 iter_args({{.*}}) -> (tensor<5x37xf32>, i1)
// CHECK:           scf.for %{{.*}} = %c0 to %c32 step %c16 iter_args({{.*}}) -> (tensor<5x37xf32>, vector<16xi1>)
// CHECK:             vector.gather
// CHECK:           vector.reduction <or>
// CHECK:           scf.for %{{.*}} = %c32 to %c37 step %c1 iter_args({{.*}}) -> (tensor<5x37xf32>, i1)
// CHECK:             tensor.extract
// CHECK-NOT:     vector.mask
// CHECK-NOT:     linalg.generic
// ALL-LABEL: func.func @small_with_remainder
// ALL:         scf.forall (%{{.*}}) in (5)
func.func @small_with_remainder(%d: tensor<5x37xf32>, %i: tensor<5x37xi64>) -> tensor<5x37xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<5x37xf32>, tensor<5x37xi64>
  return %0 : tensor<5x37xf32>
}

// -----

// Dynamic shapes decide at run time: threads if the element count reaches
// the threshold (8192), the same loops serially otherwise. The innermost
// loop stops at the last multiple of 16; the rest is scalar. With axis 0,
// the lane's position along the row goes into the gather's base and the
// offsets are index * row length + lane.
// CHECK-LABEL: func.func @dynamic
// CHECK:         %[[N0:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x?xi32>
// CHECK:         %[[COUNT:.*]] = arith.muli %[[N0]], %{{.*}} : index
// CHECK:         %[[ENOUGH:.*]] = arith.cmpi uge, %[[COUNT]], %c8192 : index
// CHECK:         scf.if %[[ENOUGH]] -> (tensor<?x?xf32>, i1) {
// CHECK:           scf.forall
// CHECK:             scf.for
// CHECK:               vector.step
// CHECK:               vector.gather %{{.*}}[%c0, %{{.*}}] [
// CHECK:             scf.for
// CHECK:         } else {
// CHECK-NOT:       scf.forall
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               vector.gather
// CHECK:             scf.for
// CHECK-NOT:     vector.mask
func.func @dynamic(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %0 = onnx.GatherElements %d, %i axis = 0 : tensor<?x?xf32>, tensor<?x?xi32>
  return %0 : tensor<?x?xf32>
}

// -----

// Fewer elements than one vector: scalar loops, still one pass that gathers
// and checks.
// CHECK-LABEL: func.func @tiny
// CHECK-NOT:     vector.
// CHECK-NOT:     scf.forall
// CHECK:         scf.for {{.*}} -> (tensor<2x3xf32>, i1)
// CHECK:           scf.for {{.*}} -> (tensor<2x3xf32>, i1)
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @tiny(%d: tensor<2x3xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<2x3xf32>, tensor<2x3xi64>
  return %0 : tensor<2x3xf32>
}

// -----

// Complex numbers cannot be vector elements: scalar loops, still threaded.
// CHECK-LABEL: func.func @complex
// CHECK:         scf.forall
// CHECK-NOT:     vector.
// CHECK:         return
func.func @complex(%d: tensor<256x256xcomplex<f32>>, %i: tensor<256x256xi64>) -> tensor<256x256xcomplex<f32>> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xcomplex<f32>>, tensor<256x256xi64>
  return %0 : tensor<256x256xcomplex<f32>>
}

// -----

// i1 data (one byte per element in memory) is not vectorized either.
// CHECK-LABEL: func.func @booleans
// CHECK:         scf.forall
// CHECK-NOT:     vector.
// CHECK:         return
func.func @booleans(%d: tensor<256x256xi1>, %i: tensor<256x256xi64>) -> tensor<256x256xi1> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xi1>, tensor<256x256xi64>
  return %0 : tensor<256x256xi1>
}

// -----

// Rank 1: threads over chunks of 16384 elements (7 chunks, the last partial).
// CHECK-LABEL: func.func @rank1
// CHECK:         scf.forall (%{{.*}}) = (0) to (100000) step (16384)
// CHECK:           arith.minsi
// CHECK:           vector.gather
// CHECK:           memref.atomic_rmw
// CHECK:         return
func.func @rank1(%d: tensor<100000xf32>, %i: tensor<100000xi64>) -> tensor<100000xf32> {
  %0 = onnx.GatherElements %d, %i : tensor<100000xf32>, tensor<100000xi64>
  return %0 : tensor<100000xf32>
}
