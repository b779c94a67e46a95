// shard-io=split (onnx-shard-gathers io=split): a public function's
// arguments read only by a split gather take this process's slab, a result
// that is only the gather's is returned as the slab; the rest stays whole
// (the remark says what and why). Calls in the module pass slabs and
// assemble the results.
// RUN: gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{axis-scheme=all-reduce grid-size=2 io=split})' -split-input-file | FileCheck %s
// RUN: gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{axis-scheme=all-reduce grid-size=2 io=split remarks=true})' -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// A bad value: an error at the module, in the pass and in the pipeline.
// RUN: not gather-opt %s --pass-pipeline='builtin.module(onnx-shard-gathers{axis-scheme=all-reduce grid-size=2 io=slabs})' -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gather-opt %s --onnx-to-llvm='shard-grid=2 shard-io=slab' -split-input-file 2>&1 | FileCheck %s --check-prefix=PIPELINE
// BAD: for the --io option: Cannot find option named 'slabs'!
// BAD-NEXT: error: invalid options of 'onnx-shard-gathers': 'axis-scheme=all-reduce grid-size=2 io=slabs'
// PIPELINE: error: invalid options of 'onnx-to-llvm': invalid value 'slab' for option 'shard-io'; valid values: whole, split

// Even: static slabs, a local gather and only the index check's all_reduce.
// REMARK: remark: gather-shard: shard-io=split: data a slab, indices a slab, the result a slab
// CHECK-LABEL: func.func @even(
// CHECK-SAME: %{{.*}}: tensor<4096x16xf32>, %{{.*}}: tensor<4096x3xi64>) -> tensor<4096x3xf32>
// CHECK-NOT: gatherReportSlabShapeError
// CHECK: call @[[EVEN:gather_shard[_0-9]*]](
// CHECK: func.func private @[[EVEN]](
// CHECK-NOT: shard.all_gather
// CHECK: shard.all_reduce {{.*}} reduction = max
// CHECK-NOT: shard.all_gather
// CHECK: onnx.GatherElements {{.*}} {gather.indices_checked_by_caller} : tensor<4096x16xf32>, tensor<4096x3xi64>{{$}}
// CHECK-NOT: shard.all_
// CHECK: return
func.func @even(%d: tensor<8192x16xf32>, %i: tensor<8192x3xi64>) -> tensor<8192x3xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<8192x16xf32>, tensor<8192x3xi64>
  return %0 : tensor<8192x3xf32>
}

// -----

// Uneven (5 rows on 2: 3 and 2): a dynamic split dimension, checked at
// entry against the process's block.
// REMARK: remark: gather-shard: shard-io=split: data a slab, indices a slab, the result a slab
// CHECK-LABEL: func.func @uneven(
// CHECK-SAME: %[[D:.*]]: tensor<?x6xf32>, %[[I:.*]]: tensor<?x3xi64>) -> tensor<?x3xf32>
// CHECK-DAG: tensor.dim %[[D]], %{{.*}} : tensor<?x6xf32>
// CHECK-DAG: tensor.dim %[[I]], %{{.*}} : tensor<?x3xi64>
// CHECK-DAG: arith.constant dense<[0, 3, 5]> : tensor<3xindex>
// CHECK: shard.all_reduce {{.*}} reduction = min
// CHECK: scf.if
// CHECK: call @gatherReportSlabShapeError(
// CHECK: call @gather_shard
func.func @uneven(%d: tensor<5x6xf32>, %i: tensor<5x3xi64>) -> tensor<5x3xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<5x6xf32>, tensor<5x3xi64>
  return %0 : tensor<5x3xf32>
}

// -----

// The axis split (dimension 1 cannot split: 6 in `data`, 5 in
// `indices`): `data` is the axis block; `indices` and the result stay
// whole (masked gather + bit-exact all_reduce).
// REMARK: remark: gather-shard: shard-io=split: data a slab, indices whole (the axis is split), the result whole (the axis is split)
// CHECK-LABEL: func.func @axis(
// CHECK-SAME: %{{.*}}: tensor<2x6xf32>, %{{.*}}: tensor<3x5xi64>) -> tensor<3x5xf32>
// CHECK: func.func private @gather_shard
// CHECK: linalg.generic
// CHECK: shard.all_reduce {{.*}}gather.bit_exact_sum
func.func @axis(%d: tensor<4x6xf32>, %i: tensor<3x5xi64>) -> tensor<3x5xf32> {
  %0 = onnx.GatherElements %d, %i axis = 0 : tensor<4x6xf32>, tensor<3x5xi64>
  return %0 : tensor<3x5xf32>
}

// -----

// An argument with another use and a result used twice stay whole: the
// slab of `indices` is sliced from it, the result assembled.
// REMARK: remark: gather-shard: shard-io=split: data whole (it has other uses), indices a slab, the result whole (it has several uses)
// CHECK-LABEL: func.func @other_uses(
// CHECK-SAME: %{{.*}}: tensor<4x6xf32>, %{{.*}}: tensor<2x3xi64>) -> (tensor<4x3xf32>, tensor<4x6xf32>, tensor<4x3xf32>)
// CHECK: func.func private @gather_shard
// CHECK: tensor.extract_slice {{.*}} : tensor<4x6xf32> to tensor<2x6xf32>
// CHECK: shard.all_gather {{.*}} : tensor<2x3xf32> -> tensor<4x3xf32>
func.func @other_uses(%d: tensor<4x6xf32>, %i: tensor<4x3xi64>) -> (tensor<4x3xf32>, tensor<4x6xf32>, tensor<4x3xf32>) {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4x6xf32>, tensor<4x3xi64>
  return %0, %d, %0 : tensor<4x3xf32>, tensor<4x6xf32>, tensor<4x3xf32>
}

// -----

// Destination-passing style (the kernel API): memref slabs; a private
// function keeps its signature; a call in the module passes its slabs and
// assembles the result for the caller.
// REMARK: remark: gather-shard: shard-io=split: data a slab, indices a slab, the result a slab
// REMARK: remark: gather-shard: shard-io=split: data whole (the function is not public), indices whole (the function is not public), the result whole (the function is not public)
// CHECK-LABEL: func.func @kernel(
// CHECK-SAME: %{{.*}}: memref<2x6xf32>, %{{.*}}: memref<2x3xi64>, %{{.*}}: memref<2x3xf32>)
// CHECK: bufferization.to_tensor {{.*}} : memref<2x6xf32> to tensor<2x6xf32>
// CHECK: bufferization.materialize_in_destination {{.*}} : (tensor<2x3xf32>, memref<2x3xf32>)
// CHECK-LABEL: func.func private @hidden(
// CHECK-SAME: %{{.*}}: tensor<4x6xf32>, %{{.*}}: tensor<4x3xi64>) -> tensor<4x3xf32>
// CHECK-LABEL: func.func @caller(
// CHECK: %[[DS:.*]] = memref.alloc() : memref<2x6xf32>
// CHECK: memref.subview {{.*}} to memref<2x6xf32, strided<[6, 1], offset: ?>>
// CHECK: memref.copy
// CHECK: %[[OS:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK: call @kernel(%[[DS]], %{{.*}}, %[[OS]])
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[OS]] restrict
// CHECK: %[[W:.*]] = shard.all_gather %[[T]] on @gather_grid grid_axes = [0] gather_axis = 0 : tensor<2x3xf32> -> tensor<4x3xf32>
// CHECK: bufferization.materialize_in_destination %[[W]] in restrict writable
func.func @kernel(%dm: memref<4x6xf32>, %im: memref<4x3xi64>, %om: memref<4x3xf32>) {
  %d = bufferization.to_tensor %dm restrict : memref<4x6xf32> to tensor<4x6xf32>
  %i = bufferization.to_tensor %im restrict : memref<4x3xi64> to tensor<4x3xi64>
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4x6xf32>, tensor<4x3xi64>
  bufferization.materialize_in_destination %0 in restrict writable %om : (tensor<4x3xf32>, memref<4x3xf32>) -> ()
  return
}
func.func private @hidden(%d: tensor<4x6xf32>, %i: tensor<4x3xi64>) -> tensor<4x3xf32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<4x6xf32>, tensor<4x3xi64>
  return %0 : tensor<4x3xf32>
}
func.func @caller(%dm: memref<4x6xf32>, %im: memref<4x3xi64>, %om: memref<4x3xf32>) {
  call @kernel(%dm, %im, %om) : (memref<4x6xf32>, memref<4x3xi64>, memref<4x3xf32>) -> ()
  return
}

// -----

// A call of a function that returns a slab: the caller's constants sliced
// at the process's offset, the result assembled (uneven: dynamic, cast).
// CHECK-LABEL: func.func @five(
// CHECK-SAME: -> tensor<?x2xi32>
// CHECK-LABEL: func.func @use(
// CHECK: shard.process_multi_index on @gather_grid axes = [0]
// CHECK: %[[DS:.*]] = tensor.extract_slice %{{.*}} : tensor<5x2xi32> to tensor<?x2xi32>
// CHECK: %[[IS:.*]] = tensor.extract_slice %{{.*}} : tensor<5x2xi64> to tensor<?x2xi64>
// CHECK: %[[R:.*]] = call @five(%[[DS]], %[[IS]]) : (tensor<?x2xi32>, tensor<?x2xi64>) -> tensor<?x2xi32>
// CHECK: %[[G:.*]] = shard.all_gather %[[R]] on @gather_grid grid_axes = [0] gather_axis = 0 : tensor<?x2xi32> -> tensor<?x2xi32>
// CHECK: %[[C:.*]] = tensor.cast %[[G]] : tensor<?x2xi32> to tensor<5x2xi32>
// CHECK: return %[[C]]
func.func @five(%d: tensor<5x2xi32>, %i: tensor<5x2xi64>) -> tensor<5x2xi32> {
  %0 = onnx.GatherElements %d, %i axis = 1 : tensor<5x2xi32>, tensor<5x2xi64>
  return %0 : tensor<5x2xi32>
}
func.func @use() -> tensor<5x2xi32> {
  %d = arith.constant dense<[[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]> : tensor<5x2xi32>
  %i = arith.constant dense<1> : tensor<5x2xi64>
  %r = call @five(%d, %i) : (tensor<5x2xi32>, tensor<5x2xi64>) -> tensor<5x2xi32>
  return %r : tensor<5x2xi32>
}
