// RUN: gather-opt %s --convert-onnx-to-linalg="runtime-checks=false" -split-input-file -verify-diagnostics | FileCheck %s

// onnx.If -> scf.if on the condition's element; the branches move in, their
// onnx.Yield becomes scf.yield (cast to the result type where a branch
// knows more).
// CHECK-LABEL: func.func @if
// CHECK-SAME:    (%[[C:.*]]: tensor<1xi1>, %[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<2x3xi64>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[COND:.*]] = tensor.extract %[[C]][%[[C0]]] : tensor<1xi1>
// CHECK:         %[[Y:.*]] = scf.if %[[COND]] -> (tensor<?x3xf32>) {
// CHECK:           %[[G:.*]] = linalg.generic {{.*}} ins(%[[I]] : tensor<2x3xi64>) {{.*}} attrs = {gather.elements}
// CHECK:           %[[CAST:.*]] = tensor.cast %[[G]] : tensor<2x3xf32> to tensor<?x3xf32>
// CHECK:           scf.yield %[[CAST]] : tensor<?x3xf32>
// CHECK:         } else {
// CHECK:           %[[CAST2:.*]] = tensor.cast %[[X]] : tensor<2x3xf32> to tensor<?x3xf32>
// CHECK:           scf.yield %[[CAST2]] : tensor<?x3xf32>
// CHECK:         }
// CHECK:         return %[[Y]]
// CHECK-NOT:     onnx.
func.func @if(%c: tensor<1xi1>, %x: tensor<2x3xf32>, %i: tensor<2x3xi64>) -> tensor<?x3xf32> {
  %y = "onnx.If"(%c) ({
    %a = onnx.GatherElements %x, %i axis = 1 : tensor<2x3xf32>, tensor<2x3xi64>
    onnx.Yield %a : tensor<2x3xf32>
  }, {
    onnx.Yield %x : tensor<2x3xf32>
  }) : (tensor<1xi1>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}

// -----

// onnx.Loop -> scf.while over (iteration number, condition, values); the
// carried value has the type all its uses agree on (tensor<?x3xf32>), the
// body's arguments are tensors again, and an omitted M runs until the
// condition is false. The placeholder onnx.NoValue goes.
// CHECK-LABEL: func.func @loop
// CHECK-SAME:    (%[[C:.*]]: tensor<i1>, %[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<2x3xi64>)
// CHECK-NOT:     onnx.NoValue
// CHECK-DAG:     %[[MAX:.*]] = arith.constant 9223372036854775807 : i64
// CHECK-DAG:     %[[COND:.*]] = tensor.extract %[[C]][] : tensor<i1>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG:     %[[START:.*]] = tensor.cast %[[X]] : tensor<2x3xf32> to tensor<?x3xf32>
// CHECK:         %[[W:.*]]:3 = scf.while (%[[N:.*]] = %[[ZERO]], %[[K:.*]] = %[[COND]], %[[V:.*]] = %[[START]]) : (i64, i1, tensor<?x3xf32>) -> (i64, i1, tensor<?x3xf32>) {
// CHECK:           %[[LT:.*]] = arith.cmpi slt, %[[N]], %[[MAX]] : i64
// CHECK:           %[[GO:.*]] = arith.andi %[[LT]], %[[K]] : i1
// CHECK:           scf.condition(%[[GO]]) %[[N]], %[[K]], %[[V]]
// CHECK:         } do {
// CHECK:         ^bb0(%[[N2:.*]]: i64, %[[K2:.*]]: i1, %[[V2:.*]]: tensor<?x3xf32>):
// CHECK:           %[[NT:.*]] = tensor.from_elements %[[N2]] : tensor<i64>
// CHECK:           %[[KT:.*]] = tensor.from_elements %[[K2]] : tensor<i1>
// CHECK:           linalg.generic {{.*}} attrs = {gather.elements}
// CHECK:           tensor.extract %[[V2]]
// CHECK:           %[[ONE:.*]] = arith.constant 1 : i64
// CHECK:           %[[NEXT:.*]] = arith.addi %[[N2]], %[[ONE]] : i64
// CHECK:           %[[KEEP:.*]] = tensor.extract %[[KT]][] : tensor<i1>
// CHECK:           %[[VC:.*]] = tensor.cast %{{.*}} : tensor<2x3xf32> to tensor<?x3xf32>
// CHECK:           scf.yield %[[NEXT]], %[[KEEP]], %[[VC]] : i64, i1, tensor<?x3xf32>
// CHECK:         }
// CHECK:         return %[[W]]#2 : tensor<?x3xf32>
func.func @loop(%c: tensor<i1>, %x: tensor<2x3xf32>, %i: tensor<2x3xi64>) -> tensor<?x3xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  %v = "onnx.Loop"(%none, %c, %x) ({
  ^bb0(%it: tensor<i64>, %cc: tensor<i1>, %v: tensor<?x3xf32>):
    %g = onnx.GatherElements %v, %i axis = 1 : tensor<?x3xf32>, tensor<2x3xi64>
    onnx.Yield %cc, %g : tensor<i1>, tensor<2x3xf32>
  }) : (none, tensor<i1>, tensor<2x3xf32>) -> tensor<?x3xf32>
  return %v : tensor<?x3xf32>
}

// -----

// An onnx.Yield in an op the pass does not lower (onnx.Scan) stays.
// CHECK-LABEL: func.func @scan
// CHECK:         "onnx.Scan"
// CHECK:           linalg.generic
// CHECK:           onnx.Yield
func.func @scan(%s: tensor<3xf32>, %x: tensor<2x3xf32>, %r: tensor<3xi64>) -> tensor<3xf32> {
  %0 = "onnx.Scan"(%s, %x) ({
  ^bb0(%a: tensor<3xf32>, %row: tensor<3xf32>):
    %g = onnx.GatherElements %row, %r : tensor<3xf32>, tensor<3xi64>
    onnx.Yield %g : tensor<3xf32>
  }) {num_scan_inputs = 1 : si64} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// What the lowering cannot do is an error at the op.
func.func @dynamic_condition(%c: tensor<?xi1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+2 {{failed to legalize operation 'onnx.If' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.If' op cannot be lowered: its condition has type 'tensor<?xi1>'; lowering needs a static shape of one element}}
  %y = "onnx.If"(%c) ({
    onnx.Yield %x : tensor<f32>
  }, {
    onnx.Yield %x : tensor<f32>
  }) : (tensor<?xi1>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @dynamic_trip_count(%m: tensor<?xi64>, %x: tensor<f32>) -> tensor<f32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+2 {{failed to legalize operation 'onnx.Loop' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.Loop' op cannot be lowered: its trip count 'M' has type 'tensor<?xi64>'; lowering needs a static shape of one element}}
  %v = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<f32>):
    onnx.Yield %c, %v : tensor<i1>, tensor<f32>
  }) : (tensor<?xi64>, none, tensor<f32>) -> tensor<f32>
  return %v : tensor<f32>
}

// -----

func.func @dynamic_yielded_condition(%m: tensor<i64>, %x: tensor<f32>, %k: tensor<?xi1>) -> tensor<f32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+2 {{failed to legalize operation 'onnx.Loop' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.Loop' op cannot be lowered: its body yields the condition as 'tensor<?xi1>'; lowering needs a static shape of one element}}
  %v = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<f32>):
    onnx.Yield %k, %v : tensor<?xi1>, tensor<f32>
  }) : (tensor<i64>, none, tensor<f32>) -> tensor<f32>
  return %v : tensor<f32>
}

// -----

func.func @scan_outputs_without_trip_count(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<?x3xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+2 {{failed to legalize operation 'onnx.Loop' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.Loop' op cannot be lowered: it has 1 scan outputs and no trip count 'M'; lowering stacks them in buffers of M rows}}
  %s = "onnx.Loop"(%none, %c) ({
  ^bb0(%i: tensor<i64>, %cc: tensor<i1>):
    onnx.Yield %cc, %x : tensor<i1>, tensor<3xf32>
  }) : (none, tensor<i1>) -> tensor<?x3xf32>
  return %s : tensor<?x3xf32>
}

// -----

func.func @scan_output_of_a_dynamic_shape(%m: tensor<i64>, %x: tensor<?xf32>) -> tensor<?x?xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+2 {{failed to legalize operation 'onnx.Loop' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.Loop' op cannot be lowered: its body yields scan output 0 as 'tensor<?xf32>'; lowering needs a static shape}}
  %s = "onnx.Loop"(%m, %none) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>):
    onnx.Yield %c, %x : tensor<i1>, tensor<?xf32>
  }) : (tensor<i64>, none) -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// -----

// A static count of rows that the loop may not run: `cond` can end it early.
func.func @scan_output_rows_not_known(%m: tensor<i64>, %c: tensor<i1>, %x: tensor<3xf32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{failed to legalize operation 'onnx.Loop' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.Loop' op cannot be lowered: scan output 0 has type 'tensor<4x3xf32>', but the loop runs a number of iterations known only at run time}}
  %s = "onnx.Loop"(%m, %c) ({
  ^bb0(%i: tensor<i64>, %cc: tensor<i1>):
    onnx.Yield %cc, %x : tensor<i1>, tensor<3xf32>
  }) : (tensor<i64>, tensor<i1>) -> tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}

// -----

func.func @scan_output_rows_mismatch(%x: tensor<3xf32>) -> tensor<4x3xf32> {
  %m = arith.constant dense<5> : tensor<i64>
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+2 {{failed to legalize operation 'onnx.Loop' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.Loop' op cannot be lowered: scan output 0 has type 'tensor<4x3xf32>', but the loop runs 5 iterations}}
  %s = "onnx.Loop"(%m, %none) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>):
    onnx.Yield %c, %x : tensor<i1>, tensor<3xf32>
  }) : (tensor<i64>, none) -> tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}

// -----

// Scan outputs: a buffer of max(M, 0) rows carried through the scf.while,
// this iteration's value inserted at row %i, the rows the loop ran taken
// after it.
// CHECK-LABEL: func.func @scan_outputs
// CHECK-SAME:    (%[[M:.*]]: tensor<i64>, %[[C:.*]]: tensor<i1>, %[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<2x3xi64>)
// CHECK-DAG:     %[[TRIP:.*]] = tensor.extract %[[M]][] : tensor<i64>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK:         %[[ROWS64:.*]] = arith.maxsi %[[TRIP]], %{{.*}} : i64
// CHECK:         %[[ROWS:.*]] = arith.index_cast %[[ROWS64]] : i64 to index
// CHECK:         %[[EMPTY:.*]] = tensor.empty(%[[ROWS]]) : tensor<?x2x3xf32>
// CHECK:         %[[W:.*]]:4 = scf.while ({{.*}}, %{{.*}} = %[[EMPTY]]) : (i64, i1, tensor<2x3xf32>, tensor<?x2x3xf32>) -> (i64, i1, tensor<2x3xf32>, tensor<?x2x3xf32>) {
// CHECK:         } do {
// CHECK:         ^bb0(%[[N:.*]]: i64, %{{.*}}: i1, %{{.*}}: tensor<2x3xf32>, %[[BUF:.*]]: tensor<?x2x3xf32>):
// CHECK:           %[[G:.*]] = linalg.generic {{.*}} attrs = {gather.elements}
// CHECK:           %[[ROW:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK:           %[[INS:.*]] = tensor.insert_slice %[[G]] into %[[BUF]][%[[ROW]], 0, 0] [1, 2, 3] [1, 1, 1] : tensor<2x3xf32> into tensor<?x2x3xf32>
// CHECK:           scf.yield %{{.*}}, %{{.*}}, %[[G]], %[[INS]] : i64, i1, tensor<2x3xf32>, tensor<?x2x3xf32>
// CHECK:         }
// CHECK:         %[[COUNT:.*]] = arith.index_cast %[[W]]#0 : i64 to index
// CHECK:         %[[RAN:.*]] = tensor.extract_slice %[[W]]#3[0, 0, 0] [%[[COUNT]], 2, 3] [1, 1, 1] : tensor<?x2x3xf32> to tensor<?x2x3xf32>
// CHECK:         return %[[W]]#2, %[[RAN]] : tensor<2x3xf32>, tensor<?x2x3xf32>
func.func @scan_outputs(%m: tensor<i64>, %c: tensor<i1>, %x: tensor<2x3xf32>, %i: tensor<2x3xi64>) -> (tensor<2x3xf32>, tensor<?x2x3xf32>) {
  %r:2 = "onnx.Loop"(%m, %c, %x) ({
  ^bb0(%it: tensor<i64>, %cc: tensor<i1>, %v: tensor<2x3xf32>):
    %g = onnx.GatherElements %v, %i axis = 1 : tensor<2x3xf32>, tensor<2x3xi64>
    onnx.Yield %cc, %g, %g : tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>
  }) : (tensor<i64>, tensor<i1>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<?x2x3xf32>)
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<?x2x3xf32>
}

// -----

// Without `cond` (a for loop) the condition the body yields is ignored, as
// ONNX says: the scf.while gets true; with a constant M the scan buffer has
// M rows, all of them the result.
// CHECK-LABEL: func.func @for_loop
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK:         %[[W:.*]]:3 = scf.while
// CHECK:         } do {
// CHECK:           %[[TRUE:.*]] = arith.constant dense<true> : tensor<i1>
// CHECK:           tensor.insert_slice
// CHECK:           %[[KEEP:.*]] = tensor.extract %[[TRUE]][] : tensor<i1>
// CHECK:           scf.yield %{{.*}}, %[[KEEP]], %{{.*}} : i64, i1, tensor<4x3xf32>
// CHECK:         }
// CHECK-NOT:     tensor.extract_slice
// CHECK:         return %[[W]]#2 : tensor<4x3xf32>
func.func @for_loop(%x: tensor<3xf32>) -> tensor<4x3xf32> {
  %m = arith.constant dense<4> : tensor<i64>
  %none = "onnx.NoValue"() {value} : () -> none
  %s = "onnx.Loop"(%m, %none) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>):
    %f = arith.constant dense<false> : tensor<i1>
    onnx.Yield %f, %x : tensor<i1>, tensor<3xf32>
  }) : (tensor<i64>, none) -> tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}
