// A gather whose loops prefetch, of a 'data' with a static size 0 and a
// dynamic one: the prefetcher's flat view of 'data' has a dynamic size (a
// static 0 would fail memref.collapse_shape's verifier: "collapsed dim (0)
// must be dynamic if and only if reassociation group is dynamic"). Found by
// gather-fuzz-runner.
//
// RUN: gather-opt %s --onnx-to-llvm="runtime-checks=0 vector-size=16 num-threads=2 gather-form=hardware" | FileCheck %s
// RUN: gather-opt %s --onnx-to-llvm | FileCheck %s

// CHECK: llvm.func @_mlir_ciface_kernel
func.func @kernel(%data: memref<5x0x?xi32>, %indices: memref<?x?x?xi64>, %out: memref<?x?x?xi32>) attributes {llvm.emit_c_interface} {
  %d = bufferization.to_tensor %data restrict : memref<5x0x?xi32> to tensor<5x0x?xi32>
  %i = bufferization.to_tensor %indices restrict : memref<?x?x?xi64> to tensor<?x?x?xi64>
  %r = onnx.GatherElements %d, %i axis = -1 : tensor<5x0x?xi32>, tensor<?x?x?xi64> -> tensor<?x?x?xi32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?x?xi32>, memref<?x?x?xi32>) -> ()
  return
}
