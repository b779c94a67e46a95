module {
  func.func @main() -> tensor<2xi32> {
    %d = arith.constant dense<[10, 20]> : tensor<2xi32>
    %i = arith.constant dense<[1, 0]> : tensor<2xi64>
    %r = scf.execute_region -> tensor<2xi32> {
      builtin.module {
        func.func @k(%a: tensor<?xi32>, %b: tensor<?xi64>) -> tensor<?xi32> {
          %0 = onnx.GatherElements %a, %b : tensor<?xi32>, tensor<?xi64>
          return %0 : tensor<?xi32>
        }
      }
      %0 = onnx.GatherElements %d, %i : tensor<2xi32>, tensor<2xi64>
      scf.yield %0 : tensor<2xi32>
    }
    return %r : tensor<2xi32>
  }
}
