#!/usr/bin/python3
"""gather's benchmark driver: times, in one run on this machine and on the
same inputs, gather's JIT kernel, the plain C loop in several forms and the
memory floor (gather-bench), ONNX Runtime (bench/ort), PyTorch and NumPy
(peers.py), and the compile time of string constants (string_constants.py),
then prints the results as markdown and writes results.json, results.md and
chart.png (into build/bench-results/, or with --update-readme into
bench/results/, plus the summary table into README.md and the details into
docs/Benchmarks.md, between their bench markers).

Usually run through bench/run.sh (installs the peers, builds, runs this).
Each phase runs `--rounds` times, the phases interleaved (A B C A B C); inside
gather-bench, the implementations are interleaved per round too. A time is
the median over all rounds; a ratio between two implementations timed by
gather-bench (ours, C, floor) is the median of the per-round ratios, others
the ratio of the medians. See docs/Benchmarks.md.
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Targets: ours / peer at the same thread count (✓ when at most this).
TARGETS = {"c": 0.9, "torch": 0.8, "ort": 0.8}
# ours / the memory floor at FLOOR_THREADS threads: every workload within
# FLOOR_TARGET × the floor, those named in FLOOR_TARGETS within theirs.
FLOOR_THREADS = 1
FLOOR_TARGET = 3.0
FLOOR_TARGETS = {"e": 1.3}
COMPILE_TARGET_MS = 150
PYTHON_OVERHEAD_TARGET_US = 3.0  # a call from Python over the kernel alone
FUSED_TARGET = 1.15  # a gather with a fused consumer ≤ this × the gather alone
# ... and its time over its own memory floor ≤ this × the gather's.
FUSED_FLOOR_TARGET = 1.1
FUSED_IMPLS = ["gather", "gather+mul", "gather+relu", "gather+mul (not fused)",
               "gather+mul by a row", "transpose(gather)*w",
               "transpose(gather)*w, one pass", "gather+mul, both results"]
TRANSPOSED_TARGET = 1.3  # transpose(gather(x)) * w ≤ this × the gather alone
STRINGS_TARGET = (10000, 1.0)  # 10,000 distinct strings: source → result < 1 s

README_MARKERS = ("<!-- bench:begin -->", "<!-- bench:end -->")
DOCS_MARKERS = ("<!-- bench-details:begin -->", "<!-- bench-details:end -->")


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run_json_lines(command, cwd=None, timeout=None):
    result = subprocess.run(command, check=True, cwd=cwd, text=True,
                            stdout=subprocess.PIPE, timeout=timeout)
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def run_gather_bench(binary, workloads_path, only, threads, rounds, batch_ms):
    command = [binary, f"--workloads={workloads_path}", f"--rounds={rounds}",
               f"--batch-ms={batch_ms}", "--thread-counts=" + ",".join(map(str, threads))]
    if only:
        command.append("--only=" + ",".join(only))
    return without_errors(run_json_lines(command))


def without_errors(records):
    """The records of a gather-bench run; exits with its errors if any."""
    errors = [r for r in records if r["kind"] == "error"]
    if errors:
        raise SystemExit("gather-bench: " + "; ".join(
            f"{e['impl']}/{e['workload']}/t{e['threads']}: {e['message']}" for e in errors))
    return records


def run_fused_bench(binary, threads, rounds, batch_ms):
    """gather-bench --fused: the gather of [512, 1024] f32 alone and with
    x * w and relu fused into it by linalg-fuse-elementwise-ops."""
    command = [binary, "--fused", f"--rounds={rounds}", f"--batch-ms={batch_ms}",
               "--thread-counts=" + ",".join(map(str, threads))]
    return without_errors(run_json_lines(command))


def collect_fused(fused_runs, threads):
    """Per fused kernel and thread count: the median time over every round
    of every run, the median of the per-round ratios to the gather alone
    (same run, same round), and the median of the per-round ratios to the
    kernel's own memory floor: the gather's floor timed in the same round,
    scaled by the bytes the kernel moves (its inputs and outputs) over the
    bytes the floor moves."""
    samples, ratios, floors, bytes_of = {}, {}, {}, {}
    for run in fused_runs:
        times = {(r["impl"], r["threads"]): r["samples"]
                 for r in run if r["kind"] == "time"}
        sizes = {r["impl"]: (r["bytes"], r["floor_bytes"])
                 for r in run if r["kind"] == "fused_bytes"}
        for (impl, t), values in times.items():
            samples.setdefault(f"{impl}/t{t}", []).extend(values)
            alone = times.get(("gather", t))
            if alone and impl != "floor":
                ratios.setdefault(f"{impl}/t{t}", []).extend(
                    a / b for a, b in zip(values, alone))
            floor = times.get(("floor", t))
            if floor and impl in sizes:
                kernel_bytes, floor_bytes = sizes[impl]
                bytes_of[impl] = kernel_bytes
                scale = kernel_bytes / floor_bytes
                floors.setdefault(f"{impl}/t{t}", []).extend(
                    a / (b * scale) for a, b in zip(values, floor))
    return {"times": {k: median(v) for k, v in samples.items()},
            "ratios": {k: median(v) for k, v in ratios.items()},
            "floor_ratios": {k: median(v) for k, v in floors.items()},
            "bytes": bytes_of}


def fused_table(results):
    """The fused rows: each kernel's median time, its ratio to the gather
    alone and to its own memory floor per thread count (✓ when a fused
    consumer is ≤ FUSED_TARGET × the gather, and its floor ratio ≤
    FUSED_FLOOR_TARGET × the gather's)."""
    fused = results.get("fused")
    if not fused:
        return ""
    threads = results["threads"]
    floor_ratios = fused.get("floor_ratios", {})
    lines = ["Gather with an elementwise consumer fused into it by upstream "
             "`linalg-fuse-elementwise-ops` (after `convert-onnx-to-linalg`), "
             "[512, 1024] f32, axis 1, int64 indices (gather-bench --fused; ratios: "
             "medians of the per-round ratios to the gather alone, and to the "
             "kernel's own memory floor, the gather's floor scaled by the bytes "
             "of the kernel's inputs and outputs; targets for the fused rows: "
             f"≤ {FUSED_TARGET} × the gather, / floor ≤ {FUSED_FLOOR_TARGET} × "
             f"the gather's / floor; transpose(gather)*w ≤ {TRANSPOSED_TARGET} × "
             "the gather):", "",
             "| kernel | MiB | " + " | ".join(
                 f"{t} thread{'s' if t > 1 else ''} | / gather | / floor"
                 for t in threads) + " |",
             "|---|---:|" + "---:|---:|---:|" * len(threads)]
    for impl in FUSED_IMPLS:
        cells = []
        for t in threads:
            key = f"{impl}/t{t}"
            fused_row = impl in ("gather+mul", "gather+relu",
                                "gather+mul, both results")
            target = (FUSED_TARGET if fused_row else
                      TRANSPOSED_TARGET if impl == "transpose(gather)*w" else None)
            floor = floor_ratios.get(key)
            gather_floor = floor_ratios.get(f"gather/t{t}")
            floor_target = (FUSED_FLOOR_TARGET * gather_floor
                            if fused_row and gather_floor else None)
            cells += [fmt_time(fused["times"].get(key)),
                      fmt_ratio(fused["ratios"].get(key), target)
                      if impl != "gather" else "1",
                      fmt_ratio(floor, floor_target)]
        size = fused.get("bytes", {}).get(impl)
        lines.append(f"| {impl} | {size / 2**20:.1f} | " if size else f"| {impl} | – | ")
        lines[-1] += " | ".join(cells) + " |"
    return "\n".join(lines) + "\n"


# --- String constants --------------------------------------------------------

def time_string_constants(build, counts, repeat):
    """bench/string_constants.py: the wall time of gather-runner (parse,
    lower, JIT, run, print; result checked) on a constant of N distinct
    strings, for N = 1 (the fixed cost) and each of `counts`."""
    result = subprocess.run(
        ["/usr/bin/python3", os.path.join(HERE, "string_constants.py"), "--build", build,
         "--json", "--repeat", str(repeat), "--strings"] + [str(n) for n in [1] + counts],
        check=True, text=True, stdout=subprocess.PIPE)
    return json.loads(result.stdout)


# --- The machine --------------------------------------------------------------

VECTOR_FLAG = re.compile(r"^(sse4_[12]|avx\w*|fma|f16c|amx\w*|asimd\w*|sve\w*|sme\w*)$")


def run_python_call(build, repetitions):
    return run_json_lines(["/usr/bin/python3", os.path.join(HERE, "python_call.py"),
                           "--build", build, "--repetitions", str(repetitions)])


def python_table(records, loads):
    """The cost of a call from Python (python_call.py's records), one run."""
    model, _ = cpu_info()
    times = {}
    missing = {}
    for r in records:
        if "missing" in r:
            missing[r["peer"]] = r["missing"]
        else:
            times.setdefault(r["peer"], []).extend(r["samples"])
    kernel = median(times.get("gather kernel (C)", []))
    lines = [
        f"**{model}**, {os.cpu_count()} logical CPUs; one thread; a 2×2 "
        "GatherElements (axis 1, int64 indices); median seconds per call; load "
        "average " + ", ".join(f"{x:.2f}" for x in loads) + ".",
        "",
        "| call | per call | over the kernel alone |",
        "|---|---:|---:|",
    ]
    for peer, samples in times.items():
        t = median(samples)
        over = "–"
        if kernel is not None and peer != "gather kernel (C)":
            over = fmt_time(t - kernel)
            if peer == "gather (Python)":
                over += " ✓" if (t - kernel) * 1e6 <= PYTHON_OVERHEAD_TARGET_US else " ✗"
        lines.append(f"| {peer} | {fmt_time(t)} | {over} |")
    for peer, why in missing.items():
        lines.append(f"| {peer} | – ({why}) | – |")
    lines.append("")
    lines.append(f"Target: gather from Python ≤ {PYTHON_OVERHEAD_TARGET_US:g} µs over "
                 "the kernel alone (✓/✗).")
    return "\n".join(lines) + "\n"


def cpu_info():
    """CPU model and its vector features (from /proc/cpuinfo)."""
    model, flags = platform.processor() or platform.machine(), []
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key in ("model name", "Model", "cpu model") and model in (
                        platform.machine(), platform.processor(), ""):
                    model = value.strip()
                elif key in ("flags", "Features") and not flags:
                    flags = [x for x in value.split() if VECTOR_FLAG.match(x)]
    except OSError:
        pass
    return model, flags


# --- Results ------------------------------------------------------------------

def median(values):
    return statistics.median(values) if values else None


def collect(workloads, bench_runs, peer_records):
    """One entry per workload: times per implementation and thread count."""
    results = []
    for w in workloads:
        name = w["name"]
        entry = {"name": name, "title": w["title"], "times": {}, "compile_ms": {},
                 "forms": {}, "per_round": {}, "checksum": None, "floor_bytes": None}
        # gather-bench: samples of every run, and per-round pairs.
        samples, compile_ms = {}, {}
        for run in bench_runs:
            by_key = {}
            for r in run:
                if r.get("workload") != name:
                    continue
                if r["kind"] == "workload":
                    entry["checksum"] = r["checksum"]
                    entry["floor_bytes"] = r["floor_bytes"]
                    entry["dynamic"] = r["dynamic"]
                elif r["kind"] == "time":
                    key = f"{r['impl']}/t{r['threads']}"
                    by_key[key] = r["samples"]
                    samples.setdefault(key, []).extend(r["samples"])
                    if "compile_ms" in r:
                        compile_ms.setdefault(key, []).append(r["compile_ms"])
                    if "form" in r:
                        entry["forms"][key] = r["form"]
            # Per-round ratios ours / other (same run, same round).
            for key, values in by_key.items():
                if key.startswith("ours/"):
                    continue
                threads = key.split("/")[1]
                ours = by_key.get(f"ours/{threads}")
                if ours:
                    entry["per_round"].setdefault(key, []).extend(
                        o / v for o, v in zip(ours, values) if v > 0)
        for key, values in samples.items():
            entry["times"][key] = median(values)
        for key, values in compile_ms.items():
            entry["compile_ms"][key] = median(values)
        # The peers.
        peer_samples = {}
        for r in peer_records:
            if r["workload"] != name:
                continue
            peer_samples.setdefault(f"{r['peer']}/t{r['threads']}", []).append(r)
            if entry["checksum"] is not None and abs(
                    r["checksum"] - entry["checksum"]) > 1e-9 * max(1.0, abs(entry["checksum"])):
                entry.setdefault("checksum_mismatches", []).append(
                    f"{r['peer']}/t{r['threads']}: {r['checksum']} != {entry['checksum']}")
        for key, records in peer_samples.items():
            entry["times"][key] = median([r["seconds"] for r in records])
            kernel = [r["kernel_seconds"] for r in records if r.get("kernel_seconds")]
            if kernel:
                entry["times"]["ort_kernel/" + key.split("/")[1]] = median(kernel)
        results.append(entry)
    return results


def best_c(entry, threads):
    """(seconds, form) of the fastest C form at `threads`."""
    forms = [(t, key.split("/")[0]) for key, t in entry["times"].items()
             if key.startswith("c_") and key.endswith(f"/t{threads}")]
    return min(forms) if forms else (None, None)


def ratio(entry, threads, other_key):
    """ours / other at `threads`: the median per-round ratio when both come
    from gather-bench, else the ratio of the medians."""
    per_round = entry["per_round"].get(f"{other_key}/t{threads}")
    if per_round:
        return median(per_round)
    ours = entry["times"].get(f"ours/t{threads}")
    other = entry["times"].get(f"{other_key}/t{threads}")
    return ours / other if ours and other else None


def fmt_time(seconds):
    if seconds is None:
        return "–"
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    return f"{seconds * 1e3:.2f} ms"


def fmt_ratio(value, target=None):
    if value is None:
        return "–"
    if target is None:
        return f"{value:.2f}"
    return f"{value:.2f} {'✓' if value <= target else '✗'}"


def header(results):
    m = results["machine"]
    threads = " and ".join(map(str, results["threads"]))
    lines = [
        f"**{m['cpu']}** (LLVM host CPU `{m['llvm_host_cpu']}`, {m['logical_cpus']} "
        f"logical CPUs); vector features: {' '.join(m['vector_features']) or 'none'}.",
        f"Threads {threads}; {results['date']}; {results['rounds']} rounds × "
        f"{results['bench_rounds']} interleaved batches (gather-bench), medians; "
        f"load average at the phases: "
        + ", ".join(f"{x:.2f}" for x in m["load_average_at_phases"]) + ".",
    ]
    return lines


def summary_table(results):
    """The README table: ours against the best C form, the floor and the peers."""
    lines = header(results) + [""]
    lines.append("| workload | threads | ours | compile | best C (form) | floor | torch "
                 "| ORT kernel | ours/C | ours/torch | ours/ORT | ours/floor | our form |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for w in results["workloads"]:
        t = w["times"]
        for threads in results["threads"]:
            ours = t.get(f"ours/t{threads}")
            c_time, c_form = best_c(w, threads)
            compile_ms = w["compile_ms"].get(f"ours/t{threads}")
            floor_target = (FLOOR_TARGETS.get(w["name"], FLOOR_TARGET)
                            if threads == FLOOR_THREADS else None)
            title = f"{w['name']}: {w['title']}" if threads == results["threads"][0] else ""
            lines.append(
                f"| {title} | {threads} | {fmt_time(ours)} | "
                f"{f'{compile_ms:.0f} ms' if compile_ms is not None else '–'} | "
                f"{fmt_time(c_time)} ({c_form or '–'}) | {fmt_time(t.get(f'floor/t{threads}'))} | "
                f"{fmt_time(t.get(f'torch/t{threads}'))} | "
                f"{fmt_time(t.get(f'ort_kernel/t{threads}'))} | "
                f"{fmt_ratio(ratio(w, threads, c_form) if c_form else None, TARGETS['c'])} | "
                f"{fmt_ratio(ratio(w, threads, 'torch'), TARGETS['torch'])} | "
                f"{fmt_ratio(ratio(w, threads, 'ort_kernel'), TARGETS['ort'])} | "
                f"{fmt_ratio(ratio(w, threads, 'floor'), floor_target)} | "
                f"{w['forms'].get(f'ours/t{threads}', '–')} |")
    lines.append("")
    lines += footer(results)
    return "\n".join(lines) + "\n"


def footer(results):
    lines = []
    h = next((w for w in results["workloads"] if w["name"] == "h"), None)
    if h and h["times"].get("ours/t1") is not None:
        lines.append(f"Per-call overhead (workload h, [1,1], 1 thread): "
                     f"{h['times']['ours/t1'] * 1e9:.0f} ns.")
    compile_times = [v for w in results["workloads"] for v in w["compile_ms"].values()]
    if compile_times:
        worst = max(compile_times)
        lines.append(f"Compile time (kernel source → callable): {min(compile_times):.0f}–"
                     f"{worst:.0f} ms per kernel ({'✓' if worst <= COMPILE_TARGET_MS else '✗'} "
                     f"≤ {COMPILE_TARGET_MS} ms).")
    strings = results.get("strings") or []
    if strings:
        parts = ", ".join(f"{r['strings']}: {r['seconds']:.2f} s" for r in strings)
        target = next((r for r in strings if r["strings"] == STRINGS_TARGET[0]), None)
        mark = ""
        if target:
            ok = target["seconds"] < STRINGS_TARGET[1]
            mark = f" ({'✓' if ok else '✗'} {STRINGS_TARGET[0]} strings < {STRINGS_TARGET[1]:.0f} s)"
        lines.append(f"String constant of N distinct strings gathered, source → printed "
                     f"result (bench/string_constants.py: gather-runner, whole process, best "
                     f"of {results['strings_repeat']}), N: {parts}{mark}.")
    lines.append("")
    lines.append(f"Ratios: ✓ when ours ≤ {TARGETS['c']} × the best C form, ≤ "
                 f"{TARGETS['torch']} × torch.gather, ≤ {TARGETS['ort']} × ONNX Runtime's "
                 f"kernel; at {FLOOR_THREADS} thread ≤ {FLOOR_TARGET} × the memory floor"
                 + "".join(f" ({name}: ≤ {target})" for name, target in FLOOR_TARGETS.items())
                 + ". Details: docs/Benchmarks.md.")
    mismatches = [m for w in results["workloads"] for m in w.get("checksum_mismatches", [])]
    if mismatches:
        lines.append("")
        lines.append("**Checksum mismatches:** " + "; ".join(mismatches))
    return lines


def details(results):
    """docs/Benchmarks.md: every C form, the floor's bandwidth, ORT's wall
    time, NumPy, and the string constants."""
    forms = results["machine"]["c_forms"]
    lines = header(results) + [""]
    lines.append("C forms (`bench/c_loop.c`; the OpenMP ones at every thread count, "
                 "the others at 1 thread):")
    lines.append("")
    for f in forms:
        lines.append(f"- `{f['name']}`: `{f['flags']}`")
    lines.append("")
    names = [f["name"] for f in forms]
    lines.append("| workload | threads | ours | " + " | ".join(names) +
                 " | floor | floor GB/s | torch | ORT kernel (run) | numpy |")
    lines.append("|---|---|---|" + "---|" * len(names) + "---|---|---|---|---|")
    for w in results["workloads"]:
        t = w["times"]
        for threads in results["threads"]:
            floor = t.get(f"floor/t{threads}")
            gbs = (f"{w['floor_bytes'] / floor / 1e9:.1f}" if floor and w["floor_bytes"]
                   else "–")
            _, c_form = best_c(w, threads)
            cells = []
            for n in names:
                cell = fmt_time(t.get(f"{n}/t{threads}"))
                cells.append(f"**{cell}**" if n == c_form else cell)
            title = w["name"] if threads == results["threads"][0] else ""
            numpy = fmt_time(t.get("numpy/t1")) if threads == 1 else ""
            lines.append(
                f"| {title} | {threads} | {fmt_time(t.get(f'ours/t{threads}'))} | "
                + " | ".join(cells) +
                f" | {fmt_time(floor)} | {gbs} | {fmt_time(t.get(f'torch/t{threads}'))} | "
                f"{fmt_time(t.get(f'ort_kernel/t{threads}'))} "
                f"({fmt_time(t.get(f'ort/t{threads}'))}) | {numpy} |")
    lines.append("")
    lines.append("Bold: the fastest C form. Floor GB/s: bytes the floor moves (index values, "
                 "the 64-byte data lines the indices touch, the output) per second.")
    return "\n".join(lines) + "\n"


def chart(results, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib missing (python3-matplotlib): no chart")
        return
    peers = [("c_best", "best C form"), ("floor", "memory floor"),
             ("torch", "torch.gather"), ("ort_kernel", "ORT kernel")]
    names = [w["name"] for w in results["workloads"]]
    threads_list = results["threads"]
    fig, axes = plt.subplots(1, len(threads_list), figsize=(7 * len(threads_list), 4.8),
                             sharey=True, squeeze=False)
    width = 0.2
    for ax, threads in zip(axes[0], threads_list):
        for i, (peer, label) in enumerate(peers):
            values = []
            for w in results["workloads"]:
                ours = w["times"].get(f"ours/t{threads}")
                other = (best_c(w, threads)[0] if peer == "c_best"
                         else w["times"].get(f"{peer}/t{threads}"))
                values.append(other / ours if ours and other else 0)
            xs = [x + (i - 1.5) * width for x in range(len(names))]
            ax.bar(xs, values, width, label=label)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=30)
        ax.set_title(f"{threads} thread{'s' if threads > 1 else ''}: time / gather's time "
                     "(above 1: slower than ours)")
        ax.set_xlabel("workload")
    axes[0][0].set_ylabel("time relative to gather (log)")
    axes[0][0].legend(fontsize=8)
    fig.suptitle(f"{results['machine']['cpu']} ({results['machine']['llvm_host_cpu']}), "
                 f"{results['date']}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def replace_between(path, markers, text):
    with open(path) as f:
        content = f.read()
    begin, end = markers
    if begin not in content or end not in content:
        log(f"{path} has no {begin} ... {end} markers: not updated")
        return
    head, rest = content.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + text + end + tail)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--workloads", default=os.path.join(HERE, "workloads.json"))
    parser.add_argument("--out", help="results directory (default: build/bench-results, "
                        "or bench/results with --update-readme)")
    parser.add_argument("--only", default="", help="workloads, e.g. a,b,h")
    parser.add_argument("--rounds", type=int, default=2,
                        help="rounds of the phases (gather-bench, torch + numpy, ORT)")
    parser.add_argument("--bench-rounds", type=int, default=7,
                        help="interleaved rounds inside each gather-bench run")
    parser.add_argument("--batch-ms", type=float, default=20,
                        help="least duration of one timed batch (gather-bench)")
    parser.add_argument("--repetitions", type=int, default=10,
                        help="timed batches per peer measurement (torch, numpy, ORT)")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--strings", default="1000,2000,8000,10000",
                        help="string-constant sizes to time ('' for none)")
    parser.add_argument("--strings-repeat", type=int, default=3,
                        help="runs per string-constant size (the best is reported)")
    parser.add_argument("--no-peers", action="store_true",
                        help="time gather-bench (ours, C, floor) and strings only")
    parser.add_argument("--fused-only", action="store_true",
                        help="time only the fused consumers (gather-bench --fused)")
    parser.add_argument("--python", action="store_true",
                        help="time only the cost of a call from Python (python_call.py)")
    parser.add_argument("--update-readme", action="store_true")
    args = parser.parse_args()

    if args.python:
        if args.update_readme:
            raise SystemExit("--python times only the Python call: not for --update-readme")
        loads, records = [], []
        for round_index in range(args.rounds):
            loads.append(loadavg())
            log(f"round {round_index + 1}/{args.rounds}: the call from Python "
                f"(load average {loads[-1]:.2f})")
            records += run_python_call(args.build, args.repetitions)
        table = python_table(records, loads)
        out_dir = args.out or os.path.join(args.build, "bench-results")
        os.makedirs(out_dir, exist_ok=True)
        with open(os.path.join(out_dir, "python.json"), "w") as f:
            json.dump(records, f, indent=1)
        with open(os.path.join(out_dir, "python.md"), "w") as f:
            f.write(table)
        log(f"results written to {out_dir}")
        print(table)
        return 0

    if args.fused_only and args.update_readme:
        raise SystemExit("--fused-only times only the fused rows: not for --update-readme")
    if args.rounds < 1 or args.bench_rounds < 1:
        raise SystemExit("--rounds and --bench-rounds must be at least 1")
    workloads_path = os.path.abspath(args.workloads)
    workloads = json.load(open(workloads_path))["workloads"]
    only = [w for w in args.only.split(",") if w]
    unknown = set(only) - {w["name"] for w in workloads}
    if unknown:
        raise SystemExit(f"no workload {', '.join(sorted(unknown))} in {workloads_path}")
    if only:
        workloads = [w for w in workloads if w["name"] in only]
    threads = [int(t) for t in args.threads.split(",") if t]
    gather_bench = os.path.join(args.build, "bin", "gather-bench")
    runner = os.path.join(args.build, "bin", "gather-runner")
    for tool in (gather_bench, runner):
        if not os.path.exists(tool):
            raise SystemExit(f"{tool} is missing: build first (bench/run.sh does)")

    phases = [("ours + C forms + floor", "bench", lambda: run_gather_bench(
        gather_bench, workloads_path, only, threads, args.bench_rounds, args.batch_ms))]
    fused_phase = ("fused consumers", "fused", lambda: run_fused_bench(
        gather_bench, threads, args.bench_rounds, args.batch_ms))
    if args.fused_only:
        phases = [fused_phase]
        workloads = []
    elif not only:
        phases.append(fused_phase)
    if not args.no_peers and not args.fused_only:
        models = os.path.join(args.build, "bench-models")
        subprocess.run(["/usr/bin/python3", os.path.join(HERE, "make_models.py"),
                        workloads_path, models], check=True)
        phases += [
            ("torch + numpy", "peers", lambda: run_json_lines(
                ["/usr/bin/python3", os.path.join(HERE, "peers.py"),
                 "--workloads", workloads_path, "--only", ",".join(only),
                 "--threads", ",".join(map(str, threads)),
                 "--repetitions", str(args.repetitions)])),
            ("onnxruntime", "peers", lambda: run_json_lines(
                ["node", "--expose-gc", "bench.mjs", "--workloads", workloads_path,
                 "--models", models, "--only", ",".join(only),
                 "--threads", ",".join(map(str, threads)),
                 "--repetitions", str(args.repetitions)],
                cwd=os.path.join(HERE, "ort"))),
        ]
    bench_runs, fused_runs, peer_records, machine_record, loads = [], [], [], None, []
    for round_index in range(args.rounds):
        for name, kind, phase in phases:
            loads.append(loadavg())
            log(f"round {round_index + 1}/{args.rounds}: {name} "
                f"(load average {loads[-1]:.2f})")
            records = phase()
            if kind in ("bench", "fused"):
                machine_record = next(r for r in records if r["kind"] == "machine")
                (bench_runs if kind == "bench" else fused_runs).append(records)
            else:
                peer_records += records
    counts = [int(n) for n in args.strings.split(",") if n and not args.fused_only]
    strings = []
    if counts:
        loads.append(loadavg())
        log(f"string constants (load average {loads[-1]:.2f})")
        strings = time_string_constants(args.build, counts, args.strings_repeat)

    model, vector_features = cpu_info()
    results = {
        "machine": {"cpu": model, "vector_features": vector_features,
                    "llvm_host_cpu": machine_record["llvm_host_cpu"],
                    "llvm_host_features": machine_record["llvm_host_features"],
                    "c_forms": machine_record["c_forms"],
                    "logical_cpus": os.cpu_count(), "load_average_at_phases": loads},
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "threads": threads, "rounds": args.rounds, "bench_rounds": args.bench_rounds,
        "repetitions": args.repetitions,
        "workloads": collect(workloads, bench_runs, peer_records),
        "strings": strings, "strings_repeat": args.strings_repeat,
        "fused": collect_fused(fused_runs, threads) if fused_runs else None,
    }

    # The committed results (README, docs) change only with --update-readme.
    out_dir = args.out or (os.path.join(HERE, "results") if args.update_readme
                           else os.path.join(args.build, "bench-results"))
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    if args.fused_only:
        table = "\n".join(header(results)) + "\n\n" + fused_table(results)
        with open(os.path.join(out_dir, "fused.md"), "w") as f:
            f.write(table)
        log(f"results written to {out_dir}")
        print(table)
        return 0
    table = summary_table(results)
    more = details(results) + "\n" + fused_table(results)
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write(table + "\n" + more)
    chart(results, os.path.join(out_dir, "chart.png"))
    log(f"results written to {out_dir}")
    print(table)
    print(more)
    if args.update_readme:
        replace_between(os.path.join(ROOT, "README.md"), README_MARKERS, table)
        replace_between(os.path.join(ROOT, "docs", "Benchmarks.md"), DOCS_MARKERS, more)
    mismatches = [m for w in results["workloads"] for m in w.get("checksum_mismatches", [])]
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
