// RUN: gather-opt %s --onnx-outline-gathers --split-input-file | FileCheck %s
// RUN: gather-opt %s --onnx-outline-gathers=emit=graph --split-input-file | FileCheck %s --check-prefix=GRAPH
// RUN: gather-opt %s --onnx-outline-gathers=emit=kernels --split-input-file | FileCheck %s --check-prefix=KERNELS
// Outlining twice changes nothing more (kernels are not outlined again).
// RUN: gather-opt %s --onnx-outline-gathers --split-input-file | gather-opt --onnx-outline-gathers --split-input-file | FileCheck %s
// (Kernels compiled and run: test/Target/ONNX/outline-gathers.test.)
// An unknown emit value is an error.
// RUN: not gather-opt %s --onnx-outline-gathers=emit=host -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: Cannot find option named 'host'!

// Each gather of a function (onnx-mlir's ops around it left as they are)
// becomes a kernel <function>_gather_<n> after the function, called in its
// place with the gather's operands; numbered in program order, gathers in
// regions too.
// CHECK-LABEL: func.func @graph(
// CHECK-SAME:      %[[X:.*]]: tensor<2x4xf32>, %[[DATA:.*]]: tensor<2x4xf32>, %[[N:.*]]: index)
// CHECK:         %[[TOPK:.*]]:2 = "onnx.TopK"(%[[X]], %{{.*}})
// CHECK:         %[[G0:.*]] = call @graph_gather_0(%[[DATA]], %[[TOPK]]#1) : (tensor<2x4xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
// CHECK:         scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[G0]])
// CHECK:           %[[G1:.*]] = func.call @graph_gather_1(%[[ACC]], %[[TOPK]]#1) : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
// CHECK:           scf.yield %[[G1]]
// CHECK:         %[[NEG:.*]] = "onnx.Neg"
// CHECK:         return %[[NEG]]
// CHECK:       func.func @graph_gather_0(%[[D:.*]]: tensor<2x4xf32>, %[[I:.*]]: tensor<2x2xi64>) -> tensor<2x2xf32>
// CHECK-SAME:      attributes {llvm.emit_c_interface, onnx.gather_kernel}
// CHECK-NEXT:    %[[R:.*]] = onnx.GatherElements %[[D]], %[[I]] axis = 1 {onnx_node_name = "pick"} : tensor<2x4xf32>, tensor<2x2xi64>
// CHECK-NEXT:    return %[[R]] : tensor<2x2xf32>
// CHECK:       func.func @graph_gather_1(
// CHECK-SAME:      attributes {llvm.emit_c_interface, onnx.gather_kernel}
// CHECK-NEXT:    onnx.GatherElements {{.*}} axis = -1
// CHECK-NOT:   func.func
// GRAPH-LABEL: func.func @graph(
// GRAPH:         call @graph_gather_0(
// GRAPH:         func.call @graph_gather_1(
// GRAPH:       func.func private @graph_gather_0(tensor<2x4xf32>, tensor<2x2xi64>) -> tensor<2x2xf32> attributes {llvm.emit_c_interface, onnx.gather_kernel}
// GRAPH:       func.func private @graph_gather_1(tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32> attributes {llvm.emit_c_interface, onnx.gather_kernel}
// GRAPH-NOT:   onnx.GatherElements
// KERNELS-NOT:   @graph(
// KERNELS-NOT:   onnx.TopK
// KERNELS:       func.func @graph_gather_0(
// KERNELS:         onnx.GatherElements
// KERNELS:       func.func @graph_gather_1(
// KERNELS:         onnx.GatherElements
func.func @graph(%x: tensor<2x4xf32>, %data: tensor<2x4xf32>, %n: index) -> tensor<2x2xf32> {
  %k = onnx.Constant dense<2> : tensor<1xi64>
  %values, %positions = "onnx.TopK"(%x, %k) {axis = 1 : si64} : (tensor<2x4xf32>, tensor<1xi64>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
  %g = onnx.GatherElements %data, %positions axis = 1 {onnx_node_name = "pick"} : tensor<2x4xf32>, tensor<2x2xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %g) -> tensor<2x2xf32> {
    %h = onnx.GatherElements %acc, %positions axis = -1 : tensor<2x2xf32>, tensor<2x2xi64>
    scf.yield %h : tensor<2x2xf32>
  }
  %neg = "onnx.Neg"(%r) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %neg : tensor<2x2xf32>
}

// -----

// onnx-mlir's IR (generic form, onnx.Return, unranked result): the gather
// is outlined with the result type its operands imply (cast back to the
// unranked type at the call); a name already taken gets a suffix. With
// emit=kernels, the other functions go, and so does onnx-mlir's
// onnx.EntryPoint that names one.
// CHECK-LABEL: func.func @main_graph(
// CHECK:         %[[G:.*]] = call @main_graph_gather_0_0(
// CHECK:         %[[C:.*]] = tensor.cast %[[G]] : tensor<2x2xf32> to tensor<*xf32>
// CHECK:         onnx.Return %[[C]]
// CHECK:       func.func @main_graph_gather_0_0(%{{.*}}: tensor<3x2xf32>, %{{.*}}: tensor<2x2xi64>) -> tensor<2x2xf32>
// CHECK-NEXT:    %[[R:.*]] = onnx.GatherElements %{{.*}}, %{{.*}} axis = 1 : tensor<3x2xf32>, tensor<2x2xi64>
// CHECK-NEXT:    return %[[R]] : tensor<2x2xf32>
// CHECK:       func.func private @main_graph_gather_0()
// CHECK:       "onnx.EntryPoint"() {func = @main_graph}
// KERNELS-NOT:   onnx.EntryPoint
// KERNELS-NOT:   @main_graph(
// KERNELS-NOT:   @main_graph_gather_0(
// KERNELS:       func.func @main_graph_gather_0_0(
// KERNELS-NOT:   func.func
func.func @main_graph(%arg0: tensor<3x2xf32>, %arg1: tensor<2x2xi64>) -> tensor<*xf32> {
  %0 = "onnx.GatherElements"(%arg0, %arg1) {axis = 1 : si64} : (tensor<3x2xf32>, tensor<2x2xi64>) -> tensor<*xf32>
  onnx.Return %0 : tensor<*xf32>
}
func.func private @main_graph_gather_0()
"onnx.EntryPoint"() {func = @main_graph} : () -> ()

// -----

// Gathers of a nested module get kernels in that module.
// CHECK-LABEL: module @inner
// CHECK:         func.func @f(
// CHECK:           call @f_gather_0(
// CHECK:         func.func @f_gather_0(
// KERNELS-LABEL: module @inner
// KERNELS-NEXT:    func.func @f_gather_0(
module {
  module @inner {
    func.func @f(%d: tensor<4xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
      %0 = onnx.GatherElements %d, %i axis = 0 : tensor<4xf32>, tensor<2xi64>
      return %0 : tensor<2xf32>
    }
  }
}

// -----

// emit=kernels: an op that refers to an erased function inside another
// such op goes with it.
// KERNELS-LABEL: func.func @g_gather_0(
// KERNELS-NOT:   onnx.Holder
// KERNELS-NOT:   onnx.EntryPoint
// KERNELS-NOT:   @g(
func.func @g(%d: tensor<4xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  %0 = onnx.GatherElements %d, %i axis = 0 : tensor<4xf32>, tensor<2xi64>
  return %0 : tensor<2xf32>
}
"onnx.Holder"() ({
  "onnx.EntryPoint"() {func = @g} : () -> ()
}) {func = @g} : () -> ()

// -----

// A rank (and sizes) known only before a tensor.cast to an unranked or
// more dynamic type: the kernel takes what the program knew and returns
// what that implies, cast back at the call.
// CHECK-LABEL: func.func @through_casts(
// CHECK-SAME:      %[[D:.*]]: tensor<3x4xf32>, %[[I:.*]]: tensor<3x2xi64>
// CHECK:         %[[R:.*]] = call @through_casts_gather_0(%[[D]], %[[I]]) : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
// CHECK:         tensor.cast %[[R]] : tensor<3x2xf32> to tensor<?x?xf32>
// CHECK:         return
// CHECK:       func.func @through_casts_gather_0(%{{.*}}: tensor<3x4xf32>, %{{.*}}: tensor<3x2xi64>) -> tensor<3x2xf32>
// A cast that adds sizes (checked at run time) is kept: the kernel takes
// the cast's source as the program has it.
// CHECK-LABEL: func.func @cast_to_static(
// CHECK:         tensor.cast %{{.*}} : tensor<?x4xf32> to tensor<3x4xf32>
// CHECK:         call @cast_to_static_gather_0(%{{.*}}, %{{.*}}) : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
func.func @through_casts(%d: tensor<3x4xf32>, %i: tensor<3x2xi64>) -> tensor<*xf32> {
  %du = tensor.cast %d : tensor<3x4xf32> to tensor<*xf32>
  %iu = tensor.cast %i : tensor<3x2xi64> to tensor<?x?xi64>
  %r = onnx.GatherElements %du, %iu axis = 1 : tensor<*xf32>, tensor<?x?xi64>
  %ru = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  return %ru : tensor<*xf32>
}

func.func @cast_to_static(%d: tensor<?x4xf32>, %i: tensor<3x2xi64>) -> tensor<3x2xf32> {
  %ds = tensor.cast %d : tensor<?x4xf32> to tensor<3x4xf32>
  %r = onnx.GatherElements %ds, %i axis = 1 : tensor<3x4xf32>, tensor<3x2xi64>
  return %r : tensor<3x2xf32>
}
