// gather-check-constant-sizes: a splat (or sparse) constant whose values
// take more than 1 GiB once expanded is an error at its op, with the exact
// byte count (i1 takes a byte, complex two parts); exactly 1 GiB, dense
// values and small splats pass.
// RUN: gather-opt %s --split-input-file --verify-diagnostics --gather-check-constant-sizes
// onnx-to-llvm ends with it: a 340-byte input whose splat indices would
// expand to 7.4e19 bytes in LLVM IR is a located error; the splat data
// operand, which the code only fills in, is not materialized and passes.
// RUN: not gather-opt %S/../Tools/Inputs/huge-splat.mlir --onnx-to-llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE --implicit-check-not=error:
// PIPELINE: huge-splat.mlir:3:7: error: splat constant of type 'tensor<3037000500x3037000500xi64>' is too large: 73786976296002000000 bytes once expanded, more than the limit of 1073741824 bytes (1 GiB)

module {
  llvm.mlir.global private constant @exact(dense<-1> : tensor<134217728xi64>) : !llvm.array<134217728 x i64>
  // expected-error @below {{splat constant of type 'tensor<134217729xi64>' is too large: 1073741832 bytes once expanded, more than the limit of 1073741824 bytes (1 GiB)}}
  llvm.mlir.global private constant @over(dense<-1> : tensor<134217729xi64>) : !llvm.array<134217729 x i64>
  llvm.mlir.global private constant @bits_exact(dense<true> : tensor<1073741824xi1>) : !llvm.array<1073741824 x i1>
  // expected-error @below {{splat constant of type 'tensor<1073741825xi1>' is too large: 1073741825 bytes}}
  llvm.mlir.global private constant @bits(dense<true> : tensor<1073741825xi1>) : !llvm.array<1073741825 x i1>
  // expected-error @below {{splat constant of type 'tensor<65536x65536xf32>' is too large: 17179869184 bytes}}
  llvm.mlir.global private constant @zero(dense<0.0> : tensor<65536x65536xf32>) : !llvm.array<65536 x array<65536 x f32>>
  // expected-error @below {{splat constant of type 'tensor<67108865xcomplex<f64>>' is too large: 1073741840 bytes}}
  llvm.mlir.global private constant @complex(dense<(1.0, 2.0)> : tensor<67108865xcomplex<f64>>) : !llvm.array<67108865 x !llvm.struct<(f64, f64)>>
  // expected-error @below {{sparse constant of type 'tensor<134217729xi64>' is too large: 1073741832 bytes}}
  llvm.mlir.global private constant @sparse(sparse<[[0]], [7]> : tensor<134217729xi64>) : !llvm.array<134217729 x i64>
  llvm.mlir.global private constant @dense(dense<[1, 2]> : tensor<2xi64>) : !llvm.array<2 x i64>
  llvm.func @f() -> vector<268435457xi32> {
    // expected-error @below {{splat constant of type 'vector<268435457xi32>' is too large: 1073741828 bytes}}
    %0 = llvm.mlir.constant(dense<3> : vector<268435457xi32>) : vector<268435457xi32>
    llvm.return %0 : vector<268435457xi32>
  }
}

// -----

// In a nested module too, and in an op of any dialect (here before
// bufferization).
module {
  module @nested {
    func.func @g() -> tensor<3037000500x3037000500xi64> {
      // expected-error @below {{splat constant of type 'tensor<3037000500x3037000500xi64>' is too large: 73786976296002000000 bytes once expanded}}
      %0 = arith.constant dense<1> : tensor<3037000500x3037000500xi64>
      return %0 : tensor<3037000500x3037000500xi64>
    }
  }
}
