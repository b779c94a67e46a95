// A dynamic shape decides at run time whether to use threads: the element
// count of `indices` against parallel-threshold (default 8192) selects the
// OpenMP region or the same loops run serially. Both read the index values
// once: the index check is part of the gather's loop (no second loop over
// `indices` before the cold report path).
// RUN: gather-opt %s --onnx-to-llvm=gather-form=hardware | FileCheck %s
// RUN: gather-opt %s --onnx-to-llvm="gather-form=hardware parallel-threshold=100" | FileCheck %s --check-prefix=T100
// One thread: no OpenMP and no run-time choice.
// RUN: gather-opt %s --onnx-to-llvm="gather-form=hardware num-threads=1" | FileCheck %s --check-prefix=SERIAL

// CHECK-LABEL: llvm.func @dynamic(
// CHECK-DAG:     %[[THRESHOLD:.*]] = llvm.mlir.constant(8192 : index) : i64
// CHECK:         %[[ENOUGH:.*]] = llvm.icmp "uge" %{{.*}}, %[[THRESHOLD]] : i64
// CHECK-NEXT:    llvm.cond_br %[[ENOUGH]], ^[[THREADS:.*]], ^[[ALONE:[^ ]*]]
// CHECK:       ^[[THREADS]]:
// CHECK:         omp.parallel
// CHECK:           llvm.intr.masked.gather
// CHECK:           llvm.atomicrmw _or
// CHECK:       ^[[ALONE]]:
// CHECK-NOT:     omp.parallel
// CHECK:         llvm.intr.masked.gather
// CHECK-NOT:     omp.parallel
// CHECK:         llvm.call @gatherReportIndexError
// T100: llvm.mlir.constant(100 : index) : i64
// T100: llvm.icmp "uge"
// T100: omp.parallel
// SERIAL-LABEL: llvm.func @dynamic(
// SERIAL-NOT:     omp.
// SERIAL-NOT:     atomicrmw
// SERIAL:         llvm.intr.masked.gather
// SERIAL-NOT:     omp.
// SERIAL-NOT:     atomicrmw
// SERIAL:         llvm.return
func.func @dynamic(%data: tensor<?x?xf32>, %indices: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = onnx.GatherElements %data, %indices axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  return %r : tensor<?x?xf32>
}
