#!/usr/bin/python3
"""The kernel partitioned over MPI processes against one process.

Runs gather-mpi-bench (the JIT-compiled kernel through the kernel API,
destination-passing style) for each workload, as one process with 1 and 2
OpenMP threads and under `mpirun.mpich -np 1, 2, 4` with one thread per
process, with the inputs and result whole on every process (`--io=whole`,
shard-io=whole) and as each process's slab (`--io=split`, shard-io=split).
Per run: the median ms per call (the slowest process), the peak RSS of the
largest process, the bytes each process sends per call (the most of any
process; measured by test/lib/MPITraffic, preloaded into the ranks: the bytes
the bandwidth-optimal algorithm sends for the payload of each MPI call), the
compiler's model of them and the scheme (the remarks of onnx-shard-gathers,
the scheme of an axis split, and of gather-shard-prepare-for-mpi, the
collective, on the same kernel, plus the index-error consensus, one 8-byte
all-reduce), and whether the result equals a C loop's bit for bit.

`--axis-schemes auto,all-reduce,...` runs the axis splits on 2 or more
processes once per scheme (shard-axis-scheme), side by side.

Writes build/bench-results/mpi.json (one record per run) and prints a
Markdown table, the CPU and the targets of docs/Sharding.md. Usually run
through bench/mpi.sh.
"""
import argparse
import glob
import json
import os
import platform
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

WORKLOADS = {
    "e": "[8192,8192] f32, i64 indices, axis 1 (rows split)",
    "e_axis0": "[8192,8192] f32, i64 indices, axis 0 (the axis split)",
    "v": "[4096,65536] f32 data, [4096,1] i64 indices, axis 1 (the axis split: vocabulary-parallel)",
}
# Timed calls per run (--reps overrides): v's call takes tens of
# microseconds, where 3 calls time the first calls' warm-up of MPI's
# shared-memory path and the skew of leaving the barrier, not the call.
DEFAULT_REPS = {"e": 3, "e_axis0": 3, "v": 300}
# The workloads whose split dimension is the gather axis (shard-axis-scheme).
AXIS_SPLIT = ("e_axis0", "v")


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def cpu_name():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        m = re.search(r"Model name:\s*(.*)", out)
        if m:
            return m.group(1).strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def model_bytes(binary, bindir, workload, ranks, io, extra):
    """The compiler's bytes per process per call and the scheme: the
    remarks on the bench's kernel (its own pipeline options): the scheme of
    an axis split (onnx-shard-gathers, TrafficModel.h) or the collective's
    (gather-shard-prepare-for-mpi), plus the index-error consensus (one
    8-byte all-reduce; not with all-gather-data, whose gather checks
    locally)."""
    if ranks < 2:
        return 0, "-"
    source = subprocess.run([binary, f"--workload={workload}", f"--io={io}",
                             f"--ranks={ranks}", "--print-kernel", *extra],
                            check=True, capture_output=True, text=True).stdout
    options = re.match(r"// pipeline-options: (.*)", source).group(1)
    option = lambda name, default: (re.search(name + r"=(\S+)", options) or
                                    [None, default])[1]
    assembly = option("shard-assembly", "all-gather")
    sharding = (f"onnx-shard-gathers{{grid-size={option('shard-grid', ranks)} "
                f"shard-dim={option('shard-dim', -1)} io={option('shard-io', 'whole')} "
                f"axis-scheme={option('shard-axis-scheme', 'auto')} remarks=true}},"
                "gather-shard-partition-functions")
    stages = ",".join([f"gather-pipeline-onnx-preprocessing{{{options}}}", sharding,
                       f"gather-pipeline-onnx-to-linalg{{{options}}}"])
    remarks = subprocess.run(
        [os.path.join(bindir, "gather-opt"), "-o", os.devnull,
         f"--pass-pipeline=builtin.module({stages},"
         f"gather-shard-prepare-for-mpi{{assembly={assembly} remarks=true}})"],
        input=source, check=True, capture_output=True, text=True).stderr
    axis = re.findall(r"axis split by (\S+) \(axis-scheme=\S+\): (\d+) bytes per process",
                      remarks)
    if axis:
        scheme = ",".join(sorted({s for s, _ in axis}))
        collective = sum(int(b) for _, b in axis)
    else:
        scheme = f"rows ({assembly})"
        collective = sum(int(b) for b in re.findall(r"(\d+) bytes per process", remarks))
    consensus = 0 if scheme == "all-gather-data" else 2 * 8 * (ranks - 1) // ranks
    return collective + consensus, scheme


def run(args, bindir, workload, mode, ranks, threads, io, scheme="auto"):
    binary = os.path.join(bindir, "gather-mpi-bench")
    # An axis scheme other than the model's choice (--axis-schemes).
    extra = [] if scheme == "auto" else [f"--options=shard-axis-scheme={scheme}"]
    reps = args.reps or DEFAULT_REPS[workload]
    command = [binary, f"--workload={workload}", f"--num-threads={threads}",
               f"--reps={reps}", "--json", *extra]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "traffic")
        if mode == "mpi":
            command = ["mpirun.mpich", "-np", str(ranks), "-genv", "LD_PRELOAD",
                       args.traffic, "-genv", "GATHER_MPI_TRAFFIC", prefix,
                       *command, f"--ranks={ranks}", f"--io={io}"]
        log("  " + " ".join(command))
        for attempt in range(2):
            out = subprocess.run(command, env=env, text=True, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, timeout=args.timeout)
            records = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
            if out.returncode == 0 and len(records) == 1:
                break
            log(f"  failed ({out.returncode}), attempt {attempt + 1}:\n{out.stderr[-2000:]}")
        else:
            raise SystemExit(f"failed ({out.returncode}): {' '.join(command)}")
        record = records[0]
        sent = 0
        for path in glob.glob(prefix + ".*"):
            total = 0
            for line in open(path):
                f = line.split()
                if f and f[2] != "MPI_Allgather":
                    total += int(f[8])
            sent = max(sent, total)
    calls = reps + 1  # one warm-up call
    record["bytes_sent"] = sent // calls if mode == "mpi" else 0
    record["bytes_model"], record["scheme"] = (
        model_bytes(binary, bindir, workload, ranks, io, extra) if mode == "mpi" else (0, "-"))
    return record


def fmt_bytes(n):
    if n >= 1 << 20:
        return f"{n / (1 << 20):.1f} MiB"
    if n >= 1 << 10:
        return f"{n / (1 << 10):.1f} KiB"
    return f"{n} B"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")))
    parser.add_argument("--reps", type=int, default=0,
                        help="timed calls per run (default: 3, v 300)")
    parser.add_argument("--only", default="e,e_axis0,v")
    parser.add_argument("--ranks", default="1,2,4")
    parser.add_argument("--io", default="whole,split")
    parser.add_argument("--timeout", type=int, default=900)
    # Axis splits (e_axis0, v) on 2 or more processes run once per scheme
    # listed, in this order; the targets take the first.
    parser.add_argument("--axis-schemes", default="auto",
                        help="comma list of auto, all-reduce, all-gather-data, all-to-all")
    args = parser.parse_args()
    bindir = os.path.join(args.build, "bin")
    args.traffic = os.path.join(args.build, "lib", "libgather_mpi_traffic.so")
    records = []
    load = [loadavg()]
    for workload in args.only.split(","):
        log(f"{workload}: {WORKLOADS[workload]}")
        # (One process holds the whole tensors, whatever --io.)
        for threads in (1, 2):
            records.append(run(args, bindir, workload, "process", 1, threads, "whole"))
        for io in args.io.split(","):
            for ranks in (int(r) for r in args.ranks.split(",")):
                schemes = (args.axis_schemes.split(",")
                           if ranks > 1 and workload in AXIS_SPLIT else ["auto"])
                for scheme in schemes:
                    records.append(run(args, bindir, workload, "mpi", ranks, 1, io, scheme))
    load.append(loadavg())
    out_dir = os.path.join(args.build, "bench-results")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "mpi.json"), "w") as f:
        json.dump(records, f, indent=1)

    print(f"CPU: {cpu_name()}, {os.cpu_count()} logical CPUs; load average "
          f"{load[0]:.1f} before, {load[1]:.1f} after; median of "
          + (f"{args.reps} calls" if args.reps else
             ", ".join(f"{n} calls ({w})" for w, n in DEFAULT_REPS.items()))
          + " after one warm-up, each the slowest process")
    print()
    print("| workload | io | run | scheme | ms per call | peak RSS per process | bytes sent per process | model | result |")
    print("|---|---|---|---|---:|---:|---:|---:|---|")
    for r in records:
        run_name = (f"{r['ranks']} MPI rank{'s' if r['ranks'] > 1 else ''} x 1 thread"
                    if r["mode"] == "mpi" else f"1 process x {r['threads']} thread{'s' if r['threads'] > 1 else ''}")
        print(f"| {r['workload']} | {r['io']} | {run_name} | {r['scheme']} | {r['ms']:.{3 if r['ms'] < 1 else 1}f} | {r['rss_mib']:.0f} MiB | "
              f"{fmt_bytes(r['bytes_sent'])} | {fmt_bytes(r['bytes_model'])} | "
              f"{'identical' if r['identical'] else 'MISMATCH'} |")

    def find(workload, mode, ranks, threads, io):
        for r in records:
            if (r["workload"], r["mode"], r["ranks"], r["threads"], r["io"]) == (workload, mode, ranks, threads, io):
                return r
        return None

    print()
    print("| target | measured | holds |")
    print("|---|---|---|")

    def target(text, value, limit, unit="x"):
        if value is None:
            print(f"| {text} | not run | – |")
        else:
            print(f"| {text} | {value:.2f}{unit} | {'yes' if value <= limit else 'no'} |")

    def ratio(a, b, key="ms"):
        return a[key] / b[key] if a and b else None

    p2 = lambda w: find(w, "process", 1, 2, "whole")
    p1 = lambda w: find(w, "process", 1, 1, "whole")
    target("e, split, -np 2 ≤ 1.15 × 1 process × 2 threads",
           ratio(find("e", "mpi", 2, 1, "split"), p2("e")), 1.15)
    target("e, whole, -np 2 ≤ 2.5 × 1 process × 2 threads",
           ratio(find("e", "mpi", 2, 1, "whole"), p2("e")), 2.5)
    for w in ("e", "v"):
        target(f"{w}, split, -np 2: peak RSS ≤ 0.6 × 1 process",
               ratio(find(w, "mpi", 2, 1, "split"), p1(w), "rss_mib"), 0.6)
    target("v, split, -np 2 ≤ 1.2 × 1 process × 1 thread",
           ratio(find("v", "mpi", 2, 1, "split"), p1("v")), 1.2)
    v2 = find("v", "mpi", 2, 1, "split")
    target("v, split, -np 2: bytes per process ≤ 64 KiB",
           v2["bytes_sent"] / 1024 if v2 else None, 64, " KiB")
    worst = None
    for r in records:
        if r["mode"] == "mpi" and r["bytes_model"]:
            d = abs(r["bytes_sent"] - r["bytes_model"]) / r["bytes_model"]
            worst = d if worst is None else max(worst, d)
    target("bytes sent within 5 % of the model (every run with traffic)",
           None if worst is None else 100 * worst, 5, " %")
    bad = [r for r in records if not r["identical"]]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
