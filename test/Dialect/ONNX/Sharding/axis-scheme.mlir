// The scheme of a split of the gather axis (axis-scheme, docs/Sharding.md,
// "Which scheme is chosen when"): auto takes the fewest bytes per process of
// TrafficModel.h, which the remark prints with every scheme's; the option
// overrides it.
// RUN: gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{grid-size=2 shard-dim=1 remarks=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO2
// RUN: gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{grid-size=8 shard-dim=1 remarks=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO8
// RUN: gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{grid-size=2 shard-dim=1 axis-scheme=all-to-all remarks=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORCED
// The IR of each scheme (auto on 2 processes, all-to-all forced).
// RUN: gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{grid-size=2 shard-dim=1},gather-shard-partition-functions,canonicalize,cse)' | FileCheck %s
// RUN: gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{grid-size=2 shard-dim=1 axis-scheme=all-to-all},gather-shard-partition-functions,canonicalize,cse)' | FileCheck %s --check-prefix=LOOKUP
// What the schemes assemble always goes through MPI_Allgatherv (the model
// counts it so), also with shard-assembly=all-reduce.
// RUN: gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{grid-size=2 shard-dim=1},gather-shard-partition-functions,convert-onnx-to-linalg,canonicalize,cse,gather-shard-prepare-for-mpi{assembly=all-reduce remarks=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PREPARE
// RUN: gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{grid-size=2 shard-dim=1 axis-scheme=all-to-all},gather-shard-partition-functions,convert-onnx-to-linalg,canonicalize,cse,gather-shard-prepare-for-mpi{assembly=all-reduce remarks=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PREPARE-LOOKUP
// PREPARE-DAG: axis-scheme.mlir:[[# @LINE + 12]]:8: remark: gather-shard: masked gathers summed by MPI_Allreduce (bit patterns, in place): 16 bytes per process
// PREPARE-DAG: axis-scheme.mlir:[[# @LINE + 19]]:8: remark: gather-shard: data assembled by MPI_Allgatherv in place: 128 bytes per process
// PREPARE-LOOKUP-DAG: axis-scheme.mlir:[[# @LINE + 10]]:8: remark: gather-shard: the lookups assembled by MPI_Allgatherv in place: 8 bytes per process
// PREPARE-LOOKUP-DAG: axis-scheme.mlir:[[# @LINE + 17]]:8: remark: gather-shard: the lookups assembled by MPI_Allgatherv in place: 256 bytes per process
// The pipeline option reaches the pass.
// RUN: gather-opt %s --pass-pipeline='builtin.module(gather-pipeline-sharding{shard-grid=2 shard-dim=1 shard-axis-scheme=all-to-all})' | FileCheck %s --check-prefix=LOOKUP

// A vocabulary-parallel lookup: few indices into a large table (n = 4, D = 256).
// AUTO2: axis-scheme.mlir:[[# @LINE + 4]]:8: remark: gather-shard: axis split by all-reduce (axis-scheme=auto): 16 bytes per process; model: all-reduce 16, all-gather-data 512, all-to-all 28, index check 8
// AUTO8: axis-scheme.mlir:[[# @LINE + 3]]:8: remark: gather-shard: axis split by all-reduce (axis-scheme=auto): 28 bytes per process; model: all-reduce 28, all-gather-data 896, all-to-all 75, index check 14
// FORCED: axis-scheme.mlir:[[# @LINE + 2]]:8: remark: gather-shard: axis split by all-to-all (axis-scheme=all-to-all): 28 bytes per process; model: all-reduce 16, all-gather-data 512, all-to-all 28, index check 8
func.func @vocab(%d: tensor<4x64xf32>, %i: tensor<4x1xi64>) -> tensor<4x1xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4x64xf32>, tensor<4x1xi64>
  return %0 : tensor<4x1xf32>
}

// A small table read many times (n = 128, D = 64): gathering `data` first.
// AUTO2: axis-scheme.mlir:[[# @LINE + 3]]:8: remark: gather-shard: axis split by all-gather-data (axis-scheme=auto): 128 bytes per process; model: all-reduce 512, all-gather-data 128, all-to-all 648, index check 8
// AUTO8: axis-scheme.mlir:[[# @LINE + 2]]:8: remark: gather-shard: axis split by all-gather-data (axis-scheme=auto): 224 bytes per process; model: all-reduce 896, all-gather-data 224, all-to-all 672, index check 14
func.func @small_table(%d: tensor<8x8xf32>, %i: tensor<8x16xi64>) -> tensor<8x16xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<8x8xf32>, tensor<8x16xi64>
  return %0 : tensor<8x16xf32>
}

// As many indices as elements of a large table on 8 processes (n = 64,
// D = 512): the all-to-all; on 2 the all-reduce.
// AUTO2: axis-scheme.mlir:[[# @LINE + 3]]:8: remark: gather-shard: axis split by all-reduce
// AUTO8: axis-scheme.mlir:[[# @LINE + 2]]:8: remark: gather-shard: axis split by all-to-all (axis-scheme=auto): 364 bytes per process; model: all-reduce 448, all-gather-data 1792, all-to-all 364, index check 14
func.func @large(%d: tensor<8x64xf32>, %i: tensor<8x8xi64>) -> tensor<8x8xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<8x64xf32>, tensor<8x8xi64>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func.func private @gather_shard(
// CHECK: shard.all_reduce {{.*}} {gather.bit_exact_sum}
// CHECK-LABEL: func.func private @gather_shard_0(
// CHECK-SAME: %[[D:.*]]: tensor<8x8xf32>, %[[I:.*]]: tensor<8x16xi64>
// CHECK: %[[SLAB:.*]] = tensor.extract_slice %[[D]][0, %{{.*}}] [8, 4] [1, 1]
// CHECK: %[[WHOLE:.*]] = shard.all_gather %[[SLAB]] on @gather_grid grid_axes = [0] gather_axis = 1 {gather.assembled = "data", gather.whole_size = 8 : i64} : tensor<8x4xf32> -> tensor<8x8xf32>
// CHECK-NOT: gather.indices_checked_by_caller
// CHECK: onnx.GatherElements %[[WHOLE]], %[[I]] axis = 1 : tensor<8x8xf32>, tensor<8x16xi64>
// CHECK-NEXT: return

// LOOKUP-LABEL: func.func private @gather_shard(
// LOOKUP-SAME: %[[D:.*]]: tensor<4x64xf32>, %[[I:.*]]: tensor<4x1xi64>
// LOOKUP: func.call @gatherReportIndexError
// LOOKUP: %[[FLAT:.*]] = tensor.collapse_shape %[[I]] {{\[}}[0, 1]] : tensor<4x1xi64> into tensor<4xi64>
// LOOKUP: %[[MINE:.*]] = tensor.extract_slice %[[FLAT]][%{{.*}}] [2] [1] : tensor<4xi64> to tensor<2xi64>
// LOOKUP: %[[POS:.*]] = linalg.generic {{.*}} ins(%[[MINE]] : tensor<2xi64>) outs(%{{.*}} : tensor<2xi64>)
// LOOKUP: bufferization.to_buffer %[[POS]] read_only : tensor<2xi64> to memref<2xi64>
// LOOKUP: bufferization.to_buffer %[[D]] read_only : tensor<4x64xf32> to memref<4x64xf32>
// LOOKUP: memref.alloc() : memref<2xf32>
// LOOKUP: call @gatherMPIAlltoallLookup({{.*}}) : (!llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
// LOOKUP: %[[BLOCK:.*]] = bufferization.to_tensor %{{.*}} restrict writable : memref<2xf32> to tensor<2xf32>
// LOOKUP: %[[ALL:.*]] = shard.all_gather %[[BLOCK]] on @gather_grid grid_axes = [0] gather_axis = 0 {gather.assembled = "the lookups", gather.whole_size = 4 : i64} : tensor<2xf32> -> tensor<4xf32>
// LOOKUP: tensor.expand_shape %[[ALL]] {{\[}}[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
