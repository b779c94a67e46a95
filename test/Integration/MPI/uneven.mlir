// REQUIRES: jit, mpi
// Uneven splits (ShardBlocks.h): a split dimension whose size is not a
// multiple of the processes (5, 7, 10 on 3; 7, 5 on 2), or smaller than
// them (1 on 2 and 3: some processes own no rows), off the axis and along
// it, in both assemblies. The output on 2 and 3 processes (rank 0 prints)
// must equal one process's, bit for bit.
// RUN: gather-runner %s -e main --entry-point-result=void -O0 > %t.1
// RUN: FileCheck %s --input-file=%t.1
// RUN: %mpirun -np 3 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=3' > %t.3a
// RUN: diff %t.1 %t.3a
// RUN: %mpirun -np 3 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=3 shard-assembly=all-reduce' > %t.3b
// RUN: diff %t.1 %t.3b
// RUN: %mpirun -np 3 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=3 shard-dim=1' > %t.3c
// RUN: diff %t.1 %t.3c
// RUN: %mpirun -np 3 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=3 shard-dim=1 shard-assembly=all-reduce' > %t.3d
// RUN: diff %t.1 %t.3d
// RUN: %mpirun -np 2 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=2' > %t.2a
// RUN: diff %t.1 %t.2a
// RUN: %mpirun -np 2 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=2 shard-dim=1 shard-assembly=all-reduce' > %t.2b
// RUN: diff %t.1 %t.2b
// shard-dim=0: @onerow on processes that own no rows, @axis1 and @axis7
// split off the axis (3 on 2, 2 on 3).
// RUN: %mpirun -np 3 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=3 shard-dim=0' > %t.3e
// RUN: diff %t.1 %t.3e
// RUN: %mpirun -np 2 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=2 shard-dim=0 shard-assembly=all-reduce' > %t.2c
// RUN: diff %t.1 %t.2c
// shard-io=split (docs/Sharding.md): the kernels take and return slabs of
// dynamic size; @main's calls pass each process its block and assemble.
// RUN: %mpirun -np 3 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=3 shard-io=split' > %t.3f
// RUN: diff %t.1 %t.3f
// RUN: %mpirun -np 3 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=3 shard-dim=1 shard-io=split' > %t.3g
// RUN: diff %t.1 %t.3g
// RUN: %mpirun -np 2 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=2 shard-dim=0 shard-io=split' > %t.2d
// RUN: diff %t.1 %t.2d
// The axis schemes (shard-axis-scheme, docs/Sharding.md) on 2 and 3
// processes (the axes of size 1 and 2 fall back to all-reduce on 3: some
// process owns no index of them).
// RUN: timeout 120 %mpirun -np 2 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=2 shard-dim=1 shard-axis-scheme=all-gather-data' > %t.2e
// RUN: diff %t.1 %t.2e
// RUN: timeout 120 %mpirun -np 3 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=3 shard-dim=1 shard-axis-scheme=all-gather-data' > %t.3h
// RUN: diff %t.1 %t.3h
// RUN: timeout 120 %mpirun -np 2 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=2 shard-dim=1 shard-axis-scheme=all-to-all' > %t.2f
// RUN: diff %t.1 %t.2f
// RUN: timeout 120 %mpirun -np 3 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=3 shard-dim=1 shard-axis-scheme=all-to-all' > %t.3i
// RUN: diff %t.1 %t.3i
// RUN: timeout 120 %mpirun -np 3 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=3 shard-dim=1 shard-axis-scheme=all-to-all shard-io=split' > %t.3j
// RUN: diff %t.1 %t.3j
// RUN: timeout 120 %mpirun -np 3 gather-runner %s -e main --entry-point-result=void -O0 --pipeline-options='shard-grid=3 shard-dim=1 shard-axis-scheme=all-gather-data shard-io=split' > %t.3k
// RUN: diff %t.1 %t.3k
// The values one process computes (and so every run above):
// CHECK: result 0: tensor<5x2xf32> = {{\[}}[1, 2], [7, 6], [10, 10], [16, 13], [20, 19]]
// CHECK: result 1: tensor<7x3xi64> = {{\[}}[12, 11, 10], [20, 22, 21], [32, 30, 30], [40, 42, 41], [51, 52, 50], [62, 60, 61], [70, 72, 71]]
// CHECK: result 2: tensor<2x10x2xf32> = {{\[}}{{\[}}[2, 0], [5, 3], [8, 6], [11, 9], [14, 12], [17, 15], [20, 18], [23, 21], [26, 24], [29, 27]], {{\[}}[32, 30], [35, 33], [38, 36], [41, 39], [44, 42], [47, 45], [50, 48], [53, 51], [56, 54], [59, 57]]]
// CHECK: result 3: tensor<1x4xi32> = {{\[}}[5, 0, 3, 5]]
// CHECK: result 4: tensor<3x2xf32> = {{\[}}[1, 1], [2, 2], [3, 3]]
// CHECK: result 5: tensor<2x5xf64> = {{\[}}[6, 0, 3, 6, 1], [13, 7, 12, 8, 11]]
// CHECK-NOT: result

// Rows: 5 on 3 (blocks 2, 2, 1) or 2 (3, 2); shard-dim=1 splits the axis
// (4: blocks 2, 1, 1 on 3).
func.func @rows5(%d: tensor<5x4xf32>, %i: tensor<5x2xi64>) -> tensor<5x2xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<5x4xf32>, tensor<5x2xi64>
  return %0 : tensor<5x2xf32>
}

// 7 rows, 3 columns (blocks 1, 1, 1 of the axis with shard-dim=1 on 3).
func.func @rows7(%d: tensor<7x3xi64>, %i: tensor<7x3xi32>) -> tensor<7x3xi64> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<7x3xi64>, tensor<7x3xi32>
  return %0 : tensor<7x3xi64>
}

// The middle dimension (10: blocks 4, 3, 3) with shard-dim=1: not the
// outermost, so MPI_Allgatherv takes a derived datatype.
func.func @middle10(%d: tensor<2x10x3xf32>, %i: tensor<2x10x2xi64>) -> tensor<2x10x2xf32> {
  %0 = onnx.GatherElements %d, %i axis = 2 : tensor<2x10x3xf32>, tensor<2x10x2xi64>
  return %0 : tensor<2x10x2xf32>
}

// One row on 2 or 3 processes: only the first owns a row.
func.func @onerow(%d: tensor<1x6xi32>, %i: tensor<1x4xi64>) -> tensor<1x4xi32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<1x6xi32>, tensor<1x4xi64>
  return %0 : tensor<1x4xi32>
}

// An axis of size 1 (shard-dim=1): only the first process holds `data`.
func.func @axis1(%d: tensor<3x1xf32>, %i: tensor<3x2xi64>) -> tensor<3x2xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<3x1xf32>, tensor<3x2xi64>
  return %0 : tensor<3x2xf32>
}

// An axis of size 7 (shard-dim=1: blocks 3, 2, 2 or 4, 3), negative
// indices normalized with the whole size.
func.func @axis7(%d: tensor<2x7xf64>, %i: tensor<2x5xi64>) -> tensor<2x5xf64> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<2x7xf64>, tensor<2x5xi64>
  return %0 : tensor<2x5xf64>
}

func.func @main() -> (tensor<5x2xf32>, tensor<7x3xi64>, tensor<2x10x2xf32>, tensor<1x4xi32>, tensor<3x2xf32>, tensor<2x5xf64>) {
  %d0 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0], [17.0, 18.0, 19.0, 20.0]]> : tensor<5x4xf32>
  %i0 = arith.constant dense<[[0, 1], [2, -3], [1, 1], [3, -4], [-1, 2]]> : tensor<5x2xi64>
  %r0 = call @rows5(%d0, %i0) : (tensor<5x4xf32>, tensor<5x2xi64>) -> tensor<5x2xf32>
  %d1 = arith.constant dense<[[10, 11, 12], [20, 21, 22], [30, 31, 32], [40, 41, 42], [50, 51, 52], [60, 61, 62], [70, 71, 72]]> : tensor<7x3xi64>
  %i1 = arith.constant dense<[[2, 1, 0], [0, 2, 1], [2, 0, -3], [0, -1, 1], [1, 2, 0], [2, 0, 1], [0, 2, -2]]> : tensor<7x3xi32>
  %r1 = call @rows7(%d1, %i1) : (tensor<7x3xi64>, tensor<7x3xi32>) -> tensor<7x3xi64>
  %d2 = arith.constant dense<[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0], [12.0, 13.0, 14.0], [15.0, 16.0, 17.0], [18.0, 19.0, 20.0], [21.0, 22.0, 23.0], [24.0, 25.0, 26.0], [27.0, 28.0, 29.0]], [[30.0, 31.0, 32.0], [33.0, 34.0, 35.0], [36.0, 37.0, 38.0], [39.0, 40.0, 41.0], [42.0, 43.0, 44.0], [45.0, 46.0, 47.0], [48.0, 49.0, 50.0], [51.0, 52.0, 53.0], [54.0, 55.0, 56.0], [57.0, 58.0, 59.0]]]> : tensor<2x10x3xf32>
  %i2 = arith.constant dense<[[[2, 0], [-1, 0], [2, -3], [2, 0], [-1, 0], [2, 0], [2, 0], [2, 0], [2, 0], [2, 0]], [[2, 0], [2, 0], [2, 0], [2, 0], [2, 0], [2, 0], [2, 0], [2, 0], [2, 0], [-1, -3]]]> : tensor<2x10x2xi64>
  %r2 = call @middle10(%d2, %i2) : (tensor<2x10x3xf32>, tensor<2x10x2xi64>) -> tensor<2x10x2xf32>
  %d3 = arith.constant dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi32>
  %i3 = arith.constant dense<[[5, 0, -3, -1]]> : tensor<1x4xi64>
  %r3 = call @onerow(%d3, %i3) : (tensor<1x6xi32>, tensor<1x4xi64>) -> tensor<1x4xi32>
  %d4 = arith.constant dense<[[1.0], [2.0], [3.0]]> : tensor<3x1xf32>
  %i4 = arith.constant dense<[[0, -1], [-1, 0], [0, 0]]> : tensor<3x2xi64>
  %r4 = call @axis1(%d4, %i4) : (tensor<3x1xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  %d5 = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0]]> : tensor<2x7xf64>
  %i5 = arith.constant dense<[[6, 0, 3, -1, -6], [6, 0, 5, -6, 4]]> : tensor<2x5xi64>
  %r5 = call @axis7(%d5, %i5) : (tensor<2x7xf64>, tensor<2x5xi64>) -> tensor<2x5xf64>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<5x2xf32>, tensor<7x3xi64>, tensor<2x10x2xf32>, tensor<1x4xi32>, tensor<3x2xf32>, tensor<2x5xf64>
}
