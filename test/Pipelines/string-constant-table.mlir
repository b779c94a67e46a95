// RUN: gather-opt %s --onnx-to-llvm --split-input-file | FileCheck %s

// A string constant lowers to one table whatever its number of strings: the
// same four globals (the bytes of all its strings, the allocation site of
// its buffer, each element's offset and each element's length) and one loop
// storing the elements, for 3 strings as for 50 (no global, op or store per
// string).

// CHECK:         llvm.mlir.global private constant @[[$BYTES:__onnx_string_[0-9A-F]+]]("w0w1w2")
// CHECK-NEXT:    llvm.mlir.global private constant @__gather_alloc_site{{(_[0-9]+)?}}(
// CHECK:         llvm.mlir.global private constant @[[$BEGINS:.*]](dense<{{\[\[}}0, 2, 4]]> : tensor<1x3xi64>)
// CHECK-NEXT:    llvm.mlir.global private constant @[[$LENGTHS:.*]](dense<2> : tensor<1x3xi64>)
// CHECK-NOT:     llvm.mlir.global
// CHECK-LABEL:   llvm.func @strings_3()
// CHECK-DAG:       llvm.mlir.addressof @[[$BEGINS]]
// CHECK-DAG:       llvm.mlir.addressof @[[$LENGTHS]]
// CHECK-DAG:       llvm.mlir.addressof @[[$BYTES]]
// CHECK-DAG:       llvm.intr.umin
// CHECK:           llvm.store
// CHECK-NOT:       llvm.store
// CHECK:         // -----
func.func @strings_3() -> tensor<1x3x!onnx.string> {
  %0 = onnx.Constant dense<[["w0", "w1", "w2"]]> : tensor<1x3x!onnx.string>
  return %0 : tensor<1x3x!onnx.string>
}

// -----

// CHECK:         llvm.mlir.global private constant @[[$BYTES:__onnx_string_[0-9A-F]+]]("w0w1w2w3w4w5w6w7w8w9w10w11{{.*}}w48w49")
// CHECK-NEXT:    llvm.mlir.global private constant @__gather_alloc_site{{(_[0-9]+)?}}(
// CHECK:         llvm.mlir.global private constant @[[$BEGINS:.*]](dense<{{\[\[}}0, 2, 4, {{.*}}, 137]]> : tensor<5x10xi64>)
// CHECK-NEXT:    llvm.mlir.global private constant @[[$LENGTHS:.*]](dense<{{\[\[}}2, 2, {{.*}}, 3]]> : tensor<5x10xi64>)
// CHECK-NOT:     llvm.mlir.global
// CHECK-LABEL:   llvm.func @strings_50()
// CHECK-DAG:       llvm.mlir.addressof @[[$BEGINS]]
// CHECK-DAG:       llvm.mlir.addressof @[[$LENGTHS]]
// CHECK-DAG:       llvm.mlir.addressof @[[$BYTES]]
// CHECK-DAG:       llvm.intr.umin
// CHECK:           llvm.store
// CHECK-NOT:       llvm.store
func.func @strings_50() -> tensor<5x10x!onnx.string> {
  %0 = onnx.Constant dense<[["w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9"], ["w10", "w11", "w12", "w13", "w14", "w15", "w16", "w17", "w18", "w19"], ["w20", "w21", "w22", "w23", "w24", "w25", "w26", "w27", "w28", "w29"], ["w30", "w31", "w32", "w33", "w34", "w35", "w36", "w37", "w38", "w39"], ["w40", "w41", "w42", "w43", "w44", "w45", "w46", "w47", "w48", "w49"]]> : tensor<5x10x!onnx.string>
  return %0 : tensor<5x10x!onnx.string>
}
