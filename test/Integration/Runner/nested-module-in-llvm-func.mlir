// REQUIRES: jit
// A builtin.module that is already LLVM dialect inside an llvm.func's block
// is left as it is (nothing lowers there; the translation takes it): it
// runs as before. A module that needs lowering there is still an error
// (Pipelines/nested-module-placement.mlir).
// RUN: gather-runner %s -e main --entry-point-result=i64 | FileCheck %s
// CHECK: {{^}}4{{$}}

llvm.func @main() -> i64 {
  %c = llvm.mlir.constant(4 : i64) : i64
  llvm.br ^bb1
^bb1:
  builtin.module {
    llvm.func @q() { llvm.return }
  }
  llvm.return %c : i64
}
