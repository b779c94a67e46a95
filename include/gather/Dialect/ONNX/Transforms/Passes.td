//===- Passes.td - Transforms of the onnx dialect ----------*- tablegen -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_TRANSFORMS_PASSES_TD
#define GATHER_DIALECT_ONNX_TRANSFORMS_PASSES_TD

include "gather/Support/PassBase.td"

def ONNXShapeInferencePass
    : GatherPass<"onnx-shape-inference", "::mlir::ModuleOp"> {
  let summary = "Refine unranked and dynamic result types of onnx ops";
  let description = [{
    Replaces the declared result type of every `onnx.GatherElements` by the
    most static type compatible with both the declared type and the type
    inferred from its operands (the shape of `indices`, the element type of
    `data`): `tensor<*xf32>` or `tensor<?x3xf32>` becomes `tensor<2x3xf32>`
    when `indices` is `tensor<2x3xi64>`.

    Refined values flow on:
    - into other onnx ops, which are refined in turn;
    - into `func.return` of a private function (in any nested module):
      the function's result types are refined too, and so are the results
      of the `func.call`s to it (repeated to a fixed point, so refinement
      crosses calls). Public functions keep their signature, an ABI for
      callers outside the module, unless `refine-public-functions` is set;
      their returns get a `tensor.cast` back to the declared type;
    - any other user keeps the type it had, through a `tensor.cast` from the
      refined type.

    A declared static dimension that conflicts with the inferred one is an
    error (the op verifier reports it first).
  }];
  let options = [
    Option<"refinePublicFunctions", "refine-public-functions", "bool",
           /*default=*/"false",
           "Also refine the result types of public functions (changes their "
           "signature)">,
  ];
  let dependentDialects = [
    "::mlir::func::FuncDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def CheckGatherDestinationsPass
    : GatherPass<"onnx-check-gather-destinations", "::mlir::ModuleOp"> {
  let summary = "Check at run time that a gather's destination has the "
                "result's sizes";
  let description = [{
    A kernel in destination-passing style copies the result of
    `onnx.GatherElements` into a destination it was given:
    `bufferization.materialize_in_destination` into a memref or a tensor, or
    `linalg.copy` into a tensor. Neither op checks sizes that are dynamic
    (`?`) on either side, and a smaller memref would be written past its
    end. For every dimension that is dynamic in the result or the
    destination, this pass compares the two sizes at run time; on a
    mismatch it calls `gatherReportDestinationShapeError(location, dim,
    resultSize, destinationSize)` of gather's runtime (with `runtime-checks`; the first
    mismatch only) and skips the copy (always): a memref destination is left
    as it was, a tensor destination is passed on unchanged.

    It runs first in the onnx-to-llvm pipeline, before the canonicalizer
    folds tensor-level copies away.
  }];
  let options = [
    Option<"runtimeChecks", "runtime-checks", "bool", /*default=*/"true",
           "Report a mismatch through gather's runtime (the copy is skipped "
           "either way)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def ONNXOutlineGathersPass
    : GatherPass<"onnx-outline-gathers", "::mlir::ModuleOp"> {
  let summary = "Outline each onnx.GatherElements into a kernel function "
                "of its own";
  let description = [{
    The whole-model route: a graph whose other ops gather does not lower
    (onnx-mlir's `onnx.TopK`, `onnx.ReduceSum`, ... imported by
    `gather-translate --import-onnx`) cannot go through `onnx-to-llvm`
    whole, but its gathers can, each on its own. This pass moves every op
    named `onnx.GatherElements` (gather's or another `onnx` dialect's) of a
    function into a public `func.func` kernel of its own that takes the
    gather's operands `data` and `indices` as its arguments and returns its
    result, and calls that kernel in its place:

    ```mlir
    func.func @main_graph(...) {
      %1:2 = "onnx.TopK"(%x, %k) {axis = 1 : si64} : ...
      %2 = func.call @main_graph_gather_0(%data, %1#1)
          : (tensor<2x4xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
      ...
    }
    func.func @main_graph_gather_0(%arg0: tensor<2x4xf32>,
        %arg1: tensor<2x2xi64>) -> tensor<2x2xf32>
        attributes {llvm.emit_c_interface, onnx.gather_kernel} {
      %0 = onnx.GatherElements %arg0, %arg1 axis = 1 : ...
      return %0 : tensor<2x2xf32>
    }
    ```

    A kernel of gather's op takes the most precise types the program knew:
    an operand that reaches the gather through `tensor.cast` ops to an
    unranked or more dynamic type is passed as it was before them, and the
    kernel returns the result type that implies (cast back to the gather's
    type at the call), so that it lowers where the program did.

    Gathers inside regions (the subgraphs of `onnx.If`, `onnx.Loop`,
    `onnx.Scan`, ...) are outlined too; the call stays in the region.

    Kernels are named `<function>_gather_<n>`, n counting the gathers of
    the function in program order from 0 (a name already taken gets a
    suffix `_<k>`), placed after the function (in its module, nested
    modules included), located at the gather (an imported node's location
    and `onnx_node_name` stay on it) and marked with the unit attribute
    `onnx.gather_kernel`; functions so marked are not outlined again.
    Gathers in regions (loops, another op's branches) are outlined too; the
    call takes their place. Kernels carry `llvm.emit_c_interface`: compiled
    by `onnx-to-llvm`, each also gets the wrapper
    `_mlir_ciface_<kernel>(result, data, indices)` on memref descriptors,
    which a host lowered by MLIR calls through the declaration too.

    `emit` selects what the module keeps:
    - `all` (default): the functions, calling their kernels, and the
      kernels;
    - `kernels`: the kernels alone (every other `func.func` is erased, and
      so is any other op of the module that refers to one, like onnx-mlir's
      `onnx.EntryPoint`): the input of `onnx-to-llvm`, `gather-runner` or
      `compileAndJit`;
    - `graph`: the functions, calling their kernels, which are only
      declared (private, no body): the input of the compiler that runs the
      rest of the graph, which links against the compiled kernels.
  }];
  let options = [
    Option<"emit", "emit", "::gather::ONNX::OutlinedPart",
           /*default=*/"::gather::ONNX::OutlinedPart::All",
           "What the module keeps",
           [{::llvm::cl::values(
               clEnumValN(::gather::ONNX::OutlinedPart::All, "all",
                          "the functions calling their kernels, and the "
                          "kernels"),
               clEnumValN(::gather::ONNX::OutlinedPart::Kernels, "kernels",
                          "the kernels alone"),
               clEnumValN(::gather::ONNX::OutlinedPart::Graph, "graph",
                          "the functions calling their kernels, which are "
                          "declared only"))}]>,
  ];
  let dependentDialects = [
    "::mlir::func::FuncDialect",
  ];
}

#endif // GATHER_DIALECT_ONNX_TRANSFORMS_PASSES_TD
