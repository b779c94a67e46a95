#!/usr/bin/python3
"""A gather bufferized by the user's own pipeline against onnx-to-llvm's own
bufferization: [512, 1024] f32 along axis 1 (int64 indices, the inputs of
workloads.h), lowered with `one-shot-bufferize` (three option sets) before
`onnx-to-llvm` and without it, each run by gather-run
--benchmark-repetitions, interleaved, at 1 and 2 threads, in one run.
Prints the table (median per call, ratio to the default pipeline's time in
the same round, median over rounds) with the CPU.

    /usr/bin/python3 bench/user_bufferization.py [--build build] [--rounds 7]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peers  # noqa: E402 (the inputs of workloads.h)
from run import cpu_info  # noqa: E402

WORKLOAD = {"name": "user_bufferization", "data": [512, 1024],
            "indices": [512, 1024], "axis": 1, "indices_type": "int64",
            "negatives": False}
MLIR = """
func.func @gather(%d: tensor<512x1024xf32>, %i: tensor<512x1024xi64>) -> tensor<512x1024xf32> {
  %r = onnx.GatherElements %d, %i axis = 1 : tensor<512x1024xf32>, tensor<512x1024xi64>
  return %r : tensor<512x1024xf32>
}
"""
ROUTES = {
    "default pipeline": None,
    "bufferize-function-boundaries": "bufferize-function-boundaries",
    "+ identity-layout-map": "bufferize-function-boundaries "
                             "function-boundary-type-conversion=identity-layout-map",
    "one-shot-bufferize defaults": "",
}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=300, help="calls per gather-run")
    parser.add_argument("--threads", default="1,2")
    args = parser.parse_args()
    opt = os.path.join(args.build, "bin", "gather-opt")
    run = os.path.join(args.build, "bin", "gather-run")
    threads = [int(t) for t in args.threads.split(",") if t]
    work = tempfile.mkdtemp(prefix="gather-user-bufferization-")
    try:
        data, indices = peers.make_inputs(WORKLOAD)
        np.save(os.path.join(work, "d.npy"), data)
        np.save(os.path.join(work, "i.npy"), indices)
        np.save(os.path.join(work, "y.npy"), np.take_along_axis(data, indices, 1))
        source = os.path.join(work, "gather.mlir")
        with open(source, "w") as f:
            f.write(MLIR)
        files = {}
        for name, options in ROUTES.items():
            path = os.path.join(work, f"route{len(files)}.mlir")
            if options is None:
                shutil.copy(source, path)
            else:
                subprocess.run([opt, source, "--convert-onnx-to-linalg",
                                f"--one-shot-bufferize={options}", "-o", path],
                               check=True)
            files[name] = path
        times = {}  # (route, threads) -> [median per round]
        ratios = {}
        for _ in range(args.rounds):
            for t in threads:
                this_round = {}
                for name, path in files.items():
                    out = subprocess.run(
                        [run, path, f"--pipeline-options=num-threads={t}",
                         "--input=@" + os.path.join(work, "d.npy"),
                         "--input=@" + os.path.join(work, "i.npy"),
                         "--expected_output=@" + os.path.join(work, "y.npy"),
                         f"--benchmark-repetitions={args.calls}"],
                        check=True, text=True, stdout=subprocess.PIPE).stdout
                    median = float(re.search(r"median ([0-9.]+) us", out).group(1))
                    this_round[name] = median
                    times.setdefault((name, t), []).append(median)
                for name, median in this_round.items():
                    ratios.setdefault((name, t), []).append(
                        median / this_round["default pipeline"])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    model, _ = cpu_info()
    print(f"**{model}**, {os.cpu_count()} logical CPUs; [512, 1024] f32 axis 1, "
          f"int64 indices; gather-run, {args.calls} calls per run, "
          f"{args.rounds} interleaved rounds; medians (µs per call), ratio to "
          "the default pipeline in the same round (target ≤ 1.1).\n")
    header = "| route | " + " | ".join(f"{t} thread{'s' if t > 1 else ''}" for t in threads) + " |"
    print(header)
    print("|---|" + "---:|" * len(threads))
    for name in ROUTES:
        cells = []
        for t in threads:
            m = statistics.median(times[(name, t)])
            r = statistics.median(ratios[(name, t)])
            mark = "" if name == "default pipeline" else (" ✓" if r <= 1.1 else " ✗")
            cells.append(f"{m:.0f} µs ({r:.2f}{mark})")
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
