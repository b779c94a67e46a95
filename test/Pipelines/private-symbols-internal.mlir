// onnx-to-llvm gives the private definitions of each module (its own
// helpers such as dealloc_helper, and the user's private functions)
// internal linkage, so modules compiled apart link without a clash; public
// functions, declarations and the runtime's weak error sink keep theirs.
// RUN: gather-opt %s --onnx-to-llvm | FileCheck %s
// CHECK-DAG: llvm.mlir.global weak @__gather_error_sink()
// CHECK-DAG: llvm.func @gatherReportIndexError(
// CHECK-DAG: llvm.func @declared(i64) -> i64 attributes {sym_visibility = "private"}
// CHECK-DAG: llvm.func internal @helper(
// CHECK-DAG: llvm.func @dynamic(
// CHECK-DAG: llvm.func internal @dealloc_helper(
// The same on the LLVM IR that gather-translate writes.
// RUN: gather-translate --onnx-to-llvmir %s | FileCheck %s --check-prefix=IR
// IR-DAG: define internal {{.*}}@dealloc_helper(
// IR-DAG: define internal {{.*}}@helper(
// IR-DAG: define {{.*}}@dynamic(
// IR-DAG: declare {{.*}}@declared(

module {
  func.func private @declared(i64) -> i64
  func.func private @helper(%x: i64) -> i64 {
    %0 = call @declared(%x) : (i64) -> i64
    return %0 : i64
  }
  func.func @dynamic(%d: tensor<?xf32>, %i: tensor<?xi64>, %x: i64) -> (tensor<?xf32>, i64) {
    %0 = onnx.GatherElements %d, %i : tensor<?xf32>, tensor<?xi64>
    %1 = call @helper(%x) : (i64) -> i64
    return %0, %1 : tensor<?xf32>, i64
  }
  // Buffer deallocation needs dealloc_helper for the call's results.
  func.func @caller(%d: tensor<?xf32>, %i: tensor<?xi64>, %x: i64) -> tensor<?xf32> {
    %0:2 = call @dynamic(%d, %i, %x) : (tensor<?xf32>, tensor<?xi64>, i64) -> (tensor<?xf32>, i64)
    %1 = onnx.GatherElements %0#0, %i : tensor<?xf32>, tensor<?xi64>
    return %1 : tensor<?xf32>
  }
}
