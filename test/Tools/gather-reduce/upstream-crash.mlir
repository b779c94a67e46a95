// MLIR 22's reduction-tree pass crashes (SIGSEGV in ReductionNode) when the
// folding of its last phase makes the region it reduces uninteresting, here
// by folding the constant gather that the (deterministic) test looks for.
// gather-reduce runs mlir-reduce in a child process: the crash is an error
// with exit status 1 that names the smallest interesting candidate found.
// RUN: not gather-reduce %s '--reduction-tree=traversal-mode=0 test=%S/Inputs/has-gather.sh' 2>%t.err
// RUN: FileCheck %s < %t.err
// CHECK: gather-reduce: error: mlir-reduce ended by signal {{[0-9]+}} (MLIR 22's reduction-tree pass crashes when folding makes the region it reduces uninteresting); the smallest interesting candidate it found is [[FILE:.*\.mlir]]
// RUN: sed -n 's/.*the smallest interesting candidate it found is //p' %t.err | xargs cat | FileCheck %s --check-prefix=SMALLEST
// SMALLEST: onnx.GatherElements
// RUN: sed -n 's/.*the smallest interesting candidate it found is //p' %t.err | xargs rm

func.func @spec() -> tensor<2x2xf32> {
  %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %o = onnx.GatherElements %d, %i axis = 1 : tensor<2x2xf32>, tensor<2x2xi64>
  return %o : tensor<2x2xf32>
}
