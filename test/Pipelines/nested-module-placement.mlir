// A builtin.module that is not an op of another module's body (inside a
// function, in an scf.execute_region, in any other op) is a located error
// of onnx-to-llvm's first pass, not a failure of a later pass that reached
// into it (buffer deallocation's "Only structured control-flow loops are
// supported.").
// RUN: gather-opt %s --split-input-file --verify-diagnostics --onnx-to-llvm --allow-unregistered-dialect

// expected-note @below {{in this function}}
func.func @main() -> tensor<2xi32> {
  %d = arith.constant dense<[10, 20]> : tensor<2xi32>
  %i = arith.constant dense<[1, 0]> : tensor<2xi64>
  %r = scf.execute_region -> tensor<2xi32> {
    // expected-error @below {{a builtin.module inside 'scf.execute_region' is not supported: onnx-to-llvm compiles a nested builtin.module only as an op of another builtin.module's body (move it there)}}
    builtin.module {
      func.func @k(%a: tensor<?xi32>, %b: tensor<?xi64>) -> tensor<?xi32> {
        %0 = onnx.GatherElements %a, %b : tensor<?xi32>, tensor<?xi64>
        return %0 : tensor<?xi32>
      }
    }
    %0 = onnx.GatherElements %d, %i : tensor<2xi32>, tensor<2xi64>
    scf.yield %0 : tensor<2xi32>
  }
  return %r : tensor<2xi32>
}

// -----

// Also when it is already in the LLVM dialect, and directly in the body.
// expected-note @below {{in this function}}
func.func @direct() {
  // expected-error @below {{a builtin.module inside 'func.func' is not supported}}
  builtin.module {
    llvm.func @seven() -> i64 {
      %0 = llvm.mlir.constant(7 : i64) : i64
      llvm.return %0 : i64
    }
  }
  return
}

// -----

// Outside a function: the note is at the op that holds it.
// expected-note @below {{the op that holds it}}
"test.container"() ({
  // expected-error @below {{a builtin.module inside 'test.container' is not supported}}
  builtin.module {
  }
}) : () -> ()

// -----

// Nested modules at any depth of module bodies are fine.
module @outer {
  module @inner {
    module @deepest {
      func.func @f(%a: tensor<?xi32>, %b: tensor<?xi64>) -> tensor<?xi32> {
        %0 = onnx.GatherElements %a, %b : tensor<?xi32>, tensor<?xi64>
        return %0 : tensor<?xi32>
      }
    }
  }
}
