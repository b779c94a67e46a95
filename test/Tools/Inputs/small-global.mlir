module {
  llvm.mlir.global internal constant @small(dense<7> : tensor<4xi16>) : !llvm.array<4 x i16>
}
