// gather-reduce runs the interestingness test with a time limit
// (--test-timeout, default 60 s): a test that hangs on the input is an error
// (before: gather-reduce waited forever), and the test's process group is
// killed with it; a candidate on which it times out is not interesting (the
// candidates without @ranked here; 5 s, as gather-opt on a loaded machine
// under ASan may take more than 1 s).
// RUN: not gather-reduce %s '--reduction-tree=traversal-mode=0 test=%S/Inputs/hang.sh' --test-timeout=1 2>&1 | FileCheck %s --check-prefix=INPUT
// The same with the pass in a textual pipeline, the option's value apart.
// RUN: not gather-reduce %s --pass-pipeline='builtin.module(reduction-tree{traversal-mode=0 test=%S/Inputs/hang.sh})' --test-timeout 1 2>&1 | FileCheck %s --check-prefix=INPUT
// INPUT: gather-reduce: error: the interestingness test ran longer than --test-timeout=1 seconds on the input: raise --test-timeout (0: no limit)
// RUN: gather-reduce %s '--reduction-tree=traversal-mode=0 test=%S/Inputs/hang-without-ranked.sh test-arg=%gather_obj_root/bin/gather-opt' --test-timeout=5 | FileCheck %s
// CHECK: func.func @ranked
// CHECK: func.func @both_unranked
// The input must be interesting (/bin/true: never).
// RUN: not gather-reduce %s '--reduction-tree=traversal-mode=0 test=/bin/true' 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: gather-reduce: error: the interestingness test says the input is not interesting (exit status 0): nothing to reduce

func.func @ranked(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<3x3xf32>, tensor<2x3xi64>
  return %out : tensor<2x3xf32>
}

func.func @both_unranked(%data: tensor<*xf32>, %indices: tensor<*xi64>) -> tensor<*xf32> {
  %out = onnx.GatherElements %data, %indices axis = 1 : tensor<*xf32>, tensor<*xi64>
  return %out : tensor<*xf32>
}

func.func @spec() -> tensor<2x2xf32> {
  %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %o = onnx.GatherElements %d, %i axis = 1 : tensor<2x2xf32>, tensor<2x2xi64>
  return %o : tensor<2x2xf32>
}
