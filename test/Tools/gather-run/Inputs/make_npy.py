"""Writes seeded random .npy operands of Inputs/types.mlir's gathers and
their expected results (np.take_along_axis), one set per function, and a
0-d and a 1-d array for the format's corner cases.

  make_npy.py <dir>
"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(11)
cases = {
    "f16": (rng.standard_normal((3, 7)).astype(np.float16), np.int64),
    "f64": (rng.standard_normal((3, 7)), np.int32),
    "ui8": (rng.integers(0, 256, (3, 7)).astype(np.uint8), np.int64),
    "i1": (rng.integers(0, 2, (3, 7)).astype(np.bool_), np.int64),
    "c64": ((rng.standard_normal((3, 7)) + 1j * rng.standard_normal((3, 7))).astype(np.complex64), np.int64),
}
for name, (data, index_type) in cases.items():
    indices = rng.integers(-7, 7, (3, 5)).astype(index_type)
    np.save(os.path.join(out, f"{name}_data.npy"), data)
    np.save(os.path.join(out, f"{name}_indices.npy"), indices)
    np.save(os.path.join(out, f"{name}_expected.npy"), np.take_along_axis(data, indices % 7, axis=1))
