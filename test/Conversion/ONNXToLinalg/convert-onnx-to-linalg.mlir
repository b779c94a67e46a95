// RUN: gather-opt %s --convert-onnx-to-linalg="runtime-checks=false" --split-input-file | FileCheck %s

// Static shapes, negative axis: axis -1 of a rank-2 tensor is dimension 1.
// CHECK-DAG:   #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @static_negative_axis
// CHECK-SAME:    (%[[DATA:.*]]: tensor<3x4xf32>, %[[IDX:.*]]: tensor<2x3xi64>)
// CHECK:         %[[S:.*]] = arith.constant 4 : index
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID2]], #[[$ID2]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[IDX]] : tensor<2x3xi64>) outs(%[[INIT]] : tensor<2x3xf32>)
// CHECK-SAME:      attrs = {gather.elements}
// CHECK:         ^bb0(%[[IN:.*]]: i64, %{{.*}}: f32):
// CHECK:           %[[I:.*]] = arith.index_cast %[[IN]] : i64 to index
// CHECK:           %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:           %[[NEG:.*]] = arith.cmpi slt, %[[I]], %[[ZERO]] : index
// CHECK:           %[[WRAP:.*]] = arith.addi %[[I]], %[[S]] : index
// CHECK:           %[[NORM:.*]] = arith.select %[[NEG]], %[[WRAP]], %[[I]] : index
// CHECK:           %[[OK:.*]] = arith.cmpi ult, %[[NORM]], %[[S]] : index
// CHECK:           %[[SAFE:.*]] = arith.select %[[OK]], %[[NORM]], %[[ZERO]] : index
// CHECK:           %[[D0:.*]] = linalg.index 0 : index
// CHECK:           %[[E:.*]] = tensor.extract %[[DATA]][%[[D0]], %[[SAFE]]] : tensor<3x4xf32>
// CHECK:           linalg.yield %[[E]] : f32
// CHECK:         } -> tensor<2x3xf32>
// CHECK:         return %[[R]] : tensor<2x3xf32>
// CHECK-NOT:     onnx.
func.func @static_negative_axis(%data: tensor<3x4xf32>, %indices: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %0 = onnx.GatherElements %data, %indices axis = -1 : tensor<3x4xf32>, tensor<2x3xi64>
  return %0 : tensor<2x3xf32>
}

// -----

// Rank 3, axis 1, i32 indices on a static axis: the index rule is computed
// in i32 (exact there), the safe index is sign-extended with index_cast and
// replaces coordinate 1; the other coordinates are the loop indices.
// CHECK-LABEL: func.func @rank3_axis1_i32
// CHECK-SAME:    (%[[DATA:.*]]: tensor<2x5x4xi64>, %[[IDX:.*]]: tensor<2x7x3xi32>)
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[IDX]] : tensor<2x7x3xi32>)
// CHECK:         ^bb0(%[[IN:.*]]: i32, %{{.*}}: i64):
// CHECK-DAG:       %[[S:.*]] = arith.constant 5 : i32
// CHECK-DAG:       %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:           %[[NEG:.*]] = arith.cmpi slt, %[[IN]], %[[ZERO]] : i32
// CHECK:           %[[WRAP:.*]] = arith.addi %[[IN]], %[[S]] : i32
// CHECK:           %[[NORM:.*]] = arith.select %[[NEG]], %[[WRAP]], %[[IN]] : i32
// CHECK:           %[[OK:.*]] = arith.cmpi ult, %[[NORM]], %[[S]] : i32
// CHECK:           %[[SAFE32:.*]] = arith.select %[[OK]], %[[NORM]], %[[ZERO]] : i32
// CHECK:           %[[SAFE:.*]] = arith.index_cast %[[SAFE32]] : i32 to index
// CHECK:           %[[D0:.*]] = linalg.index 0 : index
// CHECK:           %[[D2:.*]] = linalg.index 2 : index
// CHECK:           tensor.extract %[[DATA]][%[[D0]], %[[SAFE]], %[[D2]]] : tensor<2x5x4xi64>
// CHECK:         } -> tensor<2x7x3xi64>
func.func @rank3_axis1_i32(%data: tensor<2x5x4xi64>, %indices: tensor<2x7x3xi32>) -> tensor<2x7x3xi64> {
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<2x5x4xi64>, tensor<2x7x3xi32>
  return %0 : tensor<2x7x3xi64>
}

// -----

// Dynamic shapes: the destination takes its sizes from `indices`, the axis
// size comes from `data`; a less static declared result gets a tensor.cast.
// Even without run-time checks, the gather runs only under its scalar
// memory-safety guard: indices.shape[1] <= data.shape[1] and a non-empty axis.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME:    (%[[DATA:.*]]: tensor<?x?xf64>, %[[IDX:.*]]: tensor<?x?xi64>)
// CHECK:         %[[S:.*]] = tensor.dim %[[DATA]], %{{.*}} : tensor<?x?xf64>
// CHECK:         %[[FITS:.*]] = arith.cmpi ule
// CHECK:         %[[NONEMPTY:.*]] = arith.cmpi ne
// CHECK:         %[[SAFE:.*]] = arith.andi %[[FITS]], %[[NONEMPTY]] : i1
// CHECK-NOT:     gatherReport
// CHECK:         %[[R:.*]] = scf.if %[[SAFE]] -> (tensor<?x?xf64>) {
// CHECK:           %[[N0:.*]] = tensor.dim %[[IDX]], %{{.*}} : tensor<?x?xi64>
// CHECK:           %[[N1:.*]] = tensor.dim %[[IDX]], %{{.*}} : tensor<?x?xi64>
// CHECK:           %[[INIT:.*]] = tensor.empty(%[[N0]], %[[N1]]) : tensor<?x?xf64>
// CHECK:           %[[G:.*]] = linalg.generic
// CHECK-SAME:        outs(%[[INIT]] : tensor<?x?xf64>)
// CHECK:             arith.addi %{{.*}}, %[[S]] : index
// CHECK:             arith.cmpi ult, %{{.*}}, %[[S]] : index
// CHECK:             %[[D1:.*]] = linalg.index 1 : index
// CHECK:             tensor.extract %[[DATA]][%{{.*}}, %[[D1]]] : tensor<?x?xf64>
// CHECK:           scf.yield %[[G]]
// CHECK:         } else {
// CHECK:         %[[CAST:.*]] = tensor.cast %[[R]] : tensor<?x?xf64> to tensor<*xf64>
// CHECK:         return %[[CAST]]
func.func @dynamic(%data: tensor<?x?xf64>, %indices: tensor<?x?xi64>) -> tensor<*xf64> {
  %0 = onnx.GatherElements %data, %indices : tensor<?x?xf64>, tensor<?x?xi64> -> tensor<*xf64>
  return %0 : tensor<*xf64>
}

// -----

// Rank 1, default axis 0.
// CHECK-LABEL: func.func @rank1
// CHECK-SAME:    (%[[DATA:.*]]: tensor<5xi32>, %[[IDX:.*]]: tensor<8xi64>)
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel"]
// CHECK:           arith.cmpi ult
// CHECK:           %[[SAFE:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      %[[E:.*]] = tensor.extract %[[DATA]][%[[SAFE]]] : tensor<5xi32>
// CHECK-NEXT:      linalg.yield %[[E]] : i32
func.func @rank1(%data: tensor<5xi32>, %indices: tensor<8xi64>) -> tensor<8xi32> {
  %0 = onnx.GatherElements %data, %indices : tensor<5xi32>, tensor<8xi64>
  return %0 : tensor<8xi32>
}

// -----

// Constants: numeric ones become arith.constant. A string constant (also in
// an arith.constant) becomes one table whatever its size: an
// onnx.ConstantString of its distinct strings' bytes (each once: "b" is
// shared), the offset and length of each element in two i64 constants, and a
// linalg.generic slicing each element out with onnx.StringSlice. A splat is
// a linalg.fill of one onnx.ConstantString. The onnx dialect's ConvertToLLVM
// interface lowers both ops later.
// CHECK-LABEL: func.func @constants
// CHECK:         %[[N:.*]] = arith.constant dense<[1, -2]> : tensor<2xi64>
// CHECK:         %[[A:.*]] = onnx.ConstantString "a"
// CHECK-NEXT:    %[[AB:.*]] = arith.constant dense<[0, 1]> : tensor<2xi64>
// CHECK-NEXT:    %[[AL:.*]] = arith.constant dense<[1, 0]> : tensor<2xi64>
// CHECK-NEXT:    %[[AE:.*]] = tensor.empty() : tensor<2x!onnx.string>
// CHECK-NEXT:    %[[S:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel"]
// CHECK-SAME:      ins(%[[AB]], %[[AL]] : tensor<2xi64>, tensor<2xi64>) outs(%[[AE]] : tensor<2x!onnx.string>)
// CHECK-NEXT:    ^bb0(%[[BEGIN:.*]]: i64, %[[LENGTH:.*]]: i64, %{{.*}}: !onnx.string):
// CHECK-NEXT:      %[[SLICE:.*]] = onnx.StringSlice %[[A]][%[[BEGIN]], %[[LENGTH]]]
// CHECK-NEXT:      linalg.yield %[[SLICE]] : !onnx.string
// CHECK:         %[[BC:.*]] = onnx.ConstantString "bc"
// CHECK-NEXT:    %[[BCB:.*]] = arith.constant dense<[0, 1, 0]> : tensor<3xi64>
// CHECK-NEXT:    %[[BCL:.*]] = arith.constant dense<1> : tensor<3xi64>
// CHECK:         %[[D:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[BCB]], %[[BCL]] : tensor<3xi64>, tensor<3xi64>)
// CHECK:           onnx.StringSlice %[[BC]]
// CHECK-NOT:     onnx.ConstantString "b"
// CHECK:         %[[X:.*]] = onnx.ConstantString "x"
// CHECK:         %[[TE:.*]] = tensor.empty() : tensor<3x!onnx.string>
// CHECK:         %[[T:.*]] = linalg.fill ins(%[[X]] : !onnx.string) outs(%[[TE]] : tensor<3x!onnx.string>)
// CHECK:         %[[Z:.*]] = tensor.empty() : tensor<0x!onnx.string>
// CHECK:         return %[[N]], %[[S]], %[[D]], %[[T]], %[[Z]]
func.func @constants() -> (tensor<2xi64>, tensor<2x!onnx.string>, tensor<3x!onnx.string>, tensor<3x!onnx.string>, tensor<0x!onnx.string>) {
  %0 = onnx.Constant dense<[1, -2]> : tensor<2xi64>
  %1 = onnx.Constant dense<["a", ""]> : tensor<2x!onnx.string>
  %dup = onnx.Constant dense<["b", "c", "b"]> : tensor<3x!onnx.string>
  %2 = arith.constant dense<"x"> : tensor<3x!onnx.string>
  %3 = onnx.Constant dense<> : tensor<0x!onnx.string>
  return %0, %1, %dup, %2, %3 : tensor<2xi64>, tensor<2x!onnx.string>, tensor<3x!onnx.string>, tensor<3x!onnx.string>, tensor<0x!onnx.string>
}

// -----

// i32 indices, but the index rule stays in `index` where i32 would not be
// exact: a dynamic axis size, and an axis longer than INT32_MAX (index + s
// could overflow i32).
// CHECK-LABEL: func.func @i32_wide_rule
// CHECK:         ^bb0(%[[IN:.*]]: i32, %{{.*}}: f32):
// CHECK:           %[[I:.*]] = arith.index_cast %[[IN]] : i32 to index
// CHECK:           arith.cmpi slt, %[[I]], %{{.*}} : index
// CHECK:           arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK:         ^bb0(%[[IN2:.*]]: i32, %{{.*}}: f32):
// CHECK:           %[[I2:.*]] = arith.index_cast %[[IN2]] : i32 to index
// CHECK:           arith.addi %[[I2]], %{{.*}} : index
// CHECK:           arith.cmpi ult, %{{.*}}, %{{.*}} : index
func.func @i32_wide_rule(%data: tensor<2x?xf32>, %indices: tensor<2x3xi32>,
                         %long: tensor<2147483648xf32>, %indices1: tensor<4xi32>)
    -> (tensor<2x3xf32>, tensor<4xf32>) {
  %0 = onnx.GatherElements %data, %indices axis = 1 : tensor<2x?xf32>, tensor<2x3xi32>
  %1 = onnx.GatherElements %long, %indices1 : tensor<2147483648xf32>, tensor<4xi32>
  return %0, %1 : tensor<2x3xf32>, tensor<4xf32>
}
