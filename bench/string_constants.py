#!/usr/bin/python3
"""Compile-and-run time of string constants: for each N, a module holding an
onnx.Constant of N distinct strings, permuted by onnx.GatherElements in a
separate function (result[k] = string (k * 7919) mod N), is run through
gather-runner (source -> JIT -> result printed); the wall time of the whole
process is reported (best of --repeat runs, in seconds). With --constants,
the module instead holds N separate constants of two strings each in one
function, each printed by the runtime.

Prints a markdown table; with --json, a JSON list of
{"strings": N, "seconds": t} (or {"constants": N, ...}) instead; with
--emit-module N, only the module (for tests). Standalone (Python standard
library only); bench/run.py calls it.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_SIZES = [1000, 2000, 8000, 10000]


def string_at(i):
    """The i-th generated string: distinct for every i, of varying length."""
    return f"s{i}_" + "x" * (i % 7)


# A prime: k -> k * STRIDE mod N permutes 0..N-1 unless N is a multiple of it.
STRIDE = 7919


def source_of(k, n):
    """The position in the constant of element k of the gathered result."""
    return k * STRIDE % n


def make_module(n):
    strings = ", ".join(f'"{string_at(i)}"' for i in range(n))
    indices = ", ".join(str(source_of(k, n)) for k in range(n))
    return f"""\
func.func @gather(%d: tensor<{n}x!onnx.string>, %i: tensor<{n}xi64>) -> tensor<{n}x!onnx.string> {{
  %0 = onnx.GatherElements %d, %i : tensor<{n}x!onnx.string>, tensor<{n}xi64>
  return %0 : tensor<{n}x!onnx.string>
}}

func.func @main() -> tensor<{n}x!onnx.string> {{
  %d = onnx.Constant dense<[{strings}]> : tensor<{n}x!onnx.string>
  %i = onnx.Constant dense<[{indices}]> : tensor<{n}xi64>
  %r = call @gather(%d, %i) : (tensor<{n}x!onnx.string>, tensor<{n}xi64>) -> tensor<{n}x!onnx.string>
  return %r : tensor<{n}x!onnx.string>
}}
"""


def separate_strings(k):
    """The two strings of separate constant k: distinct for every k."""
    return [f"c{k}", f"c{k}_" + "x" * (k % 5)]


def make_separate_module(n):
    """N separate two-string constants in one function, each printed."""
    lines = ["func.func private @gatherPrintString(tensor<*x!onnx.string> "
             "{bufferization.access = \"read\"}, i64) "
             "attributes {llvm.emit_c_interface}", "", "func.func @main() {"]
    for k in range(n):
        strings = ", ".join(f'"{s}"' for s in separate_strings(k))
        lines += [
            f"  %c{k} = onnx.Constant dense<[{strings}]> : "
            "tensor<2x!onnx.string>",
            f"  %u{k} = tensor.cast %c{k} : tensor<2x!onnx.string> to "
            "tensor<*x!onnx.string>",
            f"  %k{k} = arith.constant {k} : i64",
            f"  call @gatherPrintString(%u{k}, %k{k}) : "
            "(tensor<*x!onnx.string>, i64) -> ()"]
    lines += ["  return", "}", ""]
    return "\n".join(lines)


def expected_tail(n, separate):
    """The end of the printed output of the module of N."""
    if separate:
        strings = ", ".join(f'"{s}"' for s in separate_strings(n - 1))
        return f"result {n - 1}: tensor<2x!onnx.string> = [{strings}]"
    last = ", ".join(f'"{string_at(source_of(k, n))}"'
                     for k in range(max(n - 2, 0), n))
    return last + "]"


def time_runner(runner, path, n, repeat, separate=False):
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(
            [runner, path, "-e", "main", "--entry-point-result=void"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"gather-runner failed on {n} strings:\n"
                             f"{done.stderr}")
        # Checks that the run really computed the result: its last elements.
        if not done.stdout.rstrip().endswith(expected_tail(n, separate)):
            raise SystemExit(f"gather-runner printed a wrong result for {n} "
                             f"strings:\n{done.stdout[:300]}")
        best = seconds if best is None else min(best, seconds)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="build directory holding bin/gather-runner")
    parser.add_argument("--strings", type=int, nargs="+",
                        default=DEFAULT_SIZES,
                        help="numbers of distinct strings, or of constants "
                             "with --constants (default: %(default)s)")
    parser.add_argument("--constants", action="store_true",
                        help="N separate two-string constants in one function "
                             "instead of one constant of N strings")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per size; the best is reported")
    parser.add_argument("--json", action="store_true",
                        help="print a JSON list instead of a markdown table")
    parser.add_argument("--emit-module", type=int, metavar="N",
                        help="only print the module of N strings")
    args = parser.parse_args()
    make = make_separate_module if args.constants else make_module
    key = "constants" if args.constants else "strings"
    if args.emit_module is not None:
        sys.stdout.write(make(args.emit_module))
        return

    runner = os.path.join(args.build, "bin", "gather-runner")
    if not os.access(runner, os.X_OK):
        raise SystemExit(f"{runner} is missing: build first")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.strings:
            path = os.path.join(tmp, f"{key}_{n}.mlir")
            with open(path, "w") as f:
                f.write(make(n))
            seconds = time_runner(runner, path, n, args.repeat, args.constants)
            results.append({key: n, "seconds": seconds})
            print(f"{n} {key}: {seconds:.3f} s", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(results))
        return
    title = ("separate two-string constants" if args.constants
             else "distinct strings")
    print(f"| {title} | compile + run (s) |")
    print("|---|---|")
    for r in results:
        print(f"| {r[key]} | {r['seconds']:.3f} |")


if __name__ == "__main__":
    main()
