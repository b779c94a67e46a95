"""Runs the C host of a gather-compile library on seeded random inputs: the
host's part of softmax_topk_gather_mul (Softmax, TopK, Mul) in NumPy, the
GatherElements through the compiled kernel, compared bit for bit with
np.take_along_axis; --bad-index puts an index out of range instead.

  model_host.py --host <exe> --work <dir> [--seed N] [--trials N] [--bad-index]
"""
import argparse
import os
import subprocess
import sys

import numpy as np


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--trials", type=int, default=4)
    parser.add_argument("--bad-index", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    elements = 0
    for trial in range(args.trials):
        x = rng.standard_normal((3, 5)).astype(np.float32)
        data = rng.standard_normal((3, 5)).astype(np.float32)
        p = softmax(x)
        positions = np.argsort(-p, axis=1, kind="stable")[:, :3].astype(np.int64)
        values = np.take_along_axis(p, positions, axis=1)
        if args.bad_index:
            positions[1, 2] = 5
        paths = [os.path.join(args.work, f"{name}{trial}.bin")
                 for name in ("data", "indices", "out")]
        data.tofile(paths[0])
        positions.tofile(paths[1])
        run = subprocess.run([args.host] + paths, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"trial {trial}: exit status {run.returncode}: {run.stderr.strip()}")
            return 1
        picked = np.fromfile(paths[2], dtype=np.float32).reshape(3, 3)
        expected = np.take_along_axis(data, positions, axis=1)
        if picked.tobytes() != expected.tobytes():
            print(f"trial {trial}: the kernel's result differs:\n{picked}\n{expected}")
            return 1
        y = picked * values  # The host's Mul.
        elements += y.size
    print(f"{args.trials} trials, {elements} elements, all bit-exact")
    return 0


if __name__ == "__main__":
    sys.exit(main())
