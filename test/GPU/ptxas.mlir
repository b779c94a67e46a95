// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gather-opt %s --onnx-to-llvm='gpu=cuda' -o %t/isa.mlir
// RUN: python3 %S/Inputs/extract-ptx.py %t/isa.mlir %t/kernel | FileCheck %s --check-prefix=FILES
// RUN: for f in %t/kernel*.ptx; do %ptxas -arch=sm_90 $f -o %t/out.cubin || exit 1; done
// RUN: gather-opt %s --onnx-to-llvm='gpu=cuda gpu-format=bin' | FileCheck %s --check-prefix=BIN
// RUN: gather-opt %s --onnx-to-llvm='gpu=cuda gpu-format=fatbin' | FileCheck %s --check-prefix=FATBIN

// Every kernel of gpu=cuda is PTX that the CUDA toolkit's ptxas accepts for
// sm_90 (element types, index types, static and dynamic shapes), and
// gpu-format=bin/fatbin, which run ptxas, embed a binary: an ELF cubin, a
// fatbin (its magic 0xBA55ED50, little-endian).

// FILES-COUNT-9: kernel{{[0-9]}}.ptx
// BIN-COUNT-9: llvm.mlir.global internal constant @__gather_gpu_{{.*}}_binary("\7FELF
// FATBIN-COUNT-9: llvm.mlir.global internal constant @__gather_gpu_{{.*}}_binary("P\EDU\BA

func.func @f32_i64(%d: tensor<3x4xf32>, %i: tensor<2x4xi64>) -> tensor<2x4xf32> {
  %o = onnx.GatherElements %d, %i axis = 0 : tensor<3x4xf32>, tensor<2x4xi64>
  return %o : tensor<2x4xf32>
}
func.func @f16_i32_dynamic(%d: tensor<?x?xf16>, %i: tensor<?x?xi32>) -> tensor<?x?xf16> {
  %o = onnx.GatherElements %d, %i axis = -1 : tensor<?x?xf16>, tensor<?x?xi32>
  return %o : tensor<?x?xf16>
}
func.func @i1(%d: tensor<4xi1>, %i: tensor<6xi64>) -> tensor<6xi1> {
  %o = onnx.GatherElements %d, %i : tensor<4xi1>, tensor<6xi64>
  return %o : tensor<6xi1>
}
func.func @complex(%d: tensor<2x3xcomplex<f64>>, %i: tensor<2x3xi32>) -> tensor<2x3xcomplex<f64>> {
  %o = onnx.GatherElements %d, %i axis = 1 : tensor<2x3xcomplex<f64>>, tensor<2x3xi32>
  return %o : tensor<2x3xcomplex<f64>>
}
func.func @bf16_rank4(%d: tensor<2x3x4x5xbf16>, %i: tensor<2x3x4x2xi64>) -> tensor<2x3x4x2xbf16> {
  %o = onnx.GatherElements %d, %i axis = 3 : tensor<2x3x4x5xbf16>, tensor<2x3x4x2xi64>
  return %o : tensor<2x3x4x2xbf16>
}
func.func @ui16(%d: tensor<5x2xui16>, %i: tensor<3x2xi64>) -> tensor<3x2xui16> {
  %o = onnx.GatherElements %d, %i axis = -2 : tensor<5x2xui16>, tensor<3x2xi64>
  return %o : tensor<3x2xui16>
}
func.func @complex_f32_ui64(%d: tensor<4x4xcomplex<f32>>, %i: tensor<4x4xi64>, %u: tensor<3xui64>, %j: tensor<2xi32>) -> (tensor<4x4xcomplex<f32>>, tensor<2xui64>) {
  %o = onnx.GatherElements %d, %i axis = 1 : tensor<4x4xcomplex<f32>>, tensor<4x4xi64>
  %p = onnx.GatherElements %u, %j : tensor<3xui64>, tensor<2xi32>
  return %o, %p : tensor<4x4xcomplex<f32>>, tensor<2xui64>
}
func.func @f64_rank1_dynamic(%d: tensor<?xf64>, %i: tensor<?xi64>) -> tensor<?xf64> {
  %o = onnx.GatherElements %d, %i : tensor<?xf64>, tensor<?xi64>
  return %o : tensor<?xf64>
}
