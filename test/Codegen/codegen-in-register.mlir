// In-register gathers (in-register-gathers=true): a vector along a row that
// reads one row of data, along its innermost axis, of a static length that
// fits in one or two vector registers of its elements, loads the row (a
// masked read when it is shorter) and takes its lanes from it with the
// target's permute, chosen from the target's features (AVX-512F: 16 or 32
// 32-bit elements, 8 or 16 64-bit ones; with AVX2, 8 32-bit ones). The plan says
// which, or why not:
// RUN: gather-opt %s --convert-onnx-to-linalg --gather-codegen="remarks=true in-register-gathers=true target-cpu=znver4" -o /dev/null 2>&1 | FileCheck %s --check-prefixes=REMARK,AVX512
// RUN: gather-opt %s --convert-onnx-to-linalg --gather-codegen="remarks=true in-register-gathers=true target-cpu=znver5" -o /dev/null 2>&1 | FileCheck %s --check-prefixes=REMARK,AVX512
// RUN: gather-opt %s --convert-onnx-to-linalg --gather-codegen="remarks=true in-register-gathers=true target-cpu=skylake-avx512" -o /dev/null 2>&1 | FileCheck %s --check-prefixes=REMARK,AVX512
// RUN: gather-opt %s --convert-onnx-to-linalg --gather-codegen="remarks=true in-register-gathers=true target-cpu=haswell" -o /dev/null 2>&1 | FileCheck %s --check-prefixes=REMARK,AVX2
// RUN: gather-opt %s --convert-onnx-to-linalg --gather-codegen="remarks=true in-register-gathers=true target-cpu=x86-64" -o /dev/null 2>&1 | FileCheck %s --check-prefixes=REMARK,SSE
// Vectors of 8: the 512-bit permutes of 32-bit elements (16 lanes) do not
// divide them, AVX2's do.
// RUN: gather-opt %s --convert-onnx-to-linalg --gather-codegen="remarks=true in-register-gathers=true target-cpu=znver4 vector-size=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=V8
// Without the option, the plan has no such field:
// RUN: gather-opt %s --convert-onnx-to-linalg --gather-codegen="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF --implicit-check-not="in-register gathers"
// In the IR, the row read (masked when shorter), one vector.extract per lane
// at its lane number, a vector.from_elements marked with the permute; then
// gather-lower-row-permutes makes it the permute (llvm.call_intrinsic):
// RUN: gather-opt %s --convert-onnx-to-linalg --gather-codegen="in-register-gathers=true target-cpu=znver4" | FileCheck %s --check-prefix=IR
// RUN: gather-opt %s --convert-onnx-to-linalg --gather-codegen="in-register-gathers=true target-cpu=znver4" --gather-lower-row-permutes | FileCheck %s --check-prefix=LOWERED
// RUN: gather-opt %s --convert-onnx-to-linalg --gather-codegen="in-register-gathers=true target-cpu=haswell" --gather-lower-row-permutes | FileCheck %s --check-prefix=LOWERED-AVX2
// An unknown CPU is an error:
// RUN: not gather-opt %s --gather-codegen="in-register-gathers=true target-cpu=znver9" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADCPU
// BADCPU: error: gather-codegen: target-cpu 'znver9' is not a CPU of x86_64

// REMARK: codegen-in-register.mlir:[[# @LINE + 7]]:8: remark: gather-codegen: vectors of 16;
// AVX512-SAME: index check fused; in-register gathers (vpermps zmm, 1 register){{$}}
// AVX2-SAME: index check fused; no in-register gathers (rows of 16 with vectors of 16: no permute on haswell holds them){{$}}
// SSE-SAME: index check fused; no in-register gathers (no permute of 32-bit elements on x86-64){{$}}
// V8: codegen-in-register.mlir:[[# @LINE + 3]]:8: remark: gather-codegen: vectors of 8;{{.*}}; no in-register gathers (rows of 16 with vectors of 8: no permute on znver4 holds them){{$}}
// OFF: codegen-in-register.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: vectors of 16;{{.*}}; index check fused{{$}}
func.func @f32_rows16(%d: tensor<64x16xf32>, %i: tensor<64x16xi64>) -> tensor<64x16xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<64x16xf32>, tensor<64x16xi64>
  return %r : tensor<64x16xf32>
}

// Rows of 10, shorter than the register: a masked read of 10 elements.
// REMARK: codegen-in-register.mlir:[[# @LINE + 5]]:8: remark: gather-codegen: vectors of 16;
// AVX512-SAME: in-register gathers (vpermps zmm, 1 register){{$}}
// AVX2-SAME: no in-register gathers (rows of 10 with vectors of 16: no permute on haswell holds them){{$}}
// SSE-SAME: no in-register gathers (no permute of 32-bit elements on x86-64){{$}}
func.func @f32_rows10(%d: tensor<64x10xf32>, %i: tensor<64x32xi64>) -> tensor<64x32xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<64x10xf32>, tensor<64x32xi64>
  return %r : tensor<64x32xf32>
}

// Rows of 8: AVX2 too (two 8-lane permutes per vector of 16); the row of
// data is 8 long, the rows of indices 16.
// REMARK: codegen-in-register.mlir:[[# @LINE + 6]]:8: remark: gather-codegen: vectors of 16;
// AVX512-SAME: in-register gathers (vpermd zmm, 1 register){{$}}
// AVX2-SAME: in-register gathers (vpermd ymm, 1 register){{$}}
// V8: codegen-in-register.mlir:[[# @LINE + 3]]:8: remark: gather-codegen: vectors of 8;{{.*}}; in-register gathers (vpermd ymm, 1 register){{$}}
// SSE-SAME: no in-register gathers (no permute of 32-bit elements on x86-64){{$}}
func.func @i32_rows8(%d: tensor<64x8xi32>, %i: tensor<64x16xi32>) -> tensor<64x16xi32> {
  %r = onnx.GatherElements %d, %i axis = -1 : tensor<64x8xi32>, tensor<64x16xi32>
  return %r : tensor<64x16xi32>
}

// Rows of 32: two registers.
// REMARK: codegen-in-register.mlir:[[# @LINE + 4]]:8: remark: gather-codegen: vectors of 16;
// AVX512-SAME: in-register gathers (vpermi2ps zmm, 2 registers){{$}}
// AVX2-SAME: no in-register gathers (rows of 32 with vectors of 16: no permute on haswell holds them){{$}}
func.func @f32_rows32(%d: tensor<4x8x32xf32>, %i: tensor<4x8x32xi64>) -> tensor<4x8x32xf32> {
  %r = onnx.GatherElements %d, %i axis = 2 : tensor<4x8x32xf32>, tensor<4x8x32xi64>
  return %r : tensor<4x8x32xf32>
}

// 64-bit elements: 8 lanes per register; rows of 8 in one, of 16 in two.
// REMARK: codegen-in-register.mlir:[[# @LINE + 4]]:8: remark: gather-codegen: vectors of 16;
// AVX512-SAME: in-register gathers (vpermpd zmm, 1 register){{$}}
// AVX2-SAME: no in-register gathers (no permute of 64-bit elements on haswell){{$}}
func.func @f64_rows8(%d: tensor<64x8xf64>, %i: tensor<64x16xi64>) -> tensor<64x16xf64> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<64x8xf64>, tensor<64x16xi64>
  return %r : tensor<64x16xf64>
}

// REMARK: codegen-in-register.mlir:[[# @LINE + 3]]:8: remark: gather-codegen: vectors of 16;
// AVX512-SAME: in-register gathers (vpermi2q zmm, 2 registers){{$}}
func.func @i64_rows15(%d: tensor<64x15xi64>, %i: tensor<64x16xi32>) -> tensor<64x16xi64> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<64x15xi64>, tensor<64x16xi32>
  return %r : tensor<64x16xi64>
}

// Where there is none: rows too long, another axis, a dynamic row, rows in
// groups (the lanes of a vector read several rows), 16- and 8-bit elements.
// REMARK: codegen-in-register.mlir:[[# @LINE + 4]]:8: remark: gather-codegen: vectors of 16;
// AVX512-SAME: no in-register gathers (rows of 33 with vectors of 16: no permute on {{.*}} holds them){{$}}
// AVX2-SAME: no in-register gathers (rows of 33 with vectors of 16: no permute on haswell holds them){{$}}
func.func @rows33(%d: tensor<64x33xf32>, %i: tensor<64x16xi64>) -> tensor<64x16xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<64x33xf32>, tensor<64x16xi64>
  return %r : tensor<64x16xf32>
}

// REMARK: codegen-in-register.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: vectors of 16;{{.*}}; no in-register gathers (not along the innermost axis){{$}}
func.func @axis0(%d: tensor<16x16xf32>, %i: tensor<16x16xi64>) -> tensor<16x16xf32> {
  %r = onnx.GatherElements %d, %i axis = 0 : tensor<16x16xf32>, tensor<16x16xi64>
  return %r : tensor<16x16xf32>
}

// REMARK: codegen-in-register.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: vectors of 16;{{.*}}; no in-register gathers (rows of data of a dynamic length){{$}}
func.func @dynamic_row(%d: tensor<64x?xf32>, %i: tensor<64x16xi64>) -> tensor<64x16xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<64x?xf32>, tensor<64x16xi64>
  return %r : tensor<64x16xf32>
}

// REMARK: codegen-in-register.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: vectors of 16, rows of 10 in groups of 8 (5 vectors);{{.*}}; no in-register gathers (rows in groups: the lanes of a vector read several rows){{$}}
func.func @groups(%d: tensor<64x10xf32>, %i: tensor<64x10xi64>) -> tensor<64x10xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<64x10xf32>, tensor<64x10xi64>
  return %r : tensor<64x10xf32>
}

// REMARK: codegen-in-register.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: vectors of 16;{{.*}}; no in-register gathers (f16 elements){{$}}
func.func @f16_rows16(%d: tensor<64x16xf16>, %i: tensor<64x16xi64>) -> tensor<64x16xf16> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<64x16xf16>, tensor<64x16xi64>
  return %r : tensor<64x16xf16>
}

// REMARK: codegen-in-register.mlir:[[# @LINE + 2]]:8: remark: gather-codegen: vectors of 16;{{.*}}; no in-register gathers (i8 elements){{$}}
func.func @i8_rows16(%d: tensor<64x16xi8>, %i: tensor<64x16xi64>) -> tensor<64x16xi8> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<64x16xi8>, tensor<64x16xi64>
  return %r : tensor<64x16xi8>
}

// IR-LABEL: func.func @f32_rows16(
// IR:         %[[ROW:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %c0], %{{.*}} {in_bounds = [true]} : tensor<64x16xf32>, vector<16xf32>
// IR:         %[[N0:.*]] = vector.extract %[[LANES:.*]][0] : index from vector<16xindex>
// IR:         %[[E0:.*]] = vector.extract %[[ROW]][%[[N0]]] : f32 from vector<16xf32>
// IR:         vector.from_elements %[[E0]], {{.*}} {gather.row_permute = "llvm.x86.avx512.permvar.sf.512"} : vector<16xf32>
// IR-NOT:     vector.gather
// IR-LABEL: func.func @f32_rows10(
// IR:         %[[MASK:.*]] = vector.constant_mask [10] : vector<16xi1>
// IR:         vector.transfer_read %{{.*}}[%{{.*}}, %c0], %{{.*}}, %[[MASK]] {in_bounds = [true]} : tensor<64x10xf32>, vector<16xf32>
// IR-NOT:     vector.gather
// IR-LABEL: func.func @rows33(
// IR:         vector.gather

// LOWERED-LABEL: func.func @f32_rows16(
// LOWERED:         %[[ROW:.*]] = vector.transfer_read {{.*}} : tensor<64x16xf32>, vector<16xf32>
// LOWERED:         %[[N:.*]] = arith.index_cast %{{.*}} : vector<16xindex> to vector<16xi32>
// LOWERED:         llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[ROW]], %[[N]]) : (vector<16xf32>, vector<16xi32>) -> vector<16xf32>
// LOWERED-NOT:     vector.from_elements
// LOWERED-LABEL: func.func @i32_rows8(
// LOWERED:         llvm.call_intrinsic "llvm.x86.avx512.permvar.si.512"({{.*}}) : (vector<16xi32>, vector<16xi32>) -> vector<16xi32>
// LOWERED-LABEL: func.func @f32_rows32(
// LOWERED:         %[[ROW:.*]] = vector.transfer_read {{.*}} : tensor<4x8x32xf32>, vector<32xf32>
// LOWERED-DAG:     %[[LO:.*]] = vector.extract_strided_slice %[[ROW]] {offsets = [0], sizes = [16], strides = [1]}
// LOWERED-DAG:     %[[HI:.*]] = vector.extract_strided_slice %[[ROW]] {offsets = [16], sizes = [16], strides = [1]}
// LOWERED:         llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.ps.512"(%[[LO]], %{{.*}}, %[[HI]]) : (vector<16xf32>, vector<16xi32>, vector<16xf32>) -> vector<16xf32>
// LOWERED-LABEL: func.func @f64_rows8(
// LOWERED:         arith.index_cast %{{.*}} : vector<16xindex> to vector<16xi64>
// LOWERED-COUNT-2: llvm.call_intrinsic "llvm.x86.avx512.permvar.df.512"({{.*}}) : (vector<8xf64>, vector<8xi64>) -> vector<8xf64>
// LOWERED-LABEL: func.func @i64_rows15(
// LOWERED:         vector.constant_mask [15] : vector<16xi1>
// LOWERED-COUNT-2: llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.q.512"({{.*}}) : (vector<8xi64>, vector<8xi64>, vector<8xi64>) -> vector<8xi64>

// LOWERED-AVX2-LABEL: func.func @i32_rows8(
// LOWERED-AVX2-COUNT-2: llvm.call_intrinsic "llvm.x86.avx2.permd"({{.*}}) : (vector<8xi32>, vector<8xi32>) -> vector<8xi32>
// LOWERED-AVX2-NOT:     llvm.call_intrinsic
