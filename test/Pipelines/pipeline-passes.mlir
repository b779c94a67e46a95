// The pass list of the onnx-to-llvm pipeline, pass by pass (one CHECK line
// per pass, from `builtin.module(` to its `)`): docs/Pipeline.md and the
// stage functions of include/gather/Pipelines/Pipelines.h describe this
// list, and a change to the pipeline must change this test. The options
// gather sets are checked; the other options of upstream passes are not.
// Configurations: the default, shard-grid=2 (the sharding stages),
// gather-form=scalar (nothing vectorized) and num-threads=1 (no OpenMP).
// --dump-pass-pipeline prints to stderr before the pipeline runs.
// RUN: gather-opt %s --onnx-to-llvm --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN: | FileCheck %s --match-full-lines --check-prefixes=ALL,PIPE,THREADS,CG-DEFAULT,FORM-AUTO
// RUN: gather-opt %s --onnx-to-llvm=shard-grid=2 --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN: | FileCheck %s --match-full-lines --check-prefixes=ALL,PIPE,THREADS,SHARD,CG-DEFAULT,FORM-AUTO
// RUN: gather-opt %s --onnx-to-llvm=gather-form=scalar --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN: | FileCheck %s --match-full-lines --check-prefixes=ALL,PIPE,THREADS,CG-SCALAR,FORM-SCALAR
// RUN: gather-opt %s --onnx-to-llvm=num-threads=1 --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN: | FileCheck %s --match-full-lines --check-prefixes=ALL,PIPE,CG-ONE,FORM-AUTO
// The seven gather-pipeline-* stages, run in order, are the pipeline after
// its first pass (which runs the pipeline on nested modules).
// RUN: gather-opt %s --dump-pass-pipeline -o /dev/null --pass-pipeline='builtin.module( \
// RUN:   gather-pipeline-onnx-preprocessing{shard-grid=2}, gather-pipeline-sharding{shard-grid=2}, \
// RUN:   gather-pipeline-onnx-to-linalg{shard-grid=2}, gather-pipeline-shard-to-mpi{shard-grid=2}, \
// RUN:   gather-pipeline-codegen{shard-grid=2}, gather-pipeline-bufferization{shard-grid=2}, \
// RUN:   gather-pipeline-lower-to-llvm{shard-grid=2})' 2>&1 \
// RUN: | FileCheck %s --match-full-lines --check-prefixes=ALL,THREADS,SHARD,CG-DEFAULT,FORM-AUTO

// ALL:      builtin.module(
// PIPE-NEXT:  gather-lower-nested-modules{pipeline-options={{[{].*}}runtime-checks=true{{.*[}]}}},
// 1. gather-pipeline-onnx-preprocessing
// ALL-NEXT:   onnx-check-gather-destinations{runtime-checks=true},
// ALL-NEXT:   func.func(
// ALL-NEXT:     gather-blend-masked-writes
// ALL-NEXT:   ),
// ALL-NEXT:   canonicalize{{[{].*[}]}},
// ALL-NEXT:   onnx-shape-inference{refine-public-functions=false},
// 2. gather-pipeline-sharding
// SHARD-NEXT: onnx-shard-gathers{axis-scheme=auto grid-size=2 io=whole remarks=false shard-dim=-1},
// SHARD-NEXT: gather-shard-partition-functions,
// 3. gather-pipeline-onnx-to-linalg
// ALL-NEXT:   convert-onnx-to-linalg{runtime-checks=true},
// ALL-NEXT:   gather-check-lowered{level=onnx},
// ALL-NEXT:   canonicalize{{[{].*[}]}},
// ALL-NEXT:   cse,
// 4. gather-pipeline-shard-to-mpi
// SHARD-NEXT: gather-shard-prepare-for-mpi{assembly=all-gather remarks=false},
// SHARD-NEXT: convert-shard-to-mpi,
// SHARD-NEXT: gather-shard-cache-communicators,
// SHARD-NEXT: symbol-dce,
// SHARD-NEXT: canonicalize{{[{].*[}]}},
// SHARD-NEXT: cse,
// 5. gather-pipeline-codegen
// ALL-NEXT:   func.func(
// ALL-NEXT:     gather-raise-buffer-gathers{remarks=false},
// CG-DEFAULT-NEXT: gather-codegen{in-register-gathers=true narrow-limit=2147483647 narrow-offsets=false parallel=true parallel-chunk=16384 parallel-threshold=8192 prefetch-distance=4096 remarks=false row-block-bytes=262144 target-cpu= target-features= unfused-remarks=true vector-size=16}
// CG-SCALAR-NEXT:  gather-codegen{in-register-gathers=true narrow-limit=2147483647 narrow-offsets=false parallel=true parallel-chunk=16384 parallel-threshold=8192 prefetch-distance=4096 remarks=false row-block-bytes=262144 target-cpu= target-features= unfused-remarks=true vector-size=0}
// CG-ONE-NEXT:     gather-codegen{in-register-gathers=true narrow-limit=2147483647 narrow-offsets=false parallel=false parallel-chunk=16384 parallel-threshold=8192 prefetch-distance=4096 remarks=false row-block-bytes=262144 target-cpu= target-features= unfused-remarks=true vector-size=16}
// ALL-NEXT:   ),
// ALL-NEXT:   canonicalize{{[{].*[}]}},
// ALL-NEXT:   cse,
// ALL-NEXT:   func.func(
// ALL-NEXT:     gather-lower-vector-masks
// ALL-NEXT:   ),
// FORM-AUTO-NEXT:   gather-select-form{gather-form=auto target-cpu= target-features=},
// FORM-SCALAR-NEXT: gather-select-form{gather-form=scalar target-cpu= target-features=},
// 6. gather-pipeline-bufferization
// ALL-NEXT:   gather-restrict-to-tensors,
// ALL-NEXT:   gather-duplicate-shared-tensors,
// ALL-NEXT:   gather-eliminate-destination-empty-tensors,
// ALL-NEXT:   func.func(
// ALL-NEXT:     gather-blend-masked-writes
// ALL-NEXT:   ),
// ALL-NEXT:   one-shot-bufferize{allow-return-allocs-from-loops=true {{.*}} bufferize-function-boundaries=true {{.*}} function-boundary-type-conversion=identity-layout-map {{.*}} unknown-type-conversion=identity-layout-map {{.*}}},
// ALL-NEXT:   canonicalize{{[{].*[}]}},
// ALL-NEXT:   cse,
// ALL-NEXT:   func.func(
// ALL-NEXT:     gather-copy-aliased-results
// ALL-NEXT:   ),
//             (bufferization::buildBufferDeallocationPipeline)
// ALL-NEXT:   expand-realloc{emit-deallocs=false},
// ALL-NEXT:   canonicalize{{[{].*[}]}},
// ALL-NEXT:   ownership-based-buffer-deallocation{private-function-dynamic-ownership=false},
// ALL-NEXT:   canonicalize{{[{].*[}]}},
// ALL-NEXT:   buffer-deallocation-simplification,
// ALL-NEXT:   bufferization-lower-deallocations,
// ALL-NEXT:   cse,
// ALL-NEXT:   canonicalize{{[{].*[}]}},
// ALL-NEXT:   convert-bufferization-to-memref,
// ALL-NEXT:   gather-check-allocations,
// 7. gather-pipeline-lower-to-llvm
// THREADS-NEXT: scf-forall-to-parallel,
// THREADS-NEXT: convert-scf-to-openmp{num-threads=0},
// THREADS-NEXT: canonicalize{{[{].*[}]}},
// ALL-NEXT:   func.func(
// ALL-NEXT:     lower-vector-multi-reduction{lowering-strategy=inner-parallel}
// ALL-NEXT:   ),
// ALL-NEXT:   func.func(
// ALL-NEXT:     gather-lower-row-permutes
// ALL-NEXT:   ),
// ALL-NEXT:   func.func(
// ALL-NEXT:     gather-widen-i1-accesses
// ALL-NEXT:   ),
// ALL-NEXT:   func.func(
// ALL-NEXT:     convert-vector-to-scf{{[{].*[}]}}
// ALL-NEXT:   ),
// ALL-NEXT:   func.func(
// ALL-NEXT:     gather-lower-strided-copies
// ALL-NEXT:   ),
// ALL-NEXT:   func.func(
// ALL-NEXT:     convert-linalg-to-loops
// ALL-NEXT:   ),
// ALL-NEXT:   expand-strided-metadata,
// ALL-NEXT:   lower-affine,
// ALL-NEXT:   func.func(
// ALL-NEXT:     gather-lower-alloca-scopes
// ALL-NEXT:   ),
// ALL-NEXT:   convert-scf-to-cf{allow-pattern-rollback=false},
// ALL-NEXT:   convert-vector-to-llvm{{[{].*[}]}},
// ALL-NEXT:   convert-onnx-strings-to-llvm,
// ALL-NEXT:   convert-to-llvm{{[{].*[}]}},
// ALL-NEXT:   reconcile-unrealized-casts,
// ALL-NEXT:   gather-internalize-private-symbols,
// ALL-NEXT:   gather-check-constant-sizes,
// ALL-NEXT:   gather-check-lowered{level=llvm}
// ALL-NEXT: )

module {}
