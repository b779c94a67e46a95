# Inputs and NumPy's results for Inputs/loop_scan.txtpb (a Loop that gathers
# its carried value by `i` along axis 1 while `c` holds, at most `m` times,
# and stacks each iteration's value as a scan output) and
# Inputs/loop_for.txtpb (the same without `cond`: its body yields false,
# which ONNX ignores then, so it runs `m` times): writes
# <dir>/<model>.<case>.{x,i,c,m,z,s}.npy.
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(29)
cases = {
    "loop_scan": {"three": (3, True), "zero": (0, True), "negative": (-2, True),
                  "false": (5, False)},
    "loop_for": {"four": (4, None), "one": (1, None), "none": (0, None)},
}
for model, runs in cases.items():
    for case, (m, c) in runs.items():
        x = rng.standard_normal((4, 3)).astype(np.float32)
        i = rng.integers(-3, 3, size=(4, 3), dtype=np.int64)
        z, rows = x, []
        for _ in range(max(m, 0) if c is not False else 0):
            z = np.take_along_axis(z, i % 3, axis=1)
            rows.append(z)
        s = np.stack(rows) if rows else np.zeros((0, 4, 3), np.float32)
        values = {"x": x, "i": i, "m": np.array(m, dtype=np.int64), "z": z,
                  "s": s}
        if c is not None:
            values["c"] = np.array(c)
        for name, value in values.items():
            np.save(f"{out}/{model}.{case}.{name}.npy", value)
