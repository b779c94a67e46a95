// RUN: gather-opt %s --gather-duplicate-shared-tensors | FileCheck %s

// A tensor.empty (dynamic sizes kept) and a constant tensor used three
// times each: one use keeps the op, each other gets a copy created just
// before its user; every value then has one use.
// CHECK-LABEL: func.func @shared(
// CHECK-SAME:      %[[N:.*]]: index
// CHECK:         %[[E0:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK:         %[[C0:.*]] = arith.constant dense<[1, 2]> : tensor<2xi64>
// CHECK:         %[[ONE:.*]] = arith.constant 1.0
// CHECK:         %[[E1:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK:         %[[F0:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[E1]] :
// CHECK:         %[[E2:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK:         %[[F1:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[E2]] :
// CHECK:         %[[F2:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[E0]] :
// CHECK:         %[[C1:.*]] = arith.constant dense<[1, 2]> : tensor<2xi64>
// CHECK:         %[[C2:.*]] = arith.constant dense<[1, 2]> : tensor<2xi64>
// CHECK:         %[[A:.*]] = arith.addi %[[C2]], %[[C1]] : tensor<2xi64>
// CHECK:         %[[B:.*]] = arith.muli %[[A]], %[[C0]] : tensor<2xi64>
// CHECK-NOT:     tensor.empty
// CHECK-NOT:     arith.constant
// CHECK:         return %[[F0]], %[[F1]], %[[F2]], %[[B]]
func.func @shared(%n: index) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<2xi64>) {
  %e = tensor.empty(%n) : tensor<?xf32>
  %c = arith.constant dense<[1, 2]> : tensor<2xi64>
  %one = arith.constant 1.0 : f32
  %0 = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %1 = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %2 = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %3 = arith.addi %c, %c : tensor<2xi64>
  %4 = arith.muli %3, %c : tensor<2xi64>
  return %0, %1, %2, %4 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<2xi64>
}
