module {
  module @kernels {
    llvm.mlir.global appending @table(dense<[1, 2]> : tensor<2xi32>) : !llvm.array<2 x i32>
  }
  llvm.mlir.global appending @table(dense<[1, 2]> : tensor<2xi64>) : !llvm.array<2 x i64>
  func.func @main() -> i32 {
    %c = arith.constant 3 : i32
    return %c : i32
  }
}
