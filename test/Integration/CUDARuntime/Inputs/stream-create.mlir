// A module in the LLVM dialect that calls gather's CUDA runtime directly
// (jit-runner.test, jit-kernel-api.test).
module {
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
  llvm.func @main() {
    %stream = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    llvm.call @mgpuStreamDestroy(%stream) : (!llvm.ptr) -> ()
    llvm.return
  }
}
