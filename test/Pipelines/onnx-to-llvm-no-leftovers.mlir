// RUN: gather-opt %s --onnx-to-llvm | FileCheck %s --implicit-check-not=onnx. --implicit-check-not=unrealized_conversion_cast --implicit-check-not=linalg. --implicit-check-not=tensor. --implicit-check-not=memref. --implicit-check-not=scf. --implicit-check-not=cf. --implicit-check-not=arith. --implicit-check-not=func.func

// A module with an entry point, a private runtime declaration and constants:
// everything becomes llvm.* (checked line by line by --implicit-check-not).

// CHECK: llvm.func private @printMemrefF32
// CHECK: llvm.func @main()
func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %data = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %indices = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<2x2xf32>, tensor<2x2xi64>
  %u = tensor.cast %out : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
