// REQUIRES: jit
// --link-nested-modules (as mlir-runner): the nested module is translated on
// its own and linked in, so @main finds @seven. Without it, @seven is missing.
// RUN: gather-runner %s -e main --entry-point-result=i64 --link-nested-modules | FileCheck %s
// CHECK: 7
// RUN: not gather-runner %s -e main --entry-point-result=i64 2>&1 | FileCheck %s --check-prefix=UNLINKED
// UNLINKED: Symbols not found: [ seven ]

module {
  module @kernels {
    llvm.func @seven() -> i64 {
      %0 = llvm.mlir.constant(7 : i64) : i64
      llvm.return %0 : i64
    }
  }
  llvm.func @seven() -> i64
  llvm.func @main() -> i64 {
    %0 = llvm.call @seven() : () -> i64
    llvm.return %0 : i64
  }
}
