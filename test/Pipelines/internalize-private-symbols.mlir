// gather-internalize-private-symbols: private definitions with external
// linkage become internal; declarations, other linkages and the symbols of
// a nested module (translated on its own) are left as they are.
// RUN: gather-opt %s --pass-pipeline='builtin.module(gather-internalize-private-symbols)' | FileCheck %s
// CHECK: module @nested
// CHECK-NEXT: llvm.func @nested_private() attributes {sym_visibility = "private"}
// CHECK: llvm.func internal @own() attributes {sym_visibility = "private"}
// CHECK: llvm.func @public()
// CHECK: llvm.func @declared() attributes {sym_visibility = "private"}
// CHECK: llvm.func weak @weak_private() attributes {sym_visibility = "private"}
// CHECK: llvm.mlir.global internal @own_global(1 : i64) {{.*}}sym_visibility = "private"
// CHECK: llvm.mlir.global internal @own_initialized() {{.*}}sym_visibility = "private"
// CHECK: llvm.mlir.global external @declared_global() {{.*}}sym_visibility = "private"
// CHECK: llvm.mlir.global external @public_global(2 : i64)

module {
  module @nested {
    llvm.func @nested_private() attributes {sym_visibility = "private"} {
      llvm.return
    }
  }
  llvm.func @own() attributes {sym_visibility = "private"} {
    llvm.return
  }
  llvm.func @public() {
    llvm.return
  }
  llvm.func @declared() attributes {sym_visibility = "private"}
  llvm.func weak @weak_private() attributes {sym_visibility = "private"} {
    llvm.return
  }
  llvm.mlir.global external @own_global(1 : i64) {sym_visibility = "private"} : i64
  llvm.mlir.global external @own_initialized() {sym_visibility = "private"} : i64 {
    %0 = llvm.mlir.constant(3 : i64) : i64
    llvm.return %0 : i64
  }
  llvm.mlir.global external @declared_global() {sym_visibility = "private"} : i64
  llvm.mlir.global external @public_global(2 : i64) : i64
}
