// onnx-to-llvm runs the whole pipeline on each nested builtin.module that
// holds ops other than llvm ones, deepest first (gather-pipeline-nested-
// modules): afterwards every module is in the LLVM dialect, and the gathers
// of nested modules got gather-codegen's loops (it runs on func.func, which
// the outer module's pipeline does not reach in a nested module).
// RUN: gather-opt %s --onnx-to-llvm="vector-size=8 gather-form=hardware" | FileCheck %s
// CHECK-LABEL: module @kernels
// CHECK: llvm.func @inner(
// CHECK: llvm.intr.masked.gather
// CHECK: module @deeper
// CHECK: llvm.func @deepest(
// CHECK: llvm.intr.masked.gather
// CHECK: module @lowered
// CHECK: llvm.func @seven()
// CHECK: llvm.func @outer(
// CHECK-NOT: onnx.
// CHECK-NOT: func.func
//
// Invalid options of the pass are a located error, not an abort.
// RUN: not gather-opt %s --gather-lower-nested-modules="pipeline-options=vector-size=x" 2>&1 | FileCheck %s --check-prefix=OPTIONS
// OPTIONS: error: gather-lower-nested-modules: invalid pipeline-options 'vector-size=x': invalid value 'x' for option 'vector-size'
//

module {
  module @kernels {
    func.func @inner(%d: tensor<4x64xf32>, %i: tensor<4x64xi64>) -> tensor<4x64xf32> {
      %0 = onnx.GatherElements %d, %i {axis = 1 : si64} : tensor<4x64xf32>, tensor<4x64xi64>
      return %0 : tensor<4x64xf32>
    }
    module @deeper {
      func.func @deepest(%d: tensor<4x64xf64>, %i: tensor<4x64xi32>) -> tensor<4x64xf64> {
        %0 = onnx.GatherElements %d, %i {axis = 1 : si64} : tensor<4x64xf64>, tensor<4x64xi32>
        return %0 : tensor<4x64xf64>
      }
    }
  }
  module @lowered {
    llvm.func @seven() -> i64 {
      %0 = llvm.mlir.constant(7 : i64) : i64
      llvm.return %0 : i64
    }
  }
  func.func @outer(%d: tensor<4x64xf32>, %i: tensor<4x64xi64>) -> tensor<4x64xf32> {
    %0 = onnx.GatherElements %d, %i {axis = 1 : si64} : tensor<4x64xf32>, tensor<4x64xi64>
    return %0 : tensor<4x64xf32>
  }
}
