// Emit LLVM IR, then check that LLVM's own tools accept it: llc compiles it
// and lli runs it (spec example test_gather_elements_negative_indices).
// RUN: gather-opt %s --onnx-to-llvm | gather-translate --mlir-to-llvmir > %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: llc %t.ll -o %t.s
// RUN: lli --dlopen=%mlir_lib_dir/libmlir_runner_utils%shlibext --dlopen=%gather_runtime %t.ll | FileCheck %s --check-prefix=EXEC
// And in one step, from the onnx dialect:
// RUN: gather-translate --onnx-to-llvmir %s | lli --dlopen=%mlir_lib_dir/libmlir_runner_utils%shlibext --dlopen=%gather_runtime | FileCheck %s --check-prefix=EXEC
// The one-step route records the target: llc and clang need no -mtriple
// and compile for the data layout the pipeline assumed.
// RUN: gather-translate --onnx-to-llvmir %s | FileCheck %s --check-prefix=TARGET
// RUN: gather-translate --onnx-to-llvmir %s > %t.target.ll
// RUN: clang -c -Werror %t.target.ll -o %t.o
// REQUIRES: jit

// TARGET: target datalayout = "e-{{.+}}"
// TARGET-NEXT: target triple = "x86_64-{{.+}}-linux-gnu"

// IR: declare void @_mlir_ciface_printMemrefF32(ptr)
// IR: define { ptr, ptr, i64, [2 x i64], [2 x i64] } @gather(
// IR: load float
// IR: store float
// IR: define i32 @main()
// IR: call void @printMemrefF32(

// EXEC: rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// EXEC-NEXT: {{\[}}[7,   5,   3],
// EXEC-NEXT: [4,   2,   3]]

func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

func.func @gather(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %0 = onnx.GatherElements %data, %indices : tensor<3x3xf32>, tensor<2x3xi64>
  return %0 : tensor<2x3xf32>
}

// lli's exit status is @main's result: return 0 explicitly.
func.func @main() -> i32 {
  %data = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %indices = arith.constant dense<[[-1, -2, 0], [-2, 0, 0]]> : tensor<2x3xi64>
  %out = call @gather(%data, %indices) : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  %u = tensor.cast %out : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
