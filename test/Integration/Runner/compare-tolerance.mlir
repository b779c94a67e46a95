// REQUIRES: jit
// The runtime's comparison (gatherCompare*, which imported ONNX test data
// uses) with a tolerance that is negative or NaN: a run-time error, nothing
// compared (a NaN tolerance would make every float comparison fail).
// RUN: not gather-runner %s -e nan_atol --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: output 0: the tolerances must be numbers >= 0, but atol is nan and rtol 0.000000
// RUN: not gather-runner %s -e negative_rtol --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: output 1: the tolerances must be numbers >= 0, but atol is 0.000000 and rtol -1.000000
// RUN: gather-runner %s -e valid --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=VALID
// VALID: output 2: 2 elements match

func.func private @gatherCompareF32(tensor<*xf32> {bufferization.access = "read"}, tensor<*xf32> {bufferization.access = "read"}, i64, f64, f64) attributes {llvm.emit_c_interface}

func.func @compare(%index: i64, %atol: f64, %rtol: f64) {
  %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = arith.constant dense<[1.0, 2.5]> : tensor<2xf32>
  %ua = tensor.cast %a : tensor<2xf32> to tensor<*xf32>
  %ue = tensor.cast %e : tensor<2xf32> to tensor<*xf32>
  func.call @gatherCompareF32(%ua, %ue, %index, %atol, %rtol) : (tensor<*xf32>, tensor<*xf32>, i64, f64, f64) -> ()
  return
}

func.func @nan_atol() {
  %index = arith.constant 0 : i64
  %nan = arith.constant 0x7FF8000000000000 : f64
  %zero = arith.constant 0.0 : f64
  func.call @compare(%index, %nan, %zero) : (i64, f64, f64) -> ()
  return
}

func.func @negative_rtol() {
  %index = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  %minus = arith.constant -1.0 : f64
  func.call @compare(%index, %zero, %minus) : (i64, f64, f64) -> ()
  return
}

func.func @valid() {
  %index = arith.constant 2 : i64
  %half = arith.constant 0.5 : f64
  %zero = arith.constant 0.0 : f64
  func.call @compare(%index, %half, %zero) : (i64, f64, f64) -> ()
  return
}
