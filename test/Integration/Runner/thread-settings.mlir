// REQUIRES: jit
// Thread settings that LLVM's OpenMP runtime aborts or hangs on are rejected
// before it starts, with an error naming the setting (exit status 1; `not`
// fails on a signal); num-threads is clamped to 1024.
//
// RUN: env OMP_NUM_THREADS=-1 not gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=MINUS
// MINUS: error: OMP_NUM_THREADS='-1' is invalid: expected a comma-separated list of thread counts in [1, 1024] (or unset)
// RUN: env OMP_NUM_THREADS= not gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: OMP_NUM_THREADS='' is invalid
// RUN: env OMP_NUM_THREADS=2147483647 not gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: OMP_NUM_THREADS='2147483647' is invalid
// RUN: env OMP_NUM_THREADS=abc not gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=ABC
// ABC: error: OMP_NUM_THREADS='abc' is invalid
// RUN: env OMP_NUM_THREADS=0 not gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: OMP_NUM_THREADS='0' is invalid
// RUN: env OMP_NUM_THREADS=2,abc not gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=LIST
// LIST: error: OMP_NUM_THREADS='2,abc' is invalid
// RUN: env OMP_THREAD_LIMIT=-5 not gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: error: OMP_THREAD_LIMIT='-5' is invalid: expected a thread count in [1, 1024] (or unset)
// A thread stack libomp cannot allocate (it would abort), or not a size:
// RUN: env OMP_STACKSIZE=64G not gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=STACK
// STACK: error: OMP_STACKSIZE='64G' is invalid: expected a stack size of at most 1G (a number with an optional unit B, K, M or G; K if none) (or unset)
// STACK-NOT: OMP: Error
// RUN: env KMP_STACKSIZE=99999999999999999999 not gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=KMP-STACK
// KMP-STACK: error: KMP_STACKSIZE='99999999999999999999' is invalid
// RUN: env OMP_STACKSIZE=4X not gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=STACK-UNIT
// STACK-UNIT: error: OMP_STACKSIZE='4X' is invalid
// RUN: env OMP_STACKSIZE=0 not gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=STACK-ZERO
// STACK-ZERO: error: OMP_STACKSIZE='0' is invalid
// The JIT library's users (gather-bench) check the same before libomp starts:
// RUN: env OMP_NUM_THREADS=abc not gather-bench --workloads=%S/../Bench/Inputs/small.json 2>&1 | FileCheck %s --check-prefix=BENCH
// BENCH: gather-bench: OMP_NUM_THREADS='abc' is invalid
//
// Valid settings run, threaded:
// RUN: env OMP_NUM_THREADS=3 gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=OK
// RUN: env OMP_NUM_THREADS=2,1 gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=OK
// RUN: env OMP_STACKSIZE=" 1g " KMP_STACKSIZE=512 GOMP_STACKSIZE=4096b gather-runner %s -e main --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=OK
// OK-NOT: error
// OK: result 0: tensor<3xf32> = [2, 1, 2]
//
// num-threads above 1024 is clamped (a constant 1024 in the num_threads
// clause), and runs:
// RUN: gather-opt %s --onnx-to-llvm="num-threads=100000" | FileCheck %s --check-prefix=CLAMP
// CLAMP: %[[N:.*]] = llvm.mlir.constant(1024 : i32) : i32
// CLAMP: omp.parallel num_threads(%[[N]] : i32)
// RUN: gather-runner %s -e main --entry-point-result=void --pipeline-options="num-threads=100000" 2>&1 | FileCheck %s --check-prefix=OK

func.func @main() -> tensor<3xf32> {
  %n = arith.constant 100000 : index
  %one = arith.constant 1 : i64
  %i = tensor.splat %one[%n] : tensor<?xi64>
  %zero = arith.constant 0 : i64
  %c1 = arith.constant 1 : index
  %i1 = tensor.insert %zero into %i[%c1] : tensor<?xi64>
  %d0 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %d = tensor.cast %d0 : tensor<2xf32> to tensor<?xf32>
  %r = onnx.GatherElements %d, %i1 axis = 0 : tensor<?xf32>, tensor<?xi64>
  %v = tensor.extract_slice %r[0] [3] [1] : tensor<?xf32> to tensor<3xf32>
  return %v : tensor<3xf32>
}
