// The size guard of 32-bit lane offsets (narrow-offsets=true) for tensors of
// dynamic sizes: once, before the loops, the kernel checks that each dynamic
// size and the element count of `data` are at most narrow-limit (default
// 2^31 - 1), and runs the loops with 32-bit offsets if so, with 64-bit
// offsets if not. The index check is the same in both.
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="narrow-offsets=true parallel=false prefetch-distance=0" --canonicalize --cse | FileCheck %s
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="narrow-offsets=true narrow-limit=100 parallel=false prefetch-distance=0" --canonicalize --cse | FileCheck %s --check-prefix=SMALL
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="narrow-offsets=true remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="narrow-offsets=true narrow-limit=100 remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK-SMALL
// Without narrow-offsets: no guard, 64-bit offsets only.
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --canonicalize --cse --gather-codegen="parallel=false prefetch-distance=0" --canonicalize --cse | FileCheck %s --check-prefix=OFF
// The limit is in [0, 2^31 - 1]:
// RUN: not gather-opt %s --gather-codegen="narrow-limit=-1" 2>&1 | FileCheck %s --check-prefix=BAD-NEG
// RUN: not gather-opt %s --gather-codegen="narrow-limit=2147483648" 2>&1 | FileCheck %s --check-prefix=BAD-BIG
// RUN: not gather-opt %s --onnx-to-llvm="narrow-limit=2147483648" 2>&1 | FileCheck %s --check-prefix=BAD-BIG

// BAD-NEG: error: gather-codegen: narrow-limit must be in [0, 2147483647] (elements), not -1
// BAD-BIG: error: gather-codegen: narrow-limit must be in [0, 2147483647] (elements), not 2147483648

// OFF-NOT: 2147483647
// OFF-NOT: vector<16xi32>, vector<16xi1>, vector<16xf32> into

// Rows of a dynamic count: the guard is on data's dynamic size and its
// element count (the static 256 fits by the plan); the 32-bit loops gather
// with vector<16xi32> offsets, the others with vector<16xindex>.
// CHECK-LABEL: func.func @dynamic_rows(
// CHECK-SAME:    %[[D:.*]]: tensor<?x256xf32>, %[[I:.*]]: tensor<?x256xi64>
// CHECK-DAG:     %[[LIMIT:.*]] = arith.constant 2147483647 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK:         %[[ROWS:.*]] = tensor.dim %[[D]], %c0
// CHECK:         %[[ROWS_FIT:.*]] = arith.cmpi ule, %[[ROWS]], %[[LIMIT]] : index
// CHECK:         %[[COUNT:.*]] = arith.muli %[[ROWS]], %[[C256]] : index
// CHECK:         %[[COUNT_FITS:.*]] = arith.cmpi ule, %[[COUNT]], %[[LIMIT]] : index
// CHECK:         %[[FITS:.*]] = arith.andi %[[ROWS_FIT]], %[[COUNT_FITS]] : i1
// CHECK:         scf.if %[[FITS]]
// CHECK:           scf.for
// CHECK:             vector.transfer_read %[[I]]{{.*}} : tensor<?x256xi64>, vector<16xi64>
// CHECK:             arith.cmpi ult, %{{.*}} : vector<16xindex>
// CHECK:             arith.index_cast %{{.*}} : vector<16xindex> to vector<16xi32>
// CHECK:             vector.gather %[[D]]{{.*}} : tensor<?x256xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK:         } else {
// CHECK:           scf.for
// CHECK:             vector.transfer_read %[[I]]{{.*}} : tensor<?x256xi64>, vector<16xi64>
// CHECK:             arith.cmpi ult, %{{.*}} : vector<16xindex>
// CHECK-NOT:         vector<16xi32>
// CHECK:             vector.gather %[[D]]{{.*}} : tensor<?x256xf32>, vector<16xindex>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK:         }
// CHECK:         return
// SMALL-LABEL: func.func @dynamic_rows(
// SMALL-NOT:     vector<16xi32>
// SMALL:         return
// REMARK: remark: gather-codegen: vectors of 16; threads from 8192 elements (decided at run time); prefetches 4096 B ahead; index check fused; 32-bit offsets if the dynamic sizes allow (at most 2147483647 elements, checked at run time; else 64-bit)
// REMARK-SMALL: remark: gather-codegen: {{.*}}; 64-bit offsets (data has over 100 elements)
func.func @dynamic_rows(%d: tensor<?x256xf32>, %i: tensor<?x256xi64>) -> tensor<?x256xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<?x256xf32>, tensor<?x256xi64>
  return %r : tensor<?x256xf32>
}

// -----

// All sizes dynamic, i32 indices (the index rule in `index`: a dynamic axis
// size): each size, each partial product checked against the limit.
// CHECK-LABEL: func.func @all_dynamic(
// CHECK-SAME:    %[[D:.*]]: tensor<?x?x?xf32>
// CHECK-DAG:     %[[LIMIT:.*]] = arith.constant 2147483647 : index
// CHECK-DAG:     %[[D0:.*]] = tensor.dim %[[D]], %c0
// CHECK-DAG:     %[[D1:.*]] = tensor.dim %[[D]], %c1
// CHECK-DAG:     %[[D2:.*]] = tensor.dim %[[D]], %c2
// CHECK-DAG:     %[[F0:.*]] = arith.cmpi ule, %[[D0]], %[[LIMIT]]
// CHECK-DAG:     %[[F1:.*]] = arith.cmpi ule, %[[D1]], %[[LIMIT]]
// CHECK-DAG:     %[[P1:.*]] = arith.muli %[[D0]], %[[D1]]
// CHECK-DAG:     %[[FP1:.*]] = arith.cmpi ule, %[[P1]], %[[LIMIT]]
// CHECK-DAG:     %[[F2:.*]] = arith.cmpi ule, %[[D2]], %[[LIMIT]]
// CHECK-DAG:     %[[P2:.*]] = arith.muli %[[P1]], %[[D2]]
// CHECK-DAG:     %[[FP2:.*]] = arith.cmpi ule, %[[P2]], %[[LIMIT]]
// CHECK:         scf.if %{{.*}} -> (tensor<?x?x?xf32>, i1) {
// CHECK:           vector.gather {{.*}} vector<16xi32>
// CHECK:         } else {
// CHECK:           vector.gather {{.*}} vector<16xindex>
// SMALL-LABEL: func.func @all_dynamic(
// SMALL:         %[[LIMIT:.*]] = arith.constant 100 : index
// SMALL:         arith.cmpi ule, %{{.*}}, %[[LIMIT]]
// SMALL:         scf.if %{{.*}} -> (tensor<?x?x?xf32>, i1) {
// SMALL:           vector.gather {{.*}} vector<16xi32>
// SMALL:         } else {
// SMALL:           vector.gather {{.*}} vector<16xindex>
// REMARK: remark: gather-codegen: {{.*}}; 32-bit offsets if the dynamic sizes allow (at most 2147483647 elements, checked at run time; else 64-bit)
// REMARK-SMALL: remark: gather-codegen: {{.*}}; 32-bit offsets if the dynamic sizes allow (at most 100 elements, checked at run time; else 64-bit)
func.func @all_dynamic(%d: tensor<?x?x?xf32>, %i: tensor<?x?x?xi32>) -> tensor<?x?x?xf32> {
  %r = onnx.GatherElements %d, %i axis = 2 : tensor<?x?x?xf32>, tensor<?x?x?xi32>
  return %r : tensor<?x?x?xf32>
}

// -----

// Static data, dynamic indices: the offsets into data fit statically, no
// guard.
// CHECK-LABEL: func.func @static_data(
// CHECK-NOT:     2147483647
// CHECK:         vector.gather {{.*}} vector<16xi32>
// CHECK-NOT:     vector.gather
// CHECK:         return
// REMARK: remark: gather-codegen: {{.*}}; 32-bit offsets{{$}}
func.func @static_data(%d: tensor<8x256xf32>, %i: tensor<?x256xi64>) -> tensor<?x256xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<8x256xf32>, tensor<?x256xi64>
  return %r : tensor<?x256xf32>
}
