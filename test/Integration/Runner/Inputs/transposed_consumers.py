# Part of the gather project.
# Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
# license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the inputs and NumPy's results of transposed-consumers.test into
DIR: <case>_data.npy, <case>_indices.npy, <case>_w.npy (where the consumer
multiplies), <case>_expected.npy, and t512_bad.npy (one index out of range
at [3, 7]); for "two" (two results), two_expected0.npy (the transposed
gather) and two_expected1.npy (times w); for the results in several orders
(mixed, mixed_ragged, mixed3), <case>_expected<k>.npy for result k, and
mixed_bad.npy (one index out of range at [5, 9])."""
import os
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(36)
# name: data shape, indices shape, axis, index type, permutation of the
# gather's result, whether the consumer multiplies by w (else: + 1 for
# "dynamic", nothing for the others).
cases = {
    "t2x3": ((2, 3), (2, 3), 1, np.int64, (1, 0), True),
    "t16": ((16, 16), (16, 16), 0, np.int64, (1, 0), True),
    "t512": ((512, 1024), (512, 1024), 1, np.int64, (1, 0), True),
    "two": ((32, 64), (32, 64), 1, np.int64, (1, 0), True),
    "t512i32": ((512, 1024), (512, 1024), 1, np.int32, (1, 0), False),
    "rank3": ((6, 16, 32), (4, 16, 32), 0, np.int64, (2, 0, 1), True),
    "rank3big": ((10, 64, 256), (8, 64, 256), 0, np.int64, (2, 0, 1), True),
    "ragged": ((30, 40), (20, 40), 0, np.int64, (1, 0), True),
    "dynamic": ((37, 200), (37, 129), 1, np.int64, (1, 0), False),
}
for name, (data_shape, indices_shape, axis, index_type, perm, mul) in cases.items():
    data = rng.standard_normal(data_shape).astype(np.float32)
    size = data_shape[axis]
    indices = rng.integers(-size, size, indices_shape).astype(index_type)
    result = np.transpose(np.take_along_axis(data, indices % size, axis), perm)
    np.save(os.path.join(out, f"{name}_data.npy"), data)
    np.save(os.path.join(out, f"{name}_indices.npy"), indices)
    if name == "two":
        np.save(os.path.join(out, "two_expected0.npy"), np.ascontiguousarray(result))
    if mul:
        w = rng.standard_normal(result.shape).astype(np.float32)
        np.save(os.path.join(out, f"{name}_w.npy"), w)
        result = result * w
    elif name == "dynamic":
        result = result + np.float32(1)
    np.save(os.path.join(out, f"{name}_expected{'1' if name == 'two' else ''}.npy"),
            np.ascontiguousarray(result))
    if name == "t512":
        indices[3, 7] = 5000
        np.save(os.path.join(out, "t512_bad.npy"), indices)

# Results in several orders: r0 = the transposing consumer's (gather
# permuted by perm, times w), r1 = the gather itself, and for mixed3 r2 =
# r0 permuted by (2, 0, 1).
mixed = {
    "mixed": ((64, 128), (64, 128), 1, (1, 0)),
    "mixed_ragged": ((30, 40), (20, 40), 0, (1, 0)),
    "mixed3": ((6, 16, 32), (4, 16, 32), 0, (2, 0, 1)),
}
for name, (data_shape, indices_shape, axis, perm) in mixed.items():
    data = rng.standard_normal(data_shape).astype(np.float32)
    size = data_shape[axis]
    indices = rng.integers(-size, size, indices_shape).astype(np.int64)
    gathered = np.take_along_axis(data, indices % size, axis)
    w = rng.standard_normal(np.transpose(gathered, perm).shape).astype(np.float32)
    results = [np.transpose(gathered, perm) * w, gathered]
    if name == "mixed3":
        results.append(np.transpose(results[0], (2, 0, 1)))
    for kind, array in (("data", data), ("indices", indices), ("w", w)):
        np.save(os.path.join(out, f"{name}_{kind}.npy"), array)
    for k, result in enumerate(results):
        np.save(os.path.join(out, f"{name}_expected{k}.npy"), np.ascontiguousarray(result))
    if name == "mixed":
        indices[5, 9] = 500
        np.save(os.path.join(out, "mixed_bad.npy"), indices)
