// REQUIRES: jit, mpi
// A bad index in the slab of one process only: every process reports it,
// with its position in the whole `indices` (the message one process prints),
// and exits with status 1; no process waits in a collective (timeout), none
// is killed by a signal.
// RUN: sh -c "timeout 60 %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: sh -c "timeout 60 %mpirun -np 4 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=4' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,FOUR
// The axis split: `indices` whole on every process.
// RUN: sh -c "timeout 60 %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-dim=1' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,TWO
// Uneven splits on 3 processes (ShardBlocks.h): rows in blocks of 2, 1, 1
// (the bad index in the last block), the axis in blocks of 2, 1, 1.
// RUN: sh -c "timeout 60 %mpirun -np 3 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=3' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,THREE
// RUN: sh -c "timeout 60 %mpirun -np 3 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=3 shard-dim=1 shard-assembly=all-reduce' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,THREE
// The axis schemes (shard-axis-scheme) on 2 and 3 processes: the same
// message.
// RUN: sh -c "timeout 60 %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-dim=1 shard-axis-scheme=all-gather-data' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: sh -c "timeout 60 %mpirun -np 3 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=3 shard-dim=1 shard-axis-scheme=all-gather-data' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,THREE
// RUN: sh -c "timeout 60 %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-dim=1 shard-axis-scheme=all-to-all' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: sh -c "timeout 60 %mpirun -np 3 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=3 shard-dim=1 shard-axis-scheme=all-to-all' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,THREE
// RUN: sh -c "timeout 60 %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-dim=1 shard-axis-scheme=all-to-all shard-io=split' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,TWO
// shard-io=split: the same message from the slabs.
// RUN: sh -c "timeout 60 %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-io=split' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: sh -c "timeout 60 %mpirun -np 3 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=3 shard-io=split' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,THREE
// RUN: sh -c "timeout 60 %mpirun -np 2 gather-runner %s -e main --entry-point-result=void --pipeline-options='shard-grid=2 shard-dim=1 shard-io=split' 2>&1; echo exit status \$?" | FileCheck %s --check-prefixes=CHECK,TWO

// CHECK-NOT: result
// TWO-COUNT-2: {{.*}}bad-index.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value 7 at position [3, 0], outside the valid range [-4, 3] for axis 1 of size 4
// FOUR-COUNT-4: {{.*}}bad-index.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value 7 at position [3, 0], outside the valid range [-4, 3] for axis 1 of size 4
// THREE-COUNT-3: {{.*}}bad-index.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'onnx.GatherElements' op operand 'indices' holds value 7 at position [3, 0], outside the valid range [-4, 3] for axis 1 of size 4
// CHECK-NOT: error
// CHECK-NOT: result
// CHECK: exit status 1

func.func @gather(%data: tensor<4x4xf32>, %indices: tensor<4x2xi64>) -> tensor<4x2xf32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<4x4xf32>, tensor<4x2xi64>
  return %out : tensor<4x2xf32>
}

func.func @main() -> tensor<4x2xf32> {
  %d = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]> : tensor<4x4xf32>
  %i = arith.constant dense<[[0, 1], [2, -3], [1, 1], [7, -9]]> : tensor<4x2xi64>
  %o = call @gather(%d, %i) : (tensor<4x4xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return %o : tensor<4x2xf32>
}
