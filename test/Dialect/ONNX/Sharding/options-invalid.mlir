// Out-of-range sharding options are errors, not silently one process.
// RUN: not gather-opt %s --onnx-to-llvm='shard-grid=-1' 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: not gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{grid-size=0})' 2>&1 | FileCheck %s --check-prefix=GRID0
// RUN: not gather-opt %s --onnx-to-llvm='shard-grid=2 shard-dim=-2' 2>&1 | FileCheck %s --check-prefix=DIM
// RUN: not gather-translate --onnx-to-llvmir --pipeline-options='shard-grid=-3' %s 2>&1 | FileCheck %s --check-prefix=GRID3
// Grids past 2^24 processes: an error at once, not a compile that grows with
// the grid (its tables of slab bounds).
// RUN: not gather-opt %s --onnx-to-llvm='shard-grid=99999999999' 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{grid-size=16777217})' 2>&1 | FileCheck %s --check-prefix=HUGE1
// HUGE: error: onnx-shard-gathers: grid-size must be in [1, 16777216], not 99999999999
// HUGE1: error: onnx-shard-gathers: grid-size must be in [1, 16777216], not 16777217
// A shard-dim past the gather's rank: a warning at the gather, which then
// runs whole on every process (another gather may have that dimension).
// RUN: gather-opt %s --onnx-to-llvm='shard-grid=2 shard-dim=5' -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIM5
// DIM5: options-invalid.mlir:[[# @LINE + 22]]:8: warning: onnx-shard-gathers: shard-dim 5 is not a dimension of this gather's operands (rank 2): it is not partitioned
// An axis scheme that does not exist (docs/Sharding.md, which scheme is
// chosen when).
// RUN: not gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{grid-size=2 axis-scheme=alltoall})' 2>&1 | FileCheck %s --check-prefix=SCHEME
// RUN: not gather-opt %s --onnx-to-llvm='shard-grid=2 shard-axis-scheme=gather' 2>&1 | FileCheck %s --check-prefix=SCHEME-PIPELINE
// shard-grid=0 is one process without MPI: no shard or MPI ops.
// RUN: gather-opt %s --onnx-to-llvm='shard-grid=0' | FileCheck %s --check-prefix=NONE

// GRID: error: onnx-shard-gathers: grid-size must be in [1, 16777216], not -1
// (At the module's location, without a note that prints the whole module.)
// GRID-NOT: see current operation
// GRID0: error: onnx-shard-gathers: grid-size must be in [1, 16777216], not 0
// GRID3: error: onnx-shard-gathers: grid-size must be in [1, 16777216], not -3
// DIM: error: onnx-shard-gathers: shard-dim must be -1 (the first splittable dimension) or a dimension, not -2
// DIM-NOT: see current operation
// SCHEME: error: invalid options of 'onnx-shard-gathers': 'grid-size=2 axis-scheme=alltoall'
// SCHEME-PIPELINE: error: invalid options of 'onnx-to-llvm': invalid value 'gather' for option 'shard-axis-scheme'; valid values: auto, all-reduce, all-gather-data, all-to-all
// NONE-NOT: MPI
// NONE-NOT: gatherMPIInit
// NONE: llvm.func @gather

func.func @gather(%d: tensor<4x2xf32>, %i: tensor<4x2xi64>) -> tensor<4x2xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4x2xf32>, tensor<4x2xi64>
  return %0 : tensor<4x2xf32>
}
