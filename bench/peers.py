#!/usr/bin/python3
"""Times the Python peers of gather's benchmark: PyTorch torch.gather(out=)
at 1 and 2 threads and NumPy take_along_axis, on the inputs of workloads.h
(rebuilt here bit for bit). Prints one JSON object per measurement.

Run by bench/run.py with Debian's /usr/bin/python3 (python3-torch,
python3-numpy); `--only a,b` limits the workloads.
"""
import argparse
import json
import sys
import time

import numpy as np

import measure


def hash32(x):
    """lowbias32 on a uint32 array, modulo 2^32 (as in workloads.h)."""
    x = x ^ (x >> np.uint32(16))
    x = x * np.uint32(0x7FEB352D)
    x = x ^ (x >> np.uint32(15))
    x = x * np.uint32(0x846CA68B)
    x = x ^ (x >> np.uint32(16))
    return x


def make_inputs(w):
    n = int(np.prod(w["data"]))
    k = np.arange(n, dtype=np.uint32)
    data = (hash32(k ^ np.uint32(0x9E3779B9)) >> np.uint32(8)).astype(np.float32)
    data /= np.float32(16777216.0)
    data = data.reshape(w["data"])
    m = int(np.prod(w["indices"]))
    s = w["data"][w["axis"]]
    k = np.arange(m, dtype=np.uint32)
    indices = (hash32(k ^ np.uint32(0x85EBCA6B)) % np.uint32(s)).astype(np.int64)
    if w["negatives"]:  # int32 too
        odd = (hash32(k ^ np.uint32(0xC2B2AE35)) & np.uint32(1)).astype(bool)
        indices[odd] -= s
    indices = indices.reshape(w["indices"])
    if w["indices_type"] == "int32":
        indices = indices.astype(np.int32)
    return data, indices


def emit(record):
    print(json.dumps(record), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workloads", required=True)
    parser.add_argument("--only", default="")
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--threads", default="1,2", help="torch thread counts")
    args = parser.parse_args()
    import torch

    workloads = json.load(open(args.workloads))["workloads"]
    only = set(filter(None, args.only.split(",")))
    for w in workloads:
        if only and w["name"] not in only:
            continue
        data, indices = make_inputs(w)
        axis = w["axis"]
        s = w["data"][axis]

        # NumPy: wraps negative indices itself; allocates its output.
        result = np.take_along_axis(data, indices, axis)
        t = measure.median_per_call(
            lambda: np.take_along_axis(data, indices, axis), args.repetitions)
        emit({"peer": "numpy", "workload": w["name"], "threads": 1,
              "seconds": t, "checksum": float(result.astype(np.float64).sum()),
              "note": "take_along_axis allocates its output"})

        # PyTorch: rejects negative indices (normalized here, untimed) and
        # needs int64 (the conversion of int32 indices is timed).
        td = torch.from_numpy(data)
        normalized = np.where(indices < 0, indices + s, indices)
        ti = torch.from_numpy(normalized)
        out = torch.empty(w["indices"], dtype=torch.float32)
        if w["indices_type"] == "int32":
            call = lambda: torch.gather(td, axis, ti.long(), out=out)
            note = "int32 indices converted with .long() (timed)"
        else:
            call = lambda: torch.gather(td, axis, ti, out=out)
            note = ("negative indices normalized before the call (torch "
                    "rejects them)" if w["negatives"] else "")
        for threads in [int(t) for t in args.threads.split(",") if t]:
            torch.set_num_threads(threads)
            call()
            checksum = float(out.numpy().astype(np.float64).sum())
            t = measure.median_per_call(call, args.repetitions)
            emit({"peer": "torch", "workload": w["name"], "threads": threads,
                  "seconds": t, "checksum": checksum, "note": note})
        del td, ti, out, data, indices, normalized, result


if __name__ == "__main__":
    sys.exit(main())
