// The contract between convert-onnx-to-linalg and gather-codegen
// (include/gather/Conversion/ONNXToLinalg/GatherLinalgForm.h).
//
// 1. The lowering marks the gather and its index check.
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg | FileCheck %s --check-prefix=LOWERED
// 2. gather-codegen recognizes and fuses what the lowering emits: a change
//    of the lowering's IR that the pass does not recognize any more turns
//    these remarks into warnings ("not in the form of a gather").
// RUN: gather-opt %s --split-input-file --convert-onnx-to-linalg --gather-codegen="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefixes=FUSED,DIAG --implicit-check-not=remark: --implicit-check-not=warning:
// 3. Hand-written generics, marked or not.
// RUN: gather-opt %s --split-input-file --gather-codegen="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=remark: --implicit-check-not=warning:
// RUN: gather-opt %s --split-input-file --gather-codegen 2>/dev/null | FileCheck %s

// LOWERED-LABEL: func.func @lowered
// LOWERED:         linalg.generic
// LOWERED-SAME:      iterator_types = ["parallel", "parallel"]
// LOWERED-SAME:      attrs = {gather.elements}
// LOWERED-NOT:     linalg.generic
// LOWERED:         linalg.generic
// LOWERED-SAME:      iterator_types = ["reduction", "reduction"]
// LOWERED-SAME:      attrs = {gather.index_check}
// LOWERED-NOT:     linalg.generic
// LOWERED-LABEL: func.func @unchecked
// LOWERED:         linalg.generic
// LOWERED-SAME:      attrs = {gather.elements}
// LOWERED:         return
func.func @lowered(%d: tensor<256x256xf32>, %i: tensor<256x256xi64>) -> tensor<256x256xf32> {
  // FUSED: codegen-contract.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; prefetches 4096 B ahead; index check fused
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<256x256xf32>, tensor<256x256xi64>
  return %r : tensor<256x256xf32>
}
func.func @unchecked(%d: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %i = arith.constant dense<[[0, 1, 2], [2, 1, 0]]> : tensor<2x3xi64>
  // FUSED: codegen-contract.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: left to convert-linalg-to-loops: {{.*}}; no index check
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<2x3xf32>, tensor<2x3xi64>
  return %r : tensor<2x3xf32>
}

// -----

// Unmarked generics of the gather's form (another producer's, or the
// lowering's after a pass dropped the markers) are recognized by their
// structure alone and fused as before the markers existed.
// CHECK-LABEL: func.func @unmarked
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @unmarked(%d: tensor<256x256xf32>, %i: tensor<256x256xi64>) -> (tensor<256x256xf32>, i1) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %false = arith.constant false
  %e = tensor.empty() : tensor<256x256xf32>
  // DIAG: codegen-contract.mlir:[[# @LINE + 1]]:8: remark: gather-codegen: vectors of 16; threads; prefetches 4096 B ahead; index check fused
  %g = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%i : tensor<256x256xi64>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%v: i64, %o: f32):
    %x = arith.index_cast %v : i64 to index
    %ok = arith.cmpi ult, %x, %c256 : index
    %s = arith.select %ok, %x, %c0 : index
    %a = linalg.index 0 : index
    %t = tensor.extract %d[%a, %s] : tensor<256x256xf32>
    linalg.yield %t : f32
  } -> tensor<256x256xf32>
  %z = tensor.empty() : tensor<i1>
  %f = linalg.fill ins(%false : i1) outs(%z : tensor<i1>) -> tensor<i1>
  %k = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%i : tensor<256x256xi64>) outs(%f : tensor<i1>) {
  ^bb0(%v: i64, %acc: i1):
    %x = arith.index_cast %v : i64 to index
    %bad = arith.cmpi uge, %x, %c256 : index
    %or = arith.ori %acc, %bad : i1
    linalg.yield %or : i1
  } -> tensor<i1>
  %any = tensor.extract %k[] : tensor<i1>
  return %g, %any : tensor<256x256xf32>, i1
}

// -----

// A marked index check that is not of the check's form (an arith.andi):
// not fused, with a warning; both generics stay correct (the gather gets
// its own loops, the check stays a generic).
// CHECK-LABEL: func.func @marked_check_malformed
// CHECK:         scf.forall
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "reduction"]
func.func @marked_check_malformed(%d: tensor<256x256xf32>, %i: tensor<256x256xi64>) -> (tensor<256x256xf32>, i1) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %true = arith.constant true
  %e = tensor.empty() : tensor<256x256xf32>
  // DIAG: codegen-contract.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: vectors of 16; threads; prefetches 4096 B ahead; index check not fused (its body does not yield an arith.ori of its accumulator)
  // DIAG: codegen-contract.mlir:[[# @LINE + 1]]:8: warning: gather-codegen: a linalg.generic marked 'gather.elements' not in the form of a gather (its body does not yield an arith.ori of its accumulator): its index check is not fused
  %g = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%i : tensor<256x256xi64>) outs(%e : tensor<256x256xf32>) attrs = {gather.elements} {
  ^bb0(%v: i64, %o: f32):
    %x = arith.index_cast %v : i64 to index
    %ok = arith.cmpi ult, %x, %c256 : index
    %s = arith.select %ok, %x, %c0 : index
    %a = linalg.index 0 : index
    %t = tensor.extract %d[%a, %s] : tensor<256x256xf32>
    linalg.yield %t : f32
  } -> tensor<256x256xf32>
  %z = tensor.empty() : tensor<i1>
  %f = linalg.fill ins(%true : i1) outs(%z : tensor<i1>) -> tensor<i1>
  %k = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%i : tensor<256x256xi64>) outs(%f : tensor<i1>) attrs = {gather.index_check} {
  ^bb0(%v: i64, %acc: i1):
    %x = arith.index_cast %v : i64 to index
    %good = arith.cmpi ult, %x, %c256 : index
    %and = arith.andi %acc, %good : i1
    linalg.yield %and : i1
  } -> tensor<i1>
  %all = tensor.extract %k[] : tensor<i1>
  return %g, %all : tensor<256x256xf32>, i1
}

// -----

// A marked generic that is not a gather (its read of `data` depends on no
// input): left as is, with a warning.
// CHECK-LABEL: func.func @marked_not_a_gather
// CHECK:         linalg.generic
// CHECK-NOT:     scf.forall
func.func @marked_not_a_gather(%d: tensor<16x16xf32>, %i: tensor<16x16xi64>, %j: tensor<16x16xi64>) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<16x16xf32>
  // DIAG: codegen-contract.mlir:[[# @LINE + 1]]:8: warning: gather-codegen: a linalg.generic marked 'gather.elements' not in the form of a gather (its tensor.extract reads at no input's value): left as is
  %g = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%i, %j : tensor<16x16xi64>, tensor<16x16xi64>) outs(%e : tensor<16x16xf32>) attrs = {gather.elements} {
  ^bb0(%v: i64, %w: i64, %o: f32):
    %a = linalg.index 0 : index
    %t = tensor.extract %d[%a, %c0] : tensor<16x16xf32>
    linalg.yield %t : f32
  } -> tensor<16x16xf32>
  return %g : tensor<16x16xf32>
}

// -----

// A marked gather whose body reads its output: left as is, with a warning.
// CHECK-LABEL: func.func @marked_reads_output
// CHECK:         linalg.generic
// CHECK-NOT:     scf.forall
func.func @marked_reads_output(%d: tensor<256x256xf32>, %i: tensor<256x256xi64>, %e: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %c0 = arith.constant 0 : index
  // DIAG: codegen-contract.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: left as is (its body reads its output)
  // DIAG: codegen-contract.mlir:[[# @LINE + 1]]:8: warning: gather-codegen: a linalg.generic marked 'gather.elements' not in the form of a gather (its body reads its output): left as is
  %g = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]} ins(%i : tensor<256x256xi64>) outs(%e : tensor<256x256xf32>) attrs = {gather.elements} {
  ^bb0(%v: i64, %o: f32):
    %a = linalg.index 0 : index
    %t = tensor.extract %d[%a, %c0] : tensor<256x256xf32>
    %s = arith.addf %t, %o : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  return %g : tensor<256x256xf32>
}
