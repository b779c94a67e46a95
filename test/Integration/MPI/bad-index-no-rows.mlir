// REQUIRES: jit, mpi
// A bad index where the split dimension is smaller than the processes:
// one row on 2 and 3 processes (ShardBlocks.h: only the first owns it).
// Every process, the ones without rows too, reports the message one process
// prints and exits with status 1; none waits (timeout).
// RUN: sh -c "timeout 60 %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-dim=0' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: sh -c "timeout 60 %mpirun -np 3 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=3 shard-dim=0 shard-assembly=all-reduce' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,THREE
// RUN: sh -c "timeout 60 %mpirun -np 3 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=3 shard-dim=0 shard-io=split' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,THREE

// CHECK-NOT: result
// TWO-COUNT-2: {{.*}}bad-index-no-rows.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value -7 at position [0, 1], outside the valid range [-6, 5] for axis 1 of size 6
// THREE-COUNT-3: {{.*}}bad-index-no-rows.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value -7 at position [0, 1], outside the valid range [-6, 5] for axis 1 of size 6
// CHECK-NOT: error
// CHECK-NOT: result
// CHECK: exit status 1

func.func @gather(%data: tensor<1x6xi32>, %indices: tensor<1x4xi64>) -> tensor<1x4xi32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<1x6xi32>, tensor<1x4xi64>
  return %out : tensor<1x4xi32>
}

func.func @main() -> tensor<1x4xi32> {
  %d = arith.constant dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi32>
  %i = arith.constant dense<[[5, -7, 6, 0]]> : tensor<1x4xi64>
  %o = call @gather(%d, %i) : (tensor<1x6xi32>, tensor<1x4xi64>) -> tensor<1x4xi32>
  return %o : tensor<1x4xi32>
}
