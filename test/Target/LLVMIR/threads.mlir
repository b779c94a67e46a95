// A threaded gather in LLVM IR calls LLVM's OpenMP runtime (libomp); lli
// runs it with libomp loaded and prints the same values as the scalar,
// single-threaded build (the buffer addresses differ).
// RUN: gather-translate --onnx-to-llvmir %s > %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: lli --dlopen=%libomp --dlopen=%mlir_lib_dir/libmlir_runner_utils%shlibext --dlopen=%gather_runtime %t.ll | grep -v base@ > %t.threads
// RUN: gather-opt %s --onnx-to-llvm="vector-size=0 num-threads=1" | gather-translate --mlir-to-llvmir | lli --dlopen=%mlir_lib_dir/libmlir_runner_utils%shlibext --dlopen=%gather_runtime | grep -v base@ > %t.scalar
// RUN: FileCheck %s --check-prefix=EXEC < %t.scalar
// RUN: diff %t.scalar %t.threads
// The same through gather-translate's own pipeline options: no OpenMP call.
// RUN: gather-translate --onnx-to-llvmir --pipeline-options="num-threads=1" %s | FileCheck %s --check-prefix=SERIAL
// RUN: not gather-translate --onnx-to-llvmir --pipeline-options="num-threads=x" %s 2>&1 | FileCheck %s --check-prefix=INVALID
// SERIAL-NOT: __kmpc
// SERIAL: define
// SERIAL-NOT: __kmpc
// INVALID: error: invalid onnx-to-llvm pipeline options: 'num-threads=x'

// REQUIRES: jit

// IR: call void {{.*}}@__kmpc_fork_call(
// EXEC: {{\[\[}}0,{{ +}}1,{{ +}}2,{{ +}}3]]
// EXEC: {{\[\[}}200200,{{ +}}200201,{{ +}}200202,{{ +}}200203]]

func.func private @printMemrefF32(tensor<*xf32>)

// A function of its own: inlined into @main, the read of the generated data
// would be folded away.
func.func @gather(%data: tensor<?x?xf32>, %indices: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = onnx.GatherElements %data, %indices axis = 1 : tensor<?x?xf32>, tensor<?x?xi64>
  return %r : tensor<?x?xf32>
}

// lli's exit status is @main's result: return 0 explicitly.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %n = arith.constant 256 : index
  %data = tensor.generate %n, %n {
  ^bb0(%i: index, %j: index):
    %c1000 = arith.constant 1000 : index
    %a = arith.muli %i, %c1000 : index
    %b = arith.addi %a, %j : index
    %i64 = arith.index_cast %b : index to i64
    %f = arith.sitofp %i64 : i64 to f32
    tensor.yield %f : f32
  } : tensor<?x?xf32>
  // indices[i][j] = (i + j) mod 256: out[i][j] = 1000 i + (i + j) mod 256.
  %indices = tensor.generate %n, %n {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    %c256 = arith.constant 256 : index
    %m = arith.remui %s, %c256 : index
    %i64 = arith.index_cast %m : index to i64
    tensor.yield %i64 : i64
  } : tensor<?x?xi64>
  %r = call @gather(%data, %indices) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  // Rows 0 and 200, columns 0 to 3.
  %corner0 = tensor.extract_slice %r[0, 0] [1, 4] [1, 1] : tensor<?x?xf32> to tensor<1x4xf32>
  %corner1 = tensor.extract_slice %r[200, 0] [1, 4] [1, 1] : tensor<?x?xf32> to tensor<1x4xf32>
  %u0 = tensor.cast %corner0 : tensor<1x4xf32> to tensor<*xf32>
  %u1 = tensor.cast %corner1 : tensor<1x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
