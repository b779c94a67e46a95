//===- Passes.td - Passes of gather's pipeline ------------*- tablegen -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_PIPELINES_PASSES_TD
#define GATHER_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerNestedModulesPass
    : Pass<"gather-pipeline-nested-modules", "::mlir::ModuleOp"> {
  let summary = "Run onnx-to-llvm on each nested builtin.module first";
  let description = [{
    The first pass of `onnx-to-llvm`. Most of the pipeline's passes do not
    reach into a `builtin.module` nested in the one they run on: one-shot
    bufferization's function boundaries and the passes nested on
    `func.func` see the outer module's functions only. So this pass runs
    the seven stages of `onnx-to-llvm`, with the options in
    `pipeline-options`, on each `builtin.module` nested (at any depth) in
    the one it runs on whose own ops (not those of a module nested in it)
    are not all of the `llvm` dialect, deepest first and each once: a
    module nested N deep costs N walks of its own ops.
    Then the outer pipeline goes on with the nested modules in the LLVM
    dialect; `gather-runner --link-nested-modules` links them in. A
    failure in a nested module fails the pass, with that pipeline's
    located diagnostics.

    The options are text, as `onnx-to-llvm` takes them (an invalid value is
    an error of this pass). `onnx-to-llvm` sets them to its own.
  }];
  let options = [
    Option<"pipelineOptions", "pipeline-options", "std::string",
           /*default=*/"\"\"",
           "The onnx-to-llvm options for the nested modules (as text)">,
  ];
}

#endif // GATHER_PIPELINES_PASSES_TD
