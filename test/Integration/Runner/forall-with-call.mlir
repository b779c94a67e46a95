// REQUIRES: jit
// A user's threaded loop (scf.forall) whose body calls a function, gathers
// a row and runs a loop over it: convert-scf-to-openmp keeps an alloca
// scope around such a body, which the pipeline lowers to a stack save and
// restore (test/Pipelines/lower-alloca-scopes.mlir). The same values with
// threads and serial.
// RUN: for o in "num-threads=2" "num-threads=1" "vector-size=0"; do \
// RUN:   gather-run %s --function=scaled_rows --pipeline-options="$o" --input=4x3xf32=1,2,3,4,5,6,7,8,9,10,11,12 --input=4x3xi64=2,1,0,0,0,0,1,2,-1,-3,0,1 || exit 1; \
// RUN: done | FileCheck %s
// Row i: the row gathered (reversed; one element thrice; 1, 2, -1; -3, 0,
// 1), times i + 1.
// CHECK-COUNT-3{LITERAL}: result 0: tensor<4x3xf32> = [[3, 2, 1], [8, 8, 8], [24, 27, 27], [40, 40, 44]]

func.func private @scale(%i: index) -> f32 {
  %c1 = arith.constant 1 : index
  %n = arith.addi %i, %c1 : index
  %m = arith.index_cast %n : index to i32
  %f = arith.sitofp %m : i32 to f32
  return %f : f32
}

func.func @scaled_rows(%a: tensor<4x3xf32>, %idx: tensor<4x3xi64>) -> tensor<4x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<4x3xf32>
  %r = scf.forall (%i) in (4) shared_outs(%o = %e) -> tensor<4x3xf32> {
    %k = func.call @scale(%i) : (index) -> f32
    %row = tensor.extract_slice %a[%i, 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
    %ri = tensor.extract_slice %idx[%i, 0] [1, 3] [1, 1] : tensor<4x3xi64> to tensor<3xi64>
    %g = onnx.GatherElements %row, %ri axis = 0 : tensor<3xf32>, tensor<3xi64>
    %s = scf.for %j = %c0 to %c3 step %c1 iter_args(%acc = %g) -> tensor<3xf32> {
      %v = tensor.extract %acc[%j] : tensor<3xf32>
      %q = arith.mulf %v, %k : f32
      %n = tensor.insert %q into %acc[%j] : tensor<3xf32>
      scf.yield %n : tensor<3xf32>
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0] [1, 3] [1, 1] : tensor<3xf32> into tensor<4x3xf32>
    }
  }
  return %r : tensor<4x3xf32>
}
