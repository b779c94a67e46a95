// An output file (-o) that cannot be written is an error before the
// reduction, with the reason; mlir-reduce would fail at the end without a
// word. A writable one gets the reduced module.

// RUN: rm -rf %t && mkdir -p %t
// RUN: not gather-reduce %s '--reduction-tree=traversal-mode=0 test=%S/Inputs/has-gather.sh' -o %t/missing/out.mlir 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: gather-reduce: error: cannot write the output file '{{.*}}missing/out.mlir': no directory '{{.*}}missing'
// RUN: not gather-reduce %s '--reduction-tree=traversal-mode=0 test=%S/Inputs/has-gather.sh' --o=%t 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: gather-reduce: error: cannot write the output file '{{.*}}': it is a directory
// RUN: not gather-reduce %s '--reduction-tree=traversal-mode=0 test=%S/Inputs/has-gather.sh' -o= 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: gather-reduce: error: the output file name (-o) is empty
// RUN: gather-reduce %s '--reduction-tree=traversal-mode=0 test=%S/Inputs/has-gather.sh' -o %t/out.mlir
// RUN: FileCheck %s --input-file %t/out.mlir
// CHECK: onnx.GatherElements
// CHECK-NOT: func.func @unused

func.func @unused(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  return %arg0 : tensor<2xf32>
}
func.func @g(%arg0: tensor<3xf32>, %arg1: tensor<2xi64>) -> tensor<2xf32> {
  %0 = onnx.GatherElements %arg0, %arg1 axis = 0 : tensor<3xf32>, tensor<2xi64>
  return %0 : tensor<2xf32>
}
