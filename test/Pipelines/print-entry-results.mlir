// RUN: gather-opt %s --split-input-file --verify-diagnostics --gather-print-entry-results | FileCheck %s
// RUN: gather-opt %s --split-input-file --gather-print-entry-results=entry=other | FileCheck %s --check-prefix=OTHER

// gather-print-entry-results (what gather-runner runs on its input): an
// entry without arguments that returns tensors is renamed and made private;
// a function of its name calls it and prints each result with the runtime's
// gatherPrint<T> and its number.

// CHECK-LABEL: func.func private @main_0() -> (tensor<2xf32>, tensor<?x3xi64>)
// CHECK-LABEL: func.func @main() {
// CHECK:         %[[R:.*]]:2 = call @main_0() : () -> (tensor<2xf32>, tensor<?x3xi64>)
// CHECK:         %[[U0:.*]] = tensor.cast %[[R]]#0 : tensor<2xf32> to tensor<*xf32>
// CHECK:         %[[I0:.*]] = arith.constant 0 : i64
// CHECK:         call @gatherPrintF32(%[[U0]], %[[I0]]) : (tensor<*xf32>, i64) -> ()
// CHECK:         %[[U1:.*]] = tensor.cast %[[R]]#1 : tensor<?x3xi64> to tensor<*xi64>
// CHECK:         %[[I1:.*]] = arith.constant 1 : i64
// CHECK:         call @gatherPrintI64(%[[U1]], %[[I1]]) : (tensor<*xi64>, i64) -> ()
// CHECK-NEXT:    return
// Another entry: this one is left as it is.
// OTHER-LABEL: func.func @main() -> (tensor<2xf32>, tensor<?x3xi64>)
// OTHER-NOT: gatherPrint
func.func @main() -> (tensor<2xf32>, tensor<?x3xi64>) {
  %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = tensor.empty() : tensor<4x3xi64>
  %c = tensor.cast %b : tensor<4x3xi64> to tensor<?x3xi64>
  return %a, %c : tensor<2xf32>, tensor<?x3xi64>
}

// -----

// An entry that takes arguments, returns no tensors, or is only declared:
// nothing to print.
// CHECK-LABEL: func.func @main(%{{.*}}: tensor<2xf32>) -> tensor<2xf32>
// CHECK-NOT: gatherPrint
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @main() -> i32
// CHECK-NOT: gatherPrint
func.func @main() -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}

// -----

// A result the runtime cannot print.
// expected-error @+1 {{cannot print results of type 'tensor<2xindex>'}}
func.func @main() -> tensor<2xindex> {
  %a = arith.constant dense<[1, 2]> : tensor<2xindex>
  return %a : tensor<2xindex>
}
