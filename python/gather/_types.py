# Part of the gather project.
# Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
# license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The tensor types of a library's entry points (its __gather_entry_points
text, written by gather-compile: `<name> <MLIR function type>` per line) and
their NumPy equivalents."""

import re

import numpy as np

# MLIR element type -> NumPy dtype (every element type of
# gather/Runtime/ElementTypes.def that NumPy has).
DTYPES = {
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
    "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32,
    "i64": np.int64, "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32,
    "ui64": np.uint64, "complex<f32>": np.complex64,
    "complex<f64>": np.complex128,
}

_TENSOR = re.compile(r"(?:tensor|memref)<((?:(?:\d+|\?)x)*)([^>]+>?)>")


class TensorType:
    """A ranked tensor type: `shape` (None for a dynamic size) and
    `element` (the MLIR spelling)."""

    def __init__(self, text):
        match = _TENSOR.fullmatch(text.strip())
        if not match:
            raise ValueError(f"not a ranked tensor type: {text!r}")
        dims = [d for d in match.group(1).split("x") if d]
        self.shape = tuple(None if d == "?" else int(d) for d in dims)
        self.element = match.group(2)
        self.text = text.strip()
        # (dimension, size) of each static size, for the calls' checks.
        self.static = tuple((d, s) for d, s in enumerate(self.shape)
                            if s is not None)
        self._dtype = (np.dtype(DTYPES[self.element])
                       if self.element in DTYPES else None)

    @property
    def rank(self):
        return len(self.shape)

    @property
    def dtype(self):
        if self._dtype is None:
            raise TypeError(f"element type {self.element} has no NumPy "
                            "equivalent (bf16 and strings are not supported)")
        return self._dtype

    def __repr__(self):
        return self.text


def _split_types(text):
    """The comma-separated types of `text`, commas inside <> kept."""
    types, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "," and depth == 0:
            types.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        types.append(text[start:])
    return [TensorType(t) for t in types]


def parse_entry_points(text):
    """{name: (argument types, result types)} of a library's description;
    for an entry point the package cannot call (a scalar or unranked type),
    {name: reason} instead."""
    entries = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        name, signature = line.split(" ", 1)
        arguments, _, results = signature.partition("->")
        arguments, results = arguments.strip(), results.strip()
        if results.startswith("(") and results.endswith(")"):
            results = results[1:-1]
        try:
            if not (arguments.startswith("(") and arguments.endswith(")")):
                raise ValueError(f"not a function type: {signature!r}")
            entries[name] = (_split_types(arguments[1:-1]), _split_types(results))
        except ValueError as error:
            entries[name] = (f"entry point {name} has the type {signature.strip()}: "
                             f"{error}; gather's Python package calls functions "
                             "on ranked tensors only")
    return entries
