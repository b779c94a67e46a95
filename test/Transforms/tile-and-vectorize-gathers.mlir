// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --linalg-tile-and-vectorize-gathers --canonicalize --cse --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --linalg-tile-and-vectorize-gathers="vector-size=0 parallel=false" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=SCALAR
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --linalg-tile-and-vectorize-gathers="parallel-threshold=0" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=ALL
// RUN: not gather-opt %s --linalg-tile-and-vectorize-gathers="vector-size=-1" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gather-opt %s --linalg-tile-and-vectorize-gathers="vector-size=257" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gather-opt %s --onnx-to-llvm="parallel-threshold=-5" 2>&1 | FileCheck %s --check-prefix=BAD
// vector-size=1 is scalar code.
// RUN: gather-opt %s --convert-onnx-to-linalg --canonicalize --cse --linalg-tile-and-vectorize-gathers="vector-size=1" --split-input-file | FileCheck %s --check-prefix=SCALAR

// BAD: error: linalg-tile-and-vectorize-gathers: vector-size must be in [0, 256], parallel-threshold >= 0 and parallel-chunk >= 1
// BAD-NOT: error

// A large static gather (2^16 elements, the default threshold): one
// scf.forall over the rows holds the gather, tiled by 16 and vectorized into
// vector.gather, and the index check of the same row.
// CHECK-LABEL: func.func @large
// CHECK:         scf.forall (%[[ROW:.*]]) in (256) shared_outs(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<256x256xf32>, tensor<256xi1>)
// CHECK:           scf.for %{{.*}} = %c0 to %c256 step %c16
// CHECK:             vector.transfer_read {{.*}}, vector<16xi64>
// CHECK:             vector.gather {{.*}} : tensor<256x256xf32>, vector<16xindex>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK:             vector.transfer_write {{.*}} : vector<16xf32>, tensor<
// CHECK:           linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK:           scf.forall.in_parallel
// CHECK-NOT:     scf.forall
// SCALAR-LABEL: func.func @large
// SCALAR-NOT:     vector.
// SCALAR:         return
func.func @large(%d: tensor<256x256xf32>, %i: tensor<256x256xi64>) -> tensor<256x256xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xf32>, tensor<256x256xi64>
  return %0 : tensor<256x256xf32>
}

// -----

// `data` is a slice (strided rows): vector.gather would read the wrong
// elements, so the gather stays scalar (still threaded).
// CHECK-LABEL: func.func @strided_data
// CHECK:         scf.forall
// CHECK-NOT:     vector.gather
// CHECK:         return
func.func @strided_data(%d: tensor<256x512xf32>, %i: tensor<256x256xi64>) -> tensor<256x256xf32> {
  %s = tensor.extract_slice %d[0, 0] [256, 256] [1, 1] : tensor<256x512xf32> to tensor<256x256xf32>
  %0 = onnx.GatherElements %s, %i axis = 1 : tensor<256x256xf32>, tensor<256x256xi64>
  return %0 : tensor<256x256xf32>
}

// -----

// Below the threshold: no threads; the rows are still visited by one loop
// (gather, then check of the row). 37 = 2 x 16 + 5: the last, partial
// vector tile is peeled and stays scalar (no masks).
// CHECK-LABEL: func.func @small_with_remainder
// CHECK-NOT:     scf.forall
// CHECK:         scf.for %{{.*}} = %c0 to %c5 step %c1
// CHECK:           scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK:             vector.gather
// CHECK:           linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel"]
// CHECK-SAME:        tensor<1x5xi64>
// CHECK-NOT:     vector.mask
// ALL-LABEL: func.func @small_with_remainder
// ALL:         scf.forall (%{{.*}}) in (5)
func.func @small_with_remainder(%d: tensor<5x37xf32>, %i: tensor<5x37xi64>) -> tensor<5x37xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<5x37xf32>, tensor<5x37xi64>
  return %0 : tensor<5x37xf32>
}

// -----

// Dynamic shapes are threaded whatever their size; the innermost loop is
// peeled at the last multiple of 16.
// CHECK-LABEL: func.func @dynamic
// CHECK:         scf.forall
// CHECK:           scf.for
// CHECK:             vector.gather
// CHECK:           scf.for
// CHECK:             linalg.generic
// CHECK-NOT:     vector.mask
func.func @dynamic(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %0 = onnx.GatherElements %d, %i axis = 0 : tensor<?x?xf32>, tensor<?x?xi32>
  return %0 : tensor<?x?xf32>
}

// -----

// Fewer elements than one vector: scalar, untouched.
// CHECK-LABEL: func.func @tiny
// CHECK-NOT:     vector.
// CHECK-NOT:     scf.forall
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
// CHECK:           vector.gather
// CHECK:         return
func.func @rank1(%d: tensor<100000xf32>, %i: tensor<100000xi64>) -> tensor<100000xf32> {
  %0 = onnx.GatherElements %d, %i : tensor<100000xf32>, tensor<100000xi64>
  return %0 : tensor<100000xf32>
}
