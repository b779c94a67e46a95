// RUN: gather-opt %s --convert-onnx-strings-to-llvm | FileCheck %s

// One private constant global per distinct content, shared by equal
// constants in different functions; a symbol already named like the global
// gets a fresh name; the struct {ptr, size} reaches the remaining ops
// through unrealized_conversion_cast; onnx.StringSlice clamps to the string.
// CHECK-DAG:   llvm.mlir.global private constant @[[$AB:__onnx_string_[0-9A-F]+]]("ab")
// CHECK-DAG:   llvm.mlir.global private constant @[[$CD:__onnx_string_[0-9A-F]+_1]]("cd")
// CHECK-NOT:   llvm.mlir.global
// CHECK-LABEL: func.func @first(
// CHECK:         %[[P:.*]] = llvm.mlir.addressof @[[$AB]] : !llvm.ptr
// CHECK:         %[[N:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK:         llvm.insertvalue %[[P]], %{{.*}}[0]
// CHECK:         llvm.insertvalue %[[N]], %{{.*}}[1]
// CHECK:         llvm.intr.umin
// CHECK:         builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, i64)> to !onnx.string
// CHECK-NOT:     onnx.{{[A-Z]}}
// CHECK-LABEL: func.func @second(
// CHECK:         llvm.mlir.addressof @[[$AB]] : !llvm.ptr
// CHECK:         llvm.mlir.addressof @[[$CD]] : !llvm.ptr
// CHECK-NOT:     onnx.{{[A-Z]}}
func.func @first(%b: i64, %l: i64) -> !onnx.string {
  %s = onnx.ConstantString "ab"
  %t = onnx.StringSlice %s[%b, %l]
  return %t : !onnx.string
}

func.func @second() -> (!onnx.string, !onnx.string) {
  %s = onnx.ConstantString "ab"
  %t = onnx.ConstantString "cd"
  return %s, %t : !onnx.string, !onnx.string
}

// Named like the global of "cd" (its hash): that global gets a suffix.
// CHECK: func.func private @[[$CDBASE:__onnx_string_[0-9A-F]+]]()
// CHECK-NOT: @[[$CDBASE]](
func.func private @__onnx_string_72DC4C5B74C8D331()
