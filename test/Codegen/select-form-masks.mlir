// A vector.gather in a vector.mask (upstream's vectorizer, for tiles that do
// not divide the shape) is scalarized with the mask folded into its own
// first: a lane is loaded only under its bit of both masks. A hardware
// gather keeps its vector.mask (gather-lower-vector-masks folds it).
// RUN: gather-opt %s --split-input-file --verify-diagnostics --gather-select-form=gather-form=scalarized | FileCheck %s --check-prefix=SC
// RUN: gather-opt %s --split-input-file --gather-select-form=gather-form=hardware | FileCheck %s --check-prefix=HW

// SC-LABEL: func.func @masked(
// SC-SAME:    %[[T:.*]]: tensor<64xf32>, %[[I:.*]]: vector<4xindex>, %[[M:.*]]: vector<4xi1>, %[[OWN:.*]]: vector<4xi1>, %[[P:.*]]: vector<4xf32>)
// SC-NOT:     vector.mask
// SC-NOT:     vector.gather
// SC:         %[[BOTH:.*]] = arith.andi %[[M]], %[[OWN]] : vector<4xi1>
// SC:         %[[B0:.*]] = vector.extract %[[BOTH]][0]
// SC:         %[[I0:.*]] = vector.extract %[[I]][0]
// SC:         %[[L0:.*]] = scf.if %[[B0]] -> (vector<4xf32>) {
// SC-NEXT:      %[[X0:.*]] = tensor.extract %[[T]][%[[I0]]]
// SC-NEXT:      %[[V0:.*]] = vector.insert %[[X0]], %[[P]] [0]
// SC-NEXT:      scf.yield %[[V0]]
// SC-NEXT:    } else {
// SC-NEXT:      scf.yield %[[P]]
// SC-NEXT:    }
// SC-COUNT-3: scf.if
// SC-NOT:     vector.gather
// SC:         return
// HW-LABEL: func.func @masked(
// HW:         vector.mask %{{.*}} { vector.gather
func.func @masked(%t: tensor<64xf32>, %i: vector<4xindex>, %m: vector<4xi1>, %own: vector<4xi1>, %p: vector<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %0 = vector.mask %m { vector.gather %t[%c0][%i], %own, %p : tensor<64xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// A 2-D masked gather: unrolled, each row's lanes under the mask's bits.
// SC-LABEL: func.func @masked_2d(
// SC-SAME:    %{{.*}}: vector<2x3xindex>, %[[R:.*]]: index, %[[C:.*]]: index)
// SC-NOT:     vector.mask
// SC:         %[[M:.*]] = vector.create_mask %[[R]], %[[C]] : vector<2x3xi1>
// SC-COUNT-6: vector.extract %[[M]][{{[01]}}, {{[0-2]}}] : i1 from vector<2x3xi1>
// SC-NOT:     vector.gather
// SC:         return
func.func @masked_2d(%t: tensor<4x8xf32>, %i: vector<2x3xindex>, %r: index, %c: index) -> vector<2x3xf32> {
  %c0 = arith.constant 0 : index
  %m = vector.create_mask %r, %c : vector<2x3xi1>
  %all = arith.constant dense<true> : vector<2x3xi1>
  %zero = arith.constant dense<0.0> : vector<2x3xf32>
  %0 = vector.mask %m { vector.gather %t[%c0, %c0][%i], %all, %zero : tensor<4x8xf32>, vector<2x3xindex>, vector<2x3xi1>, vector<2x3xf32> into vector<2x3xf32> } : vector<2x3xi1> -> vector<2x3xf32>
  return %0 : vector<2x3xf32>
}

// -----

// A masked gather that cannot be scalarized (a memref whose innermost
// stride is not 1) is an error at it, its mask folded, not dropped.
func.func @strided(%b: memref<8x8xf32, strided<[1, 8]>>, %i: vector<4xindex>, %m: vector<4xi1>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %all = arith.constant dense<true> : vector<4xi1>
  %zero = arith.constant dense<0.0> : vector<4xf32>
  // expected-error @+1 {{gather-select-form: cannot scalarize this gather}}
  %0 = vector.mask %m { vector.gather %b[%c0, %c0][%i], %all, %zero : memref<8x8xf32, strided<[1, 8]>>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  return %0 : vector<4xf32>
}
