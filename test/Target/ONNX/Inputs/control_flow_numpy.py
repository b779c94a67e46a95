# Inputs and NumPy's results for Inputs/control_flow_nested.txtpb (a Loop
# whose body gathers by `i` on axis 1 if `b`, else by `j` on axis 0):
# writes <dir>/<case>.{x,i,j,b,c,m,z}.npy for a few cases.
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(13)
for case, (n, b, c, m) in {
    "then": (64, True, True, 3),
    "else": (33, False, True, 4),
    "none": (5, True, False, 2),
    "zero": (7, False, True, 0),
}.items():
    x = rng.standard_normal((n, 3)).astype(np.float32)
    i = rng.integers(-3, 3, size=(n, 3), dtype=np.int64)
    j = rng.integers(-n, n, size=(n, 3), dtype=np.int64)
    z = x
    for _ in range(m if c else 0):
        z = np.take_along_axis(z, i % 3, axis=1) if b else np.take_along_axis(
            z, j % n, axis=0)
    for name, value in {"x": x, "i": i, "j": j, "b": np.array(b),
                        "c": np.array(c), "m": np.array(m, dtype=np.int64),
                        "z": z}.items():
        np.save(f"{out}/{case}.{name}.npy", value)
