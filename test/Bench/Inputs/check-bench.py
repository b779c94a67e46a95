#!/usr/bin/python3
"""Checks the JSON lines of one gather-bench run against its workloads file:
every implementation is there (ours at each thread count, every C form at 1
thread and the OpenMP ones at each, the floor at each), every time is
positive and the median of its per-round samples, ours has a compile time,
each workload's reference checksum equals NumPy's take_along_axis on the
inputs of bench/workloads.h, and the floor moves exactly the index values,
the 64-byte data lines the indices touch and the output. Prints one line per
workload; exits 1 with the reason otherwise. No timing thresholds.

Usage: check-bench.py WORKLOADS.json RUN.jsonl --rounds N --threads 1,2
"""
import argparse
import json
import os
import statistics
import sys

import numpy as np

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "bench"))
from peers import make_inputs  # noqa: E402  (the benchmark's input formulas)


def fail(message):
    print(f"check-bench: {message}")
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("workloads")
    parser.add_argument("run")
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--threads", required=True)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    only = set(filter(None, args.only.split(",")))
    records = [json.loads(line) for line in open(args.run) if line.strip()]
    if not records or records[0]["kind"] != "machine":
        fail("the first record is not the machine")
    machine = records[0]
    if not machine["llvm_host_cpu"] or not machine["llvm_host_features"]:
        fail("no LLVM host CPU name or features")
    forms = {f["name"]: f["openmp"] for f in machine["c_forms"]}
    for name in ("c_omp", "c_plain", "c_plain_scalar", "c_omp_scalar"):
        if name not in forms:
            fail(f"C form {name} missing")
    print(f"machine: {machine['llvm_host_cpu']}, C forms: {' '.join(sorted(forms))}")

    for w in json.load(open(args.workloads))["workloads"]:
        if only and w["name"] not in only:
            continue
        mine = [r for r in records[1:] if r.get("workload") == w["name"]]
        info = [r for r in mine if r["kind"] == "workload"]
        if len(info) != 1:
            fail(f"{w['name']}: {len(info)} workload records")
        info = info[0]

        data, indices = make_inputs(w)
        expected = np.take_along_axis(data, indices, w["axis"])
        checksum = float(expected.astype(np.float64).sum())
        if abs(info["checksum"] - checksum) > 1e-9 * max(1.0, abs(checksum)):
            fail(f"{w['name']}: checksum {info['checksum']} != NumPy's {checksum}")
        # Flat data offsets the gather reads -> touched 64-byte lines.
        axis = w["axis"]
        s = w["data"][axis]
        k = np.where(indices < 0, indices + s, indices).astype(np.int64)
        positions = np.indices(w["indices"])
        positions[axis] = k
        source = np.ravel_multi_index(tuple(positions), w["data"])
        lines = len(np.unique(source // 16))
        touched = min(lines * 16, data.size)
        index_bytes = 4 if w["indices_type"] == "int32" else 8
        floor_bytes = indices.size * (index_bytes + 4) + touched * 4
        if info["floor_bytes"] != floor_bytes:
            fail(f"{w['name']}: floor_bytes {info['floor_bytes']} != {floor_bytes}")

        times = {(r["impl"], r["threads"]): r for r in mine if r["kind"] == "time"}
        wanted = {("ours", t) for t in threads} | {("floor", t) for t in threads}
        wanted |= {(f, t) for f, openmp in forms.items() for t in threads
                   if t == 1 or openmp}
        if set(times) != wanted:
            fail(f"{w['name']}: timed {sorted(times)}, expected {sorted(wanted)}")
        for (impl, t), r in times.items():
            samples = r["samples"]
            if len(samples) != args.rounds or min(samples) <= 0:
                fail(f"{w['name']}/{impl}/t{t}: samples {samples}")
            if r["seconds"] != statistics.median(samples):
                fail(f"{w['name']}/{impl}/t{t}: {r['seconds']} is not the median")
            if r["calls_per_batch"] < 1:
                fail(f"{w['name']}/{impl}/t{t}: calls_per_batch {r['calls_per_batch']}")
            if (impl == "ours") != ("compile_ms" in r) or r.get("compile_ms", 1) <= 0:
                fail(f"{w['name']}/{impl}/t{t}: compile_ms {r.get('compile_ms')}")
        print(f"{w['name']}: {len(times)} timings, checksum and floor bytes match")


if __name__ == "__main__":
    main()
