# Part of the gather project.
# Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
# license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the inputs and NumPy's results of user-bufferization.test into DIR:
<case>_data.npy, <case>_indices.npy, <case>_expected.npy, and
axis1_bad.npy (one index out of range at [3, 7])."""
import os
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(36)
cases = {
    "axis1": ((512, 1024), (512, 1024), 1, np.int64),
    "axis0": ((300, 200), (100, 200), 0, np.int64),
    "i32": ((512, 1024), (512, 1024), 1, np.int32),
    "dynamic": ((37, 129), (37, 65), 1, np.int64),
    "slice": ((4, 8), (4, 4), 1, np.int64),
}
for name, (data_shape, indices_shape, axis, index_type) in cases.items():
    data = rng.standard_normal(data_shape).astype(np.float32)
    size = indices_shape[axis] if name == "slice" else data_shape[axis]
    indices = rng.integers(-size, size, indices_shape).astype(index_type)
    if name == "slice":  # @slice gathers from data[:, ::2]
        expected = np.take_along_axis(data[:, ::2], indices % size, axis)
    else:
        expected = np.take_along_axis(data, indices % size, axis)
    np.save(os.path.join(out, f"{name}_data.npy"), data)
    np.save(os.path.join(out, f"{name}_indices.npy"), indices)
    np.save(os.path.join(out, f"{name}_expected.npy"), expected)
    if name == "axis1":
        indices[3, 7] = 5000
        np.save(os.path.join(out, "axis1_bad.npy"), indices)
