module {
  llvm.mlir.global internal constant @big(dense<7> : tensor<1024x1024x1024xi16>) : !llvm.array<1024 x array<1024 x array<1024 x i16>>>
  llvm.func @main() {
    %0 = llvm.mlir.addressof @big : !llvm.ptr
    %1 = llvm.load %0 : !llvm.ptr -> i16
    llvm.return
  }
}
