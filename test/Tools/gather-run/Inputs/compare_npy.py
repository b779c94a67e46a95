"""Compares two .npy files: same dtype, shape and bytes.

  compare_npy.py <actual.npy> <expected.npy>
"""
import sys

import numpy as np

a, e = np.load(sys.argv[1]), np.load(sys.argv[2])
if a.dtype != e.dtype or a.shape != e.shape or a.tobytes() != e.tobytes():
    print(f"differ: {a.dtype}{a.shape} {a!r} vs {e.dtype}{e.shape} {e!r}")
    sys.exit(1)
print(f"{sys.argv[1].rsplit('/', 1)[-1]}: {a.dtype} {a.shape} bit-exact")
