// gather-check-lowered changes nothing. Clean input comes out unchanged.
// level=onnx, after convert-onnx-to-linalg: every op of the onnx namespace
// that gather does not lower, one error each at its location, in program
// order (nested ones too).
// level=llvm: the first op (in program order) that its level does not allow,
// with an error naming that op at its location; a
// builtin.unrealized_conversion_cast is reported only when nothing else is
// left.
// RUN: not gather-opt %s --split-input-file -o /dev/null \
// RUN:   --pass-pipeline='builtin.module(convert-onnx-to-linalg,gather-check-lowered{level=onnx})' 2>&1 \
// RUN: | FileCheck %s --check-prefix=ONNX --implicit-check-not=error:
// RUN: not gather-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(convert-onnx-to-linalg,gather-check-lowered{level=onnx})' 2>/dev/null \
// RUN: | FileCheck %s --check-prefix=ONNX-OUT
// level=llvm (the default): any op outside the llvm and omp dialects.
// RUN: not gather-opt %s --split-input-file --gather-check-lowered -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=LLVM --implicit-check-not=error:
// RUN: not gather-opt %s --split-input-file --gather-check-lowered 2>/dev/null \
// RUN: | FileCheck %s --check-prefix=LLVM-OUT
// Any other level is an error.
// RUN: not gather-opt %s --split-input-file --gather-check-lowered=level=linalg -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=LEVEL
// LEVEL: for the --level option: Cannot find option named 'linalg'!
// LEVEL-NEXT: error: invalid options of 'gather-check-lowered': 'level=linalg'

// Ops gather's dialect does not define (kept in generic form), after a
// gather that convert-onnx-to-linalg lowers: each is named, in program
// order, in one run. At level=llvm, the func.func is the first op left.
// ONNX: check-lowered.mlir:[[# @LINE + 6]]:25: error: 'onnx.TopK' op is not lowered by gather (it lowers onnx.GatherElements, onnx.Constant, onnx.If, onnx.Loop and onnx.Return)
// ONNX: check-lowered.mlir:[[# @LINE + 6]]:8: error: 'onnx.Neg' op is not lowered by gather (it lowers onnx.GatherElements, onnx.Constant, onnx.If, onnx.Loop and onnx.Return)
// LLVM: check-lowered.mlir:[[# @LINE + 2]]:1: error: 'func.func' op was left by the lowering: it is not in the LLVM dialect, so it cannot be translated to LLVM IR
// (An unknown level is the option parser's error: LEVEL above.)
func.func @topk(%data: tensor<4xf32>, %indices: tensor<4xi64>, %k: tensor<1xi64>) -> tensor<?xf32> {
  %g = onnx.GatherElements %data, %indices axis = 0 : tensor<4xf32>, tensor<4xi64>
  %values, %positions = "onnx.TopK"(%g, %k) {axis = 0 : si64} : (tensor<4xf32>, tensor<1xi64>) -> (tensor<?xf32>, tensor<?xi64>)
  %n = "onnx.Neg"(%values) : (tensor<?xf32>) -> tensor<?xf32>
  return %n : tensor<?xf32>
}

// -----

// Ops of gather's onnx dialect that later stages lower (a string constant
// becomes onnx.ConstantString + onnx.StringSlice) pass level=onnx.
// ONNX-OUT-LABEL: func.func @strings
// ONNX-OUT:         onnx.ConstantString
// ONNX-OUT:         onnx.StringSlice
// LLVM: check-lowered.mlir:[[# @LINE + 1]]:1: error: 'func.func' op was left by the lowering
func.func @strings() -> tensor<2x!onnx.string> {
  %0 = onnx.Constant dense<["a", "bc"]> : tensor<2x!onnx.string>
  return %0 : tensor<2x!onnx.string>
}

// -----

// The LLVM and OpenMP dialects pass both levels, unchanged.
// ONNX-OUT-LABEL: llvm.func @clean(
// ONNX-OUT:         omp.parallel {
// ONNX-OUT:         llvm.return
// LLVM-OUT-LABEL: llvm.func @clean(
// LLVM-OUT-NEXT:    omp.parallel {
// LLVM-OUT-NEXT:      omp.terminator
// LLVM-OUT-NEXT:    }
// LLVM-OUT-NEXT:    llvm.return %{{.*}} : i64
llvm.func @clean(%x: i64) -> i64 {
  omp.parallel {
    omp.terminator
  }
  llvm.return %x : i64
}

// -----

// A cast left in front of another op: the other op is named. At level=onnx
// neither is reported.
// ONNX-OUT-LABEL: llvm.func @cast_then_op(
// LLVM: check-lowered.mlir:[[# @LINE + 3]]:8: error: 'arith.addf' op was left by the lowering
llvm.func @cast_then_op(%x: i32) -> f32 {
  %0 = builtin.unrealized_conversion_cast %x : i32 to f32
  %1 = arith.addf %0, %0 : f32
  llvm.return %1 : f32
}

// -----

// Only casts left: the first cast is named.
// LLVM: check-lowered.mlir:[[# @LINE + 2]]:8: error: 'builtin.unrealized_conversion_cast' op was left by the lowering
llvm.func @casts(%x: i32) -> i32 {
  %0 = builtin.unrealized_conversion_cast %x : i32 to f32
  %1 = builtin.unrealized_conversion_cast %0 : f32 to i32
  llvm.return %1 : i32
}

// -----

// level=onnx across functions and regions: an op nested in another op's
// region is named too (after the op that holds it), and so is an op of a
// second function; a graph of Softmax, Log and TopK names all three.
// ONNX: check-lowered.mlir:[[# @LINE + 8]]:8: error: 'onnx.Softmax' op is not lowered by gather
// ONNX: check-lowered.mlir:[[# @LINE + 8]]:8: error: 'onnx.Log' op is not lowered by gather
// ONNX: check-lowered.mlir:[[# @LINE + 8]]:8: error: 'onnx.Scan' op is not lowered by gather
// ONNX: check-lowered.mlir:[[# @LINE + 8]]:10: error: 'onnx.Neg' op is not lowered by gather
// (The Scan's onnx.Yield is gather's op: not named.)
// ONNX: check-lowered.mlir:[[# @LINE + 13]]:25: error: 'onnx.TopK' op is not lowered by gather
// LLVM: check-lowered.mlir:[[# @LINE + 1]]:1: error: 'func.func' op was left by the lowering
func.func @graph(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %0 = "onnx.Softmax"(%x) {axis = 0 : si64} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Log"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "onnx.Scan"(%c) ({
    %3 = "onnx.Neg"(%1) : (tensor<4xf32>) -> tensor<4xf32>
    "onnx.Yield"(%3) : (tensor<4xf32>) -> ()
  }) : (tensor<i1>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

func.func @second(%x: tensor<4xf32>, %k: tensor<1xi64>) -> tensor<2xi64> {
  %values, %positions = "onnx.TopK"(%x, %k) {axis = 0 : si64} : (tensor<4xf32>, tensor<1xi64>) -> (tensor<2xf32>, tensor<2xi64>)
  return %positions : tensor<2xi64>
}
