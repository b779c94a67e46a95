// REQUIRES: jit
// The module's error sink, __gather_error_sink (docs/RuntimeErrors.md), is
// reserved in gather-runner too, with or without a gather in the module,
// whatever kind of symbol takes the name (before: a func.func of that name in
// a module without gathers crashed gather-runner), and a global of that name
// must be one the JIT can look up and the runtime can write.
// RUN: split-file %s %t
// RUN: not gather-runner %t/func.mlir -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=FUNC
// RUN: not gather-runner %t/memref.mlir -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=MEMREF
// RUN: not gather-runner %t/addrspace.mlir -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=ADDRSPACE
// RUN: not gather-runner %t/declared.mlir -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=DECLARED
// RUN: not gather-runner %t/threadlocal.mlir -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=THREADLOCAL
// FUNC: func.mlir:5:1: error: symbol '__gather_error_sink' is reserved for gather's runtime and must be a mutable, defined, weak or external llvm.mlir.global of type !llvm.struct<(ptr, ptr)> in address space 0, not thread-local
// MEMREF: memref.mlir:5:1: error: symbol '__gather_error_sink' is reserved
// ADDRSPACE: addrspace.mlir:1:1: error: symbol '__gather_error_sink' is reserved
// DECLARED: declared.mlir:1:1: error: symbol '__gather_error_sink' is reserved
// THREADLOCAL: threadlocal.mlir:1:1: error: symbol '__gather_error_sink' is reserved
// FUNC-NOT: PLEASE submit

//--- func.mlir
func.func @main() -> tensor<1xf32> {
  %c = arith.constant dense<1.0> : tensor<1xf32>
  return %c : tensor<1xf32>
}
func.func @__gather_error_sink() {
  return
}

//--- memref.mlir
func.func @main() -> tensor<1xf32> {
  %c = arith.constant dense<1.0> : tensor<1xf32>
  return %c : tensor<1xf32>
}
memref.global "private" @__gather_error_sink : memref<2xi64> = dense<0>

//--- addrspace.mlir
llvm.mlir.global weak @__gather_error_sink() {addr_space = 1 : i32} : !llvm.struct<(ptr, ptr)> {
  %0 = llvm.mlir.zero : !llvm.struct<(ptr, ptr)>
  llvm.return %0 : !llvm.struct<(ptr, ptr)>
}
func.func @id(%i: tensor<2xi64>) -> tensor<2xi64> {
  return %i : tensor<2xi64>
}
func.func @main() -> tensor<2xf32> {
  %d = arith.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %c = arith.constant dense<[0, 2]> : tensor<2xi64>
  %i = func.call @id(%c) : (tensor<2xi64>) -> tensor<2xi64>
  %g = onnx.GatherElements %d, %i : tensor<3xf32>, tensor<2xi64>
  return %g : tensor<2xf32>
}

//--- declared.mlir
llvm.mlir.global external @__gather_error_sink() : !llvm.struct<(ptr, ptr)>
func.func @main() -> tensor<1xf32> {
  %c = arith.constant dense<1.0> : tensor<1xf32>
  return %c : tensor<1xf32>
}

//--- threadlocal.mlir
llvm.mlir.global weak thread_local @__gather_error_sink() : !llvm.struct<(ptr, ptr)> {
  %0 = llvm.mlir.zero : !llvm.struct<(ptr, ptr)>
  llvm.return %0 : !llvm.struct<(ptr, ptr)>
}
func.func @main() -> tensor<1xf32> {
  %c = arith.constant dense<1.0> : tensor<1xf32>
  return %c : tensor<1xf32>
}
