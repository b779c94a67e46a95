#!/usr/bin/python3
"""gather's benchmark driver: times, in one run on this machine and on the
same inputs, gather's JIT kernel (1 and 2 threads), the plain C loop
(gather-bench, Google Benchmark), ONNX Runtime (bench/ort), PyTorch and NumPy
(peers.py), then prints the median times, effective GB/s and our ratios,
writes results.json, results.md and chart.png (into build/bench-results/,
or with --update-readme into bench/results/ plus the table between the
README's bench markers).

Usually run through bench/run.sh (installs the peers, builds, runs this).
Each phase runs `--rounds` times, the phases interleaved (A B C A B C); a
variant's time is the median over rounds of its per-round medians.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Targets of issue 6 (ours / peer).
TARGETS = {"torch": 1.0, "ort": 0.5, "c_loop": 1.2}
OVERHEAD_TARGET_S = 2e-6


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run_gather_bench(binary, workloads_path, only, repetitions):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [binary, f"--workloads={workloads_path}",
                   f"--benchmark_repetitions={repetitions}",
                   "--benchmark_min_time=0.05",
                   "--benchmark_report_aggregates_only=true",
                   f"--benchmark_out={out.name}", "--benchmark_out_format=json"]
        if only:
            command.append("--benchmark_filter=/(" + "|".join(only) + ")/")
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        report = json.load(open(out.name))
    records = []
    for b in report["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        if b.get("error_occurred"):
            raise SystemExit(f"gather-bench: {b['run_name']}: {b.get('error_message')}")
        peer, workload, threads = b["run_name"].split("/")[:3]
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        record = {"peer": "ours" if peer == "ours" else "c_loop",
                  "workload": workload, "threads": int(threads[1:]),
                  "seconds": b["real_time"] * scale,
                  "checksum": b.get("checksum")}
        if "compile_ms" in b:
            record["compile_ms"] = b["compile_ms"]
        records.append(record)
    return records


def run_json_lines(command, cwd=None):
    result = subprocess.run(command, check=True, cwd=cwd, text=True,
                            stdout=subprocess.PIPE)
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def bytes_per_call(w):
    m = 1
    for size in w["indices"]:
        m *= size
    return m * ((4 if w["indices_type"] == "int32" else 8) + 2 * 4)


def fmt_time(seconds):
    if seconds is None:
        return "–"
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    return f"{seconds * 1e3:.3f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--only", default="", help="workloads, e.g. a,b,h")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--update-readme", action="store_true")
    args = parser.parse_args()

    workloads_path = os.path.join(HERE, "workloads.json")
    workloads = json.load(open(workloads_path))["workloads"]
    only = [w for w in args.only.split(",") if w]
    if only:
        workloads = [w for w in workloads if w["name"] in only]
    gather_bench = os.path.join(args.build, "bin", "gather-bench")
    if not os.path.exists(gather_bench):
        raise SystemExit(f"{gather_bench} is missing: build first (bench/run.sh does)")
    models = os.path.join(args.build, "bench-models")
    subprocess.run(["/usr/bin/python3", os.path.join(HERE, "make_models.py"),
                    workloads_path, models], check=True)

    phases = [
        ("ours + C loop", lambda: run_gather_bench(
            gather_bench, workloads_path, only, args.repetitions)),
        ("torch + numpy", lambda: run_json_lines(
            ["/usr/bin/python3", os.path.join(HERE, "peers.py"),
             "--workloads", workloads_path, "--only", ",".join(only),
             "--repetitions", str(args.repetitions)])),
        ("onnxruntime", lambda: run_json_lines(
            ["node", "--expose-gc", "bench.mjs", "--workloads", workloads_path,
             "--models", models, "--only", ",".join(only),
             "--repetitions", str(args.repetitions)],
            cwd=os.path.join(HERE, "ort"))),
    ]
    samples = {}  # (peer, workload, threads) -> list of records
    loads = []
    for round_index in range(args.rounds):
        for name, phase in phases:
            loads.append(loadavg())
            log(f"round {round_index + 1}/{args.rounds}: {name} "
                f"(load average {loads[-1]:.2f})")
            for record in phase():
                key = (record["peer"], record["workload"], record["threads"])
                samples.setdefault(key, []).append(record)

    def value(peer, workload, threads, field="seconds"):
        records = samples.get((peer, workload, threads))
        if not records or records[0].get(field) is None:
            return None
        return statistics.median(r[field] for r in records)

    # Same inputs, same outputs: every peer's checksum equals ours.
    mismatches = []
    for (peer, workload, threads), records in samples.items():
        ours = samples.get(("ours", workload, 1))
        if not ours:
            continue
        expected = ours[0]["checksum"]
        for r in records:
            if abs(r["checksum"] - expected) > 1e-9 * max(1.0, abs(expected)):
                mismatches.append(f"{peer}/{workload}/t{threads}: checksum "
                                  f"{r['checksum']} != ours {expected}")

    results = {"machine": {"cpu": cpu_model(), "cores": os.cpu_count(),
                           "load_average_at_phases": loads},
               "rounds": args.rounds, "repetitions": args.repetitions,
               "workloads": [], "checksum_mismatches": mismatches}
    for w in workloads:
        name = w["name"]
        entry = {"name": name, "title": w["title"], "bytes_per_call": bytes_per_call(w),
                 "compile_ms": value("ours", name, 1, "compile_ms"), "times": {}}
        for peer in ("ours", "c_loop", "torch", "ort", "numpy"):
            for threads in (1, 2):
                seconds = value(peer, name, threads)
                if seconds is not None:
                    entry["times"][f"{peer}/t{threads}"] = seconds
            kernel = value("ort", name, 1, "kernel_seconds")
            if peer == "ort":
                for threads in (1, 2):
                    k = value("ort", name, threads, "kernel_seconds")
                    if k is not None:
                        entry["times"][f"ort_kernel/t{threads}"] = k
        results["workloads"].append(entry)

    # The committed results (README) change only with --update-readme.
    out_dir = (os.path.join(HERE, "results") if args.update_readme
               else os.path.join(args.build, "bench-results"))
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    table = markdown(results)
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write(table)
    chart(results, os.path.join(out_dir, "chart.png"))
    log(f"results written to {out_dir}")
    print(table)
    for m in mismatches:
        print("CHECKSUM MISMATCH:", m)
    if args.update_readme:
        update_readme(table)
    return 1 if mismatches else 0


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                flags = ""
                break
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                flags = "AVX-512" if " avx512f" in line else (
                    "AVX2" if " avx2" in line else "no AVX2")
                break
    return f"{name} ({flags})"


def markdown(results):
    lines = []
    m = results["machine"]
    lines.append(f"Machine: {m['cpu']}, {m['cores']} cores; medians over "
                 f"{results['rounds']} rounds × {results['repetitions']} repetitions; "
                 f"load average at the phases: "
                 + ", ".join(f"{l:.2f}" for l in m["load_average_at_phases"]) + ".")
    lines.append("")
    lines.append("| workload | threads | ours | GB/s | C loop | torch | ORT kernel (run) | numpy "
                 "| ours/torch | ours/ORT | ours/C |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for w in results["workloads"]:
        t = w["times"]
        for threads in (1, 2):
            ours = t.get(f"ours/t{threads}")
            def ratio(peer, target):
                other = t.get(f"{peer}/t{threads}")
                if ours is None or other is None:
                    return "–"
                r = ours / other
                return f"{r:.2f} {'✓' if r <= target else '✗'}"
            gbs = f"{w['bytes_per_call'] / ours / 1e9:.1f}" if ours else "–"
            ort = t.get(f"ort_kernel/t{threads}")
            ort_run = t.get(f"ort/t{threads}")
            numpy = fmt_time(t.get("numpy/t1")) if threads == 1 else ""
            title = f"{w['name']}: {w['title']}" if threads == 1 else ""
            lines.append(
                f"| {title} | {threads} | {fmt_time(ours)} | {gbs} | "
                f"{fmt_time(t.get(f'c_loop/t{threads}'))} | "
                f"{fmt_time(t.get(f'torch/t{threads}'))} | "
                f"{fmt_time(ort)} ({fmt_time(ort_run)}) | {numpy} | "
                f"{ratio('torch', TARGETS['torch'])} | {ratio('ort_kernel', TARGETS['ort'])} | "
                f"{ratio('c_loop', TARGETS['c_loop'])} |")
    lines.append("")
    compile_times = ", ".join(f"{w['name']} {w['compile_ms']:.0f} ms"
                              for w in results["workloads"] if w["compile_ms"])
    lines.append(f"Compile time, kernel source (.mlir) → callable (1 thread): {compile_times}.")
    h = next((w for w in results["workloads"] if w["name"] == "h"), None)
    if h and "ours/t1" in h["times"]:
        overhead = h["times"]["ours/t1"]
        lines.append(f"Per-call overhead ([1,1], 1 thread): {overhead * 1e9:.0f} ns "
                     f"({'✓' if overhead <= OVERHEAD_TARGET_S else '✗'} target ≤ 2 µs).")
    lines.append("")
    lines.append("Targets (✓/✗): ours ≤ torch, ≤ 0.5 × ORT's kernel time, ≤ 1.2 × the C loop "
                 "at the same thread count. GB/s counts index values read, gathered elements "
                 "read and results written.")
    if results["checksum_mismatches"]:
        lines.append("")
        lines.append("**Checksum mismatches:** " + "; ".join(results["checksum_mismatches"]))
    return "\n".join(lines) + "\n"


def chart(results, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib missing (python3-matplotlib): no chart")
        return
    peers = [("ours", "gather (ours)"), ("c_loop", "C loop -O3"),
             ("torch", "torch.gather"), ("ort_kernel", "ORT kernel"),
             ("numpy", "numpy")]
    names = [w["name"] for w in results["workloads"]]
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8), sharey=True)
    width = 0.16
    for ax, threads in zip(axes, (1, 2)):
        for i, (peer, label) in enumerate(peers):
            if peer == "numpy" and threads == 2:
                continue
            values = []
            for w in results["workloads"]:
                ours = w["times"].get(f"ours/t{threads}")
                other = w["times"].get(f"{peer}/t{threads}")
                values.append(other / ours if ours and other else 0)
            xs = [x + (i - 2) * width for x in range(len(names))]
            ax.bar(xs, values, width, label=label)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names)
        ax.set_title(f"{threads} thread{'s' if threads > 1 else ''}: time / gather's time "
                     "(above 1: slower than ours)")
        ax.set_xlabel("workload")
    axes[0].set_ylabel("time relative to gather (log)")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def update_readme(table):
    path = os.path.join(ROOT, "README.md")
    text = open(path).read()
    begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
    if begin not in text or end not in text:
        log("README.md has no bench markers: not updated")
        return
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + table + end + tail)


if __name__ == "__main__":
    sys.exit(main())
