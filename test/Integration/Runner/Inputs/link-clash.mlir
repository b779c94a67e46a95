module {
  module @kernels {
    func.func @same() -> i32 {
      %c = arith.constant 1 : i32
      return %c : i32
    }
  }
  func.func @same() -> i32 {
    %c = arith.constant 2 : i32
    return %c : i32
  }
  func.func @main() -> i32 {
    %0 = call @same() : () -> i32
    return %0 : i32
  }
}
