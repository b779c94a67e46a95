// RUN: gather-opt %s -split-input-file -verify-diagnostics

// Verifier errors of onnx.If, onnx.Loop and onnx.Yield, one per case.

func.func @if_condition_elements(%c: tensor<2xi1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.If' op condition must hold one element, but has type 'tensor<2xi1>'}}
  %y = "onnx.If"(%c) ({
    onnx.Yield %x : tensor<f32>
  }, {
    onnx.Yield %x : tensor<f32>
  }) : (tensor<2xi1>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @if_condition_type(%c: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.If' op operand #0 must be tensor of 1-bit signless integer values}}
  %y = "onnx.If"(%c) ({
    onnx.Yield %x : tensor<f32>
  }, {
    onnx.Yield %x : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @if_one_region(%c: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.If' op expected 2 regions}}
  %y = "onnx.If"(%c) ({
    onnx.Yield %x : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @if_yield_count(%c: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.If' op region 'else_branch' yields 2 values, but the op has 1 results}}
  %y = "onnx.If"(%c) ({
    onnx.Yield %x : tensor<f32>
  }, {
    onnx.Yield %x, %x : tensor<f32>, tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @if_yield_type(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.If' op region 'then_branch' yields 'tensor<2xf32>' as value 0, which is not compatible with the result type 'tensor<3xf32>'}}
  %y = "onnx.If"(%c) ({
    onnx.Yield %x : tensor<2xf32>
  }, {
    onnx.Yield %x : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

func.func @if_branch_arguments(%c: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.If' op region #0 should have no arguments}}
  %y = "onnx.If"(%c) ({
  ^bb0(%a: tensor<f32>):
    onnx.Yield %a : tensor<f32>
  }, {
    onnx.Yield %x : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @if_other_terminator(%c: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.If' op region 'then_branch' must end in onnx.Yield}}
  %y = "onnx.If"(%c) ({
    "onnx.Return"(%x) : (tensor<f32>) -> ()
  }, {
    onnx.Yield %x : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @loop_m_type(%m: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op operand #0 must be tensor of 64-bit signless integer values or none type}}
  %v = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<f32>):
    onnx.Yield %c, %v : tensor<i1>, tensor<f32>
  }) : (tensor<i32>, none, tensor<f32>) -> tensor<f32>
  return %v : tensor<f32>
}

// -----

func.func @loop_m_elements(%m: tensor<3xi64>, %x: tensor<f32>) -> tensor<f32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op operand 'M' must hold one element, but has type 'tensor<3xi64>'}}
  %v = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<f32>):
    onnx.Yield %c, %v : tensor<i1>, tensor<f32>
  }) : (tensor<3xi64>, none, tensor<f32>) -> tensor<f32>
  return %v : tensor<f32>
}

// -----

func.func @loop_body_arguments(%m: tensor<i64>, %x: tensor<f32>) -> tensor<f32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op body must take 2 + 1 arguments (iteration number, condition, loop-carried values), but takes 2}}
  %v = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>):
    onnx.Yield %c, %x : tensor<i1>, tensor<f32>
  }) : (tensor<i64>, none, tensor<f32>) -> tensor<f32>
  return %v : tensor<f32>
}

// -----

func.func @loop_iteration_type(%m: tensor<i64>, %x: tensor<f32>) -> tensor<f32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op body argument 0 (the iteration number) must be a tensor<i64>, not 'tensor<i32>'}}
  %v = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i32>, %c: tensor<i1>, %v: tensor<f32>):
    onnx.Yield %c, %v : tensor<i1>, tensor<f32>
  }) : (tensor<i64>, none, tensor<f32>) -> tensor<f32>
  return %v : tensor<f32>
}

// -----

func.func @loop_condition_type(%m: tensor<i64>, %x: tensor<f32>) -> tensor<f32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op body argument 1 (the condition) must be a tensor<i1>, not 'tensor<2xi1>'}}
  %v = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<2xi1>, %v: tensor<f32>):
    %t = onnx.Constant dense<true> : tensor<i1>
    onnx.Yield %t, %v : tensor<i1>, tensor<f32>
  }) : (tensor<i64>, none, tensor<f32>) -> tensor<f32>
  return %v : tensor<f32>
}

// -----

func.func @loop_carried_start(%m: tensor<i64>, %x: tensor<2xf32>) -> tensor<3xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op loop-carried value 0 starts as 'tensor<2xf32>', which is not compatible with the body's argument type 'tensor<3xf32>'}}
  %v = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<3xf32>):
    onnx.Yield %c, %v : tensor<i1>, tensor<3xf32>
  }) : (tensor<i64>, none, tensor<2xf32>) -> tensor<3xf32>
  return %v : tensor<3xf32>
}

// -----

func.func @loop_yield_count(%m: tensor<i64>, %x: tensor<f32>) -> tensor<f32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op body yields 1 values, but must yield 1 + 1 (the condition and one per result)}}
  %v = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<f32>):
    onnx.Yield %c : tensor<i1>
  }) : (tensor<i64>, none, tensor<f32>) -> tensor<f32>
  return %v : tensor<f32>
}

// -----

func.func @loop_yield_condition(%m: tensor<i64>, %x: tensor<f32>) -> tensor<f32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op body yields 'tensor<f32>' as its condition, which must be a tensor<i1>}}
  %v = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<f32>):
    onnx.Yield %v, %v : tensor<f32>, tensor<f32>
  }) : (tensor<i64>, none, tensor<f32>) -> tensor<f32>
  return %v : tensor<f32>
}

// -----

func.func @loop_yield_carried(%m: tensor<i64>, %x: tensor<?xf32>, %y: tensor<4xf32>) -> tensor<?xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op body yields 'tensor<4xf32>' as loop-carried value 0, which is not compatible with its result type 'tensor<?xf32>' and body argument type 'tensor<2xf32>'}}
  %v = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<2xf32>):
    onnx.Yield %c, %y : tensor<i1>, tensor<4xf32>
  }) : (tensor<i64>, none, tensor<?xf32>) -> tensor<?xf32>
  return %v : tensor<?xf32>
}

// -----

func.func @loop_scan_output(%m: tensor<i64>, %x: tensor<3xf32>) -> tensor<?x4xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op body yields 'tensor<3xf32>' as scan output 0, which is not compatible with its result type 'tensor<?x4xf32>' (the values stacked along a new first dimension)}}
  %s = "onnx.Loop"(%m, %none) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>):
    onnx.Yield %c, %x : tensor<i1>, tensor<3xf32>
  }) : (tensor<i64>, none) -> tensor<?x4xf32>
  return %s : tensor<?x4xf32>
}

// -----

func.func @yield_in_function(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.Yield' op ends a subgraph of an ONNX control-flow op (onnx.If, onnx.Loop, onnx.Scan); a function ends in onnx.Return or func.return}}
  onnx.Yield %x : tensor<f32>
}
