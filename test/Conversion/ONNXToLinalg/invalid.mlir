// RUN: gather-opt %s --convert-onnx-to-linalg -split-input-file -verify-diagnostics

// With both operands unranked the rank is unknown: nothing to lower to.
func.func @both_unranked(%data: tensor<*xf32>, %indices: tensor<*xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{failed to legalize operation 'onnx.GatherElements' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.GatherElements' op cannot be lowered with both 'data' and 'indices' unranked: the rank is unknown}}
  %0 = onnx.GatherElements %data, %indices : tensor<*xf32>, tensor<*xi64>
  return %0 : tensor<*xf32>
}

// -----

// The module's error sink (the handler its reports go to) is reserved too:
// a user symbol of that name that is not the sink would be written by the
// host's handler.
// expected-error @+1 {{symbol '__gather_error_sink' is reserved for gather's runtime and must be a mutable, defined, weak or external llvm.mlir.global of type !llvm.struct<(ptr, ptr)> in address space 0, not thread-local}}
func.func private @__gather_error_sink(f32)
func.func @sink_clash(%data: tensor<3xf32>, %indices: tensor<?xi64>) -> tensor<?xf32> {
  %0 = onnx.GatherElements %data, %indices : tensor<3xf32>, tensor<?xi64>
  return %0 : tensor<?xf32>
}

// -----

// expected-error @+1 {{symbol '__gather_error_sink' is reserved for gather's runtime and must be a mutable, defined, weak or external llvm.mlir.global of type !llvm.struct<(ptr, ptr)> in address space 0, not thread-local}}
llvm.mlir.global constant @__gather_error_sink() : !llvm.struct<(ptr, ptr)> {
  %0 = llvm.mlir.zero : !llvm.struct<(ptr, ptr)>
  llvm.return %0 : !llvm.struct<(ptr, ptr)>
}
func.func @constant_sink(%data: tensor<3xf32>, %indices: tensor<?xi64>) -> tensor<?xf32> {
  %0 = onnx.GatherElements %data, %indices : tensor<3xf32>, tensor<?xi64>
  return %0 : tensor<?xf32>
}

// -----

// The runtime's function names are reserved for its declarations.
// expected-error @+1 {{symbol 'gatherReportIndexError' is reserved for gather's runtime and must be an external func.func of type '(!llvm.ptr, i64, !llvm.ptr, i64, i64, i64) -> ()'}}
func.func private @gatherReportIndexError(f32)
func.func @clash(%data: tensor<3xf32>, %indices: tensor<?xi64>) -> tensor<?xf32> {
  %0 = onnx.GatherElements %data, %indices : tensor<3xf32>, tensor<?xi64>
  return %0 : tensor<?xf32>
}

// -----

// A matching declaration is reused, not duplicated.
func.func private @gatherReportIndexError(!llvm.ptr, i64, !llvm.ptr, i64, i64, i64)
func.func @reuse(%data: tensor<3xf32>, %indices: tensor<?xi64>) -> tensor<?xf32> {
  %0 = onnx.GatherElements %data, %indices : tensor<3xf32>, tensor<?xi64>
  return %0 : tensor<?xf32>
}

// -----

// An unranked operand that is visibly a tensor.cast of a tensor of another
// rank: a compile-time error.
func.func @rank_mismatch_through_cast() -> tensor<1x2xf32> {
  %x = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %u = tensor.cast %x : tensor<3xf32> to tensor<*xf32>
  %i = arith.constant dense<[[0, 1]]> : tensor<1x2xi64>
  // expected-error @+2 {{failed to legalize operation 'onnx.GatherElements' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.GatherElements' op operand 'data' has rank 1 and operand 'indices' has rank 2 (seen through tensor.cast); the ranks must be equal}}
  %r = onnx.GatherElements %u, %i axis = 1 : tensor<*xf32>, tensor<1x2xi64>
  return %r : tensor<1x2xf32>
}

// -----

// Both operands unranked, the rank learned through tensor.cast: `axis` is
// checked against it (it read the shape out of bounds, or gathered along a
// wrong axis with exit status 0).
func.func @axis_too_big_through_cast() -> tensor<*xi8> {
  %d = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi8>
  %i = arith.constant dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>
  %c = tensor.cast %d : tensor<2x4xi8> to tensor<*xi8>
  %ci = tensor.cast %i : tensor<2x2xi64> to tensor<*xi64>
  // expected-error @+2 {{failed to legalize operation 'onnx.GatherElements' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.GatherElements' op attribute 'axis' = 7 is out of range [-2, 1] for operand 'data' of rank 2 (seen through tensor.cast)}}
  %r = onnx.GatherElements %c, %ci axis = 7 : tensor<*xi8>, tensor<*xi64> -> tensor<*xi8>
  return %r : tensor<*xi8>
}

// -----

func.func @axis_too_small_through_cast() -> tensor<*xi8> {
  %d = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi8>
  %i = arith.constant dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>
  %c = tensor.cast %d : tensor<2x4xi8> to tensor<*xi8>
  %ci = tensor.cast %i : tensor<2x2xi64> to tensor<*xi64>
  // expected-error @+2 {{failed to legalize operation 'onnx.GatherElements' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.GatherElements' op attribute 'axis' = -3 is out of range [-2, 1] for operand 'data' of rank 2 (seen through tensor.cast)}}
  %r = onnx.GatherElements %c, %ci axis = -3 : tensor<*xi8>, tensor<*xi64> -> tensor<*xi8>
  return %r : tensor<*xi8>
}

// -----

// Also in a nested module, and a definition (with a body) is not the
// runtime's function either.
module @inner {
  // expected-error @+1 {{symbol 'gatherReportShapeError' is reserved for gather's runtime and must be an external func.func of type '(!llvm.ptr, i64, i64, i64, i64) -> ()'}}
  func.func private @gatherReportShapeError(%a: i64, %b: i64, %c: i64, %d: i64) {
    return
  }
  func.func @clash_nested(%data: tensor<?xf32>, %indices: tensor<?xi64>) -> tensor<?xf32> {
    %0 = onnx.GatherElements %data, %indices : tensor<?xf32>, tensor<?xi64>
    return %0 : tensor<?xf32>
  }
}

// -----

// Every runtime function name is reserved the same way: a user function
// named like a printer would replace it when linked.
// expected-error @+1 {{symbol 'gatherPrintF32' is reserved for gather's runtime and must be an external func.func of type '(tensor<*xf32>, i64) -> ()'}}
func.func @gatherPrintF32(%t: tensor<*xf32>, %i: i64) {
  return
}

// -----

// expected-error @+1 {{symbol 'gatherCompareI64' is reserved for gather's runtime and must be an external func.func of type '(tensor<*xi64>, tensor<*xi64>, i64, f64, f64) -> ()'}}
func.func private @gatherCompareI64(tensor<*xi64>)

// -----

// The C interface names (`_mlir_ciface_` + name), other suffixes and the
// other families too.
// expected-error @+1 {{symbol '_mlir_ciface_gatherWriteTensorProtoF32' is reserved for gather's runtime (names starting with gatherReport, gatherPrint, gatherCompare, gatherWriteTensorProto, gatherSetErrorHandler, gatherSetPrintLimit); it can only declare an external function}}
func.func @_mlir_ciface_gatherWriteTensorProtoF32() {
  return
}

// -----

// expected-error @+1 {{symbol 'gatherReportAllocationError' is reserved for gather's runtime (names starting with gatherReport, gatherPrint, gatherCompare, gatherWriteTensorProto, gatherSetErrorHandler, gatherSetPrintLimit); it can only declare an external function}}
llvm.func @gatherReportAllocationError(%bytes: i64, %what: !llvm.ptr) {
  llvm.return
}

// -----

// expected-error @+1 {{symbol 'gatherPrintMine' is reserved for gather's runtime}}
func.func @gatherPrintMine() {
  return
}

// -----

// The host's print limit (gatherSetPrintLimit, GatherRuntime.h) too.
// expected-error @+1 {{symbol 'gatherSetPrintLimit' is reserved for gather's runtime}}
func.func @gatherSetPrintLimit(%limit: i64) {
  return
}

// -----

// Declarations with the runtime's types are fine (a program may call the
// runtime itself).
func.func private @gatherPrintF32(tensor<*xf32>, i64)
func.func private @gatherSetErrorHandler(!llvm.ptr) -> !llvm.ptr
llvm.func @_mlir_ciface_gatherPrintF64(!llvm.ptr, i64)

// -----

// onnx-mlir's onnx.EntryPoint must name a function of the module.
// expected-error @+2 {{'onnx.EntryPoint' op expects a 'func' attribute naming a function of the module (onnx-mlir's entry point), and no operands or results}}
// expected-error @+1 {{failed to legalize operation 'onnx.EntryPoint' that was explicitly marked illegal}}
"onnx.EntryPoint"() {func = @missing} : () -> ()

// -----

// Constant indices that the verifier could not check (the operands reach
// the gather through casts to unranked types) are checked where they are
// lowered: out of range is an error, as with ranked operands, not a gather
// without a run-time check.
func.func @constant_indices_through_unranked_casts() -> tensor<2x3xf32> {
  %d = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %i = arith.constant dense<[[1, 0, 7], [1, 1, 0]]> : tensor<2x3xi64>
  %du = tensor.cast %d : tensor<2x3xf32> to tensor<*xf32>
  %iu = tensor.cast %i : tensor<2x3xi64> to tensor<*xi64>
  // expected-error @+2 {{failed to legalize operation 'onnx.GatherElements' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.GatherElements' op (its operands seen through tensor.cast) operand 'indices' holds value 7 at position [0, 2], outside the valid range [-2, 1] for axis 0 of size 2}}
  %r = onnx.GatherElements %du, %iu axis = 0 : tensor<*xf32>, tensor<*xi64> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

func.func @constant_indices_unranked_data(%d: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %i = arith.constant dense<[[0, 0, 0], [0, 0, -3]]> : tensor<2x3xi64>
  %du = tensor.cast %d : tensor<2x3xf32> to tensor<*xf32>
  // expected-error @+2 {{failed to legalize operation 'onnx.GatherElements' that was explicitly marked illegal}}
  // expected-error @+1 {{'onnx.GatherElements' op (its operands seen through tensor.cast) operand 'indices' holds value -3 at position [1, 2], outside the valid range [-2, 1] for axis 0 of size 2}}
  %r = onnx.GatherElements %du, %i axis = 0 : tensor<*xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
