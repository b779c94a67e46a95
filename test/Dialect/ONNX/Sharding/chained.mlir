// A gather that reads another gather's result (as data, as indices): both
// are outlined, the second reading the first's call. It crashed (SIGSEGV):
// outlining the first replaced the value the second still held.
// RUN: gather-opt %s --onnx-shard-gathers=grid-size=2 | FileCheck %s
// RUN: gather-opt %s --onnx-to-llvm=shard-grid=2 | FileCheck %s --check-prefix=LLVM
// LLVM-NOT: onnx.
// LLVM-NOT: shard.

// CHECK-LABEL: func.func @chained_data
// CHECK:         %[[FIRST:.*]] = call @gather_shard{{.*}}(%arg0, %arg1)
// CHECK:         %[[SECOND:.*]] = call @gather_shard{{.*}}(%[[FIRST]], %arg1)
// CHECK:         return %[[SECOND]]
func.func @chained_data(%d: tensor<4xf32>, %i: tensor<4xi64>) -> tensor<4xf32> {
  %o = onnx.GatherElements %d, %i : tensor<4xf32>, tensor<4xi64>
  %o2 = onnx.GatherElements %o, %i : tensor<4xf32>, tensor<4xi64>
  return %o2 : tensor<4xf32>
}

// CHECK-LABEL: func.func @chained_indices
// CHECK:         %[[FIRST:.*]] = call @gather_shard{{.*}}(%arg1, %arg1)
// CHECK:         %[[SECOND:.*]] = call @gather_shard{{.*}}(%arg0, %[[FIRST]])
// CHECK:         return %[[SECOND]]
func.func @chained_indices(%d: tensor<4x2xf32>, %i: tensor<4x2xi64>) -> tensor<4x2xf32> {
  %o = onnx.GatherElements %i, %i : tensor<4x2xi64>, tensor<4x2xi64>
  %o2 = onnx.GatherElements %d, %o : tensor<4x2xf32>, tensor<4x2xi64>
  return %o2 : tensor<4x2xf32>
}
