// REQUIRES: jit
// --link-nested-modules (as mlir-runner): the nested module is translated on
// its own and linked in, so @main finds @seven. Without it, @seven is missing.
// RUN: gather-runner %s -e main --entry-point-result=i64 --link-nested-modules | FileCheck %s
// CHECK: 7
// RUN: not gather-runner %s -e main --entry-point-result=i64 2>&1 | FileCheck %s --check-prefix=UNLINKED
// UNLINKED: error: JIT compilation failed: function 'seven' (at {{.*}}link-nested-modules.mlir:[[# @LINE + 18]]:3) is defined neither in the module nor in the process; link or load the library that defines it
// A public symbol that both modules define is an error at the nested
// definition (not LLVM's unlocated "symbol multiply defined", which exits);
// any other link failure is located at the nested module with the linker's
// message.
// RUN: not gather-runner %S/Inputs/link-clash.mlir -e main --entry-point-result=i32 --link-nested-modules 2>&1 | FileCheck %s --check-prefix=CLASH
// CLASH: link-clash.mlir:3:5: error: --link-nested-modules: 'same' is defined both in the nested module and in the outer one (make one of them private)
// CLASH-NEXT: link-clash.mlir:8:3: note: the outer definition
// RUN: not gather-runner %S/Inputs/link-appending-clash.mlir -e main --entry-point-result=i32 --link-nested-modules 2>&1 | FileCheck %s --check-prefix=APPENDING
// APPENDING: link-appending-clash.mlir:2:3: error: --link-nested-modules: linking the nested module failed: Appending variables with different element types!

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
