func.func @f() -> tensor<3037000500x3037000500xi64> {
 %d = arith.constant dense<1> : tensor<3037000500x3037000500xi64>
 %i = arith.constant dense<-1> : tensor<3037000500x3037000500xi64>
 %0 = onnx.GatherElements %d, %i : tensor<3037000500x3037000500xi64>, tensor<3037000500x3037000500xi64>
 return %0 : tensor<3037000500x3037000500xi64>
}
