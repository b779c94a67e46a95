# Part of the gather project.
# Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
# license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gather from Python: compile an ONNX model or MLIR module, call its
entry points on NumPy arrays.

    import gather, numpy as np
    m = gather.compile("model.onnx")                 # or MLIR text, or a .mlir path
    y = m.main_graph_gather_0(data, indices)         # NumPy in, NumPy out
    m = gather.load("model.so")                      # a gather-compile library

A bad input raises gather.Error with the located message (the model's node,
the position, the value and the valid range). The GIL is released while a
kernel runs; several threads may call at once. docs/Deploying.md.
"""

from ._module import Error, Function, Module, compile, load

__all__ = ["Error", "Function", "Module", "compile", "load"]
