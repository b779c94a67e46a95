// REQUIRES: jit
// A standard output that closes or fails is a reported write error with exit
// status 1, not SIGPIPE (status 141 from the shell): gather-runner ignores
// SIGPIPE. The reader of the pipe closes it after one byte of the 5 MB of
// results; each printer reports it, and what else writes to the standard
// output (printMemref's std::cout, JitRunner's llvm::outs()) is checked at
// the end.
// RUN: sh -c "(gather-runner %s -e main --entry-point-result=void 2>%t.err; echo exit status \$? >%t.status) | head -c 1 >/dev/null"
// RUN: FileCheck %s --check-prefix=PIPE < %t.err
// RUN: FileCheck %s --check-prefix=STATUS < %t.status
// PIPE: error: cannot write result 0 to the standard output: Broken pipe
// STATUS: exit status 1
// RUN: sh -c "(gather-runner %s -e print_memref --entry-point-result=void 2>%t.err; echo exit status \$? >%t.status) | head -c 1 >/dev/null"
// RUN: FileCheck %s --check-prefix=MEMREF < %t.err
// RUN: FileCheck %s --check-prefix=STATUS < %t.status
// MEMREF: error: cannot write the results to the standard output
// RUN: not gather-runner %s -e print_memref --entry-point-result=void 2>&1 >/dev/full | FileCheck %s --check-prefix=MEMREF
// RUN: not gather-runner %s -e scalar --entry-point-result=f32 2>&1 >/dev/full | FileCheck %s --check-prefix=FULL
// FULL: error: cannot write the results to the standard output: No space left on device
// A standard output closed from the start: the results went into the next
// file opened (the JIT's profiling dump), exit status 0; now a write error.
// RUN: sh -c "gather-runner %s -e main --entry-point-result=void >&- 2>%t.err; echo exit status \$? >%t.status"
// RUN: FileCheck %s --check-prefix=CLOSED < %t.err
// RUN: FileCheck %s --check-prefix=STATUS < %t.status
// CLOSED: error: cannot write the results to the standard output: Bad file descriptor

func.func @main() -> tensor<1000x1000xf32> {
  %d = arith.constant dense<1.5> : tensor<1000x1000xf32>
  return %d : tensor<1000x1000xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print_memref() {
  %d = arith.constant dense<1.5> : tensor<1000x1000xf32>
  %u = tensor.cast %d : tensor<1000x1000xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @scalar() -> f32 {
  %c = arith.constant 1.5 : f32
  return %c : f32
}
