// REQUIRES: jit
// ASan reserves terabytes of virtual memory for its shadow, so `ulimit -v`
// cannot apply to a sanitizer build.
// UNSUPPORTED: asan
// Heap allocations that cannot succeed are reported through gather's runtime
// (gather-check-allocations) with the bytes requested and the buffer's op,
// and gather-runner exits with status 1: no crash on a null buffer or on a
// byte size that wraps around. (`not` fails on a signal.) `ulimit -v` keeps
// every case from touching real memory on machines with plenty of it.
//
// A static shape whose byte size does not fit in 64 bits (the folder and the
// verifier count its elements without wrap-around): as a splat constant it
// is a compile-time error (it would be expanded in LLVM IR,
// gather/Support/ConstantSizes.h); as a buffer the allocation is refused
// before malloc:
// RUN: (ulimit -v 4000000; not gather-runner %S/Inputs/static-overflow-constant.mlir -e static_overflow --entry-point-result=void 2>&1) | FileCheck %s --check-prefix=STATIC
// STATIC: {{.*}}static-overflow-constant.mlir:3:8: error: splat constant of type 'tensor<2x9223372036854775807xi64>' is too large: 147573952589676412912 bytes once expanded, more than the limit of 1073741824 bytes (1 GiB)
// STATIC-NOT: result
// RUN: (ulimit -v 4000000; not gather-runner %s -e static_buffer_overflow --entry-point-result=void 2>&1) | FileCheck %s --check-prefix=STATIC-BUFFER
// STATIC-BUFFER: {{.*}}allocation-errors.mlir:[[# @LINE + 45]]:8: error: out of memory: cannot allocate more than 9223372036854775807 bytes for memref<2x9223372036854775807xi64>
// STATIC-BUFFER-NOT: result
//
// 10^10 dynamic indices (80 GB) feeding a kernel with a `?` result: the
// indices cannot be allocated.
// RUN: (ulimit -v 4000000; not gather-runner %s -e ten_billion --entry-point-result=void 2>&1) | FileCheck %s --check-prefix=TEN-BILLION
// TEN-BILLION: {{.*}}allocation-errors.mlir:[[# @LINE + 78]]:8: error: out of memory: cannot allocate 80000000000 bytes for memref<?xi64>
// TEN-BILLION-NOT: result
//
// A dynamic size whose byte count wraps (2^62 i64 elements = 2^65 bytes):
// RUN: (ulimit -v 4000000; not gather-runner %s -e dynamic_overflow --entry-point-result=void 2>&1) | FileCheck %s --check-prefix=DYN-OVERFLOW
// DYN-OVERFLOW: {{.*}}allocation-errors.mlir:[[# @LINE + 73]]:8: error: out of memory: cannot allocate more than 9223372036854775807 bytes for memref<?xi64>
//
// A 800 MB result (f64) of 400 MB indices (i32) under a 1 GB address-space
// limit: the indices fit, the gather's result does not.
// RUN: (ulimit -v 1000000; not gather-runner %s -e result_too_large --entry-point-result=void 2>&1) | FileCheck %s --check-prefix=LARGE
// LARGE: {{.*}}allocation-errors.mlir:[[# @LINE + 12]]:8: error: out of memory: cannot allocate 800000000 bytes for onnx.GatherElements (memref<?xf64>)
// LARGE-NOT: result
//
// The same with --on-runtime-error=continue: allocation failures cannot be
// continued from; the process still exits with status 1.
// RUN: (ulimit -v 4000000; not gather-runner %s -e ten_billion --entry-point-result=void --on-runtime-error=continue 2>&1) | FileCheck %s --check-prefix=TEN-BILLION
//
// A small gather under the same limits runs normally.
// RUN: (ulimit -v 1000000; gather-runner %s -e small --entry-point-result=void 2>&1) | FileCheck %s --check-prefix=SMALL
// SMALL: result 0: tensor<3xf64> = [2, 1, 2]

func.func @gather_f64(%d: tensor<?xf64>, %i: tensor<?xi32>) -> tensor<?xf64> {
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<?xf64>, tensor<?xi32>
  return %r : tensor<?xf64>
}

func.func @gather_f32(%d: tensor<?xf32>, %i: tensor<?xi64>) -> tensor<?xf32> {
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<?xf32>, tensor<?xi64>
  return %r : tensor<?xf32>
}

func.func private @zero() -> i64 {
  %c = arith.constant 0 : i64
  return %c : i64
}

func.func @static_buffer_overflow() -> tensor<2x9223372036854775807xf32> {
  %d = arith.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %z = call @zero() : () -> i64
  %i = tensor.splat %z : tensor<2x9223372036854775807xi64>
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<2x1xf32>, tensor<2x9223372036854775807xi64>
  return %r : tensor<2x9223372036854775807xf32>
}

func.func @indices(%n: index, %value: i32) -> tensor<?xi32> {
  %i = tensor.splat %value[%n] : tensor<?xi32>
  return %i : tensor<?xi32>
}

func.func @data() -> tensor<?xf64> {
  %d = arith.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %r = tensor.cast %d : tensor<2xf64> to tensor<?xf64>
  return %r : tensor<?xf64>
}

func.func @result_too_large() -> tensor<?xf64> {
  %n = arith.constant 100000000 : index
  %one = arith.constant 1 : i32
  %i = func.call @indices(%n, %one) : (index, i32) -> tensor<?xi32>
  %d = func.call @data() : () -> tensor<?xf64>
  %r = func.call @gather_f64(%d, %i) : (tensor<?xf64>, tensor<?xi32>) -> tensor<?xf64>
  return %r : tensor<?xf64>
}

func.func @small() -> tensor<?xf64> {
  %n = arith.constant 3 : index
  %one = arith.constant 1 : i32
  %i0 = func.call @indices(%n, %one) : (index, i32) -> tensor<?xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  %i = tensor.insert %c0 into %i0[%c1] : tensor<?xi32>
  %d = func.call @data() : () -> tensor<?xf64>
  %r = func.call @gather_f64(%d, %i) : (tensor<?xf64>, tensor<?xi32>) -> tensor<?xf64>
  return %r : tensor<?xf64>
}

func.func @splat_i64(%n: index) -> tensor<?xi64> {
  %zero = arith.constant 0 : i64
  %i = tensor.splat %zero[%n] : tensor<?xi64>
  return %i : tensor<?xi64>
}

func.func @ten_billion() -> tensor<?xf32> {
  %n = arith.constant 10000000000 : index
  %i = func.call @splat_i64(%n) : (index) -> tensor<?xi64>
  %d0 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %d = tensor.cast %d0 : tensor<2xf32> to tensor<?xf32>
  %r = func.call @gather_f32(%d, %i) : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @dynamic_overflow() -> tensor<?xf32> {
  %n = arith.constant 4611686018427387904 : index
  %i = func.call @splat_i64(%n) : (index) -> tensor<?xi64>
  %d0 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %d = tensor.cast %d0 : tensor<2xf32> to tensor<?xf32>
  %r = func.call @gather_f32(%d, %i) : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
