#!/usr/bin/python3
"""Runs the gathers of whole ONNX models alone and checks them against numpy.

For each model (imported with gather-translate --import-onnx): the gathers
are outlined (gather-opt --onnx-outline-gathers=emit=kernels), a @main is
added that calls each kernel on seeded random inputs, and gather-runner
JIT-runs it. numpy is the host: it computes the rest of the graph (TopK,
ArgMax + Unsqueeze, the Constant node's value; ReduceSum after the gather),
the kernels' operands from it, and compares every printed element of each
kernel's result with numpy's take_along_axis, bit for bit, and the model's
output (the host's rest applied to the kernel's result) with the whole
model computed by numpy.

Models (by graph name):
  topk_gather                TopK -> GatherElements
  argmax_unsqueeze_gather    ArgMax -> Unsqueeze -> GatherElements -> Identity
  constant_gather_reducesum  Constant -> GatherElements -> ReduceSum

Usage: outlined_gathers.py --translate gather-translate --opt gather-opt
                           --runner gather-runner --work DIR --seed S
                           --trials N [--corrupt | --out-of-range]
                           MODEL.onnx...
Prints `<graph>: <N> trials, <M> elements, all bit-exact` per model or the
mismatches (and exits with status 1). --corrupt flips one expected element
(the comparison must then fail). --out-of-range puts an index outside the
axis into the last trial and prints gather-runner's exit status and error.
"""

import argparse
import json
import os
import re
import subprocess
import sys

import numpy as np

TYPES = {"f32": np.float32, "i64": np.int64}


def run(command, stdin=None):
    done = subprocess.run(command, input=stdin, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def tensor_type(array):
    element = {np.float32: "f32", np.int64: "i64"}[array.dtype.type]
    return "tensor<" + "x".join(str(d) for d in array.shape) + "x" + element + ">"


def literal(array):
    if array.dtype == np.float32:
        # The double of a float32 value reads back as that float32.
        return json.dumps(array.astype(np.float64).tolist())
    return json.dumps(array.tolist())


def constant_of(graph, node):
    """The value of the onnx.Constant of node `node` in the imported graph."""
    match = re.search(r'onnx\.Constant \{onnx_node_name = "' + node +
                      r'"\} dense<(.*)> : tensor<([0-9x]+)x(\w+)>', graph)
    if not match:
        sys.exit(f"no onnx.Constant of node '{node}' in the imported graph")
    shape = [int(d) for d in match.group(2).split("x")]
    return np.array(json.loads(match.group(1)),
                    dtype=TYPES[match.group(3)]).reshape(shape)


def gather_elements(data, indices, axis):
    """ONNX GatherElements: negative indices wrap; indices may be smaller
    than data on the other dimensions (numpy's take_along_axis needs equal
    ones)."""
    size = data.shape[axis]
    window = tuple(slice(None) if d == axis else slice(0, n)
                   for d, n in enumerate(indices.shape))
    return np.take_along_axis(data[window],
                              np.where(indices < 0, indices + size, indices),
                              axis=axis)


def topk_gather(rng, graph):
    """-> (kernel operands, kernel result, host's rest, whole model)."""
    x = rng.standard_normal((2, 4)).astype(np.float32)
    data = rng.standard_normal((2, 4)).astype(np.float32)
    # TopK, largest, k = 2: a stable sort keeps the lower index of a tie.
    positions = np.argsort(-x, axis=1, kind="stable")[:, :2].astype(np.int64)
    model = np.take_along_axis(data, positions, axis=1)
    return [data, positions], lambda y: y, model


def argmax_unsqueeze_gather(rng, graph):
    x = rng.standard_normal((3, 4)).astype(np.float32)
    best2d = np.expand_dims(np.argmax(x, axis=1).astype(np.int64), 1)
    model = np.max(x, axis=1, keepdims=True)
    return [x, best2d], lambda y: y, model


def constant_gather_reducesum(rng, graph):
    data = rng.standard_normal((3, 4)).astype(np.float32)
    indices = constant_of(graph, "the_indices")
    model = gather_elements(data, indices, 1).sum(axis=1)
    return [data, indices], lambda y: y.sum(axis=1), model


MODELS = {f.__name__: f for f in
          (topk_gather, argmax_unsqueeze_gather, constant_gather_reducesum)}


def parse_result(text):
    """`tensor<2x2xf32> = [[...]]` -> numpy array."""
    match = re.match(r"tensor<([0-9x]+)x(\w+)> = (.*)", text)
    shape = [int(d) for d in match.group(1).split("x")]
    values = json.loads(match.group(3))
    return np.array(values, dtype=TYPES[match.group(2)]).reshape(shape)


def check_model(path, args, rng):
    # With locations: a run-time error names the model's node.
    graph = run([args.translate, "--import-onnx", path, "--mlir-print-debuginfo"])
    name = re.search(r'onnx\.graph_name = "(\w+)"', graph).group(1)
    kernels = run([args.opt, "--onnx-outline-gathers=emit=kernels",
                   "--mlir-print-debuginfo"], graph)
    # The kernel of the model's one gather, and its signature.
    signatures = re.findall(r"func\.func @(\w+)\((.*?)\) -> (tensor<[^>]*>)",
                            kernels)
    if len(signatures) != 1:
        sys.exit(f"{name}: expected one kernel, got {signatures}")
    kernel, _, result_type = signatures[0]

    trials = [MODELS[name](rng, graph) for _ in range(args.trials)]
    if args.out_of_range:
        # The last trial's first index one past the end of the axis.
        data, indices = trials[-1][0]
        indices.flat[0] = data.shape[1]
    body, results = [], []
    for t, (operands, _, _) in enumerate(trials):
        names = []
        for o, operand in enumerate(operands):
            names.append(f"%a{t}_{o}")
            body.append(f"    {names[-1]} = arith.constant dense<{literal(operand)}>"
                        f" : {tensor_type(operand)}")
        types = ", ".join(tensor_type(o) for o in operands)
        body.append(f"    %r{t} = func.call @{kernel}({', '.join(names)})"
                    f" : ({types}) -> {result_type}")
        results.append(f"%r{t}")
    main = ("  func.func @main() -> (" + ", ".join([result_type] * len(trials)) +
            ") {\n" + "\n".join(body) + "\n    return " + ", ".join(results) +
            " : " + ", ".join([result_type] * len(trials)) + "\n  }\n")
    # @main goes at the end of the module (before its closing brace and
    # location).
    end = re.search(r"^\}( loc\(#\w+\))?\s*$", kernels, re.M)
    module = kernels[:end.start()] + main + kernels[end.start():]
    source = os.path.join(args.work, name + ".mlir")
    with open(source, "w") as f:
        f.write(module)
    command = [args.runner, source, "-e", "main", "--entry-point-result=void"]
    if args.out_of_range:
        done = subprocess.run(command, capture_output=True, text=True)
        print(f"{name}: exit status {done.returncode}: {done.stderr.strip()}")
        return done.returncode != 0
    printed = run(command)
    lines = re.findall(r"^result (\d+): (.*)$", printed, re.M)
    if len(lines) != len(trials):
        sys.exit(f"{name}: {len(lines)} results printed, expected "
                 f"{len(trials)}:\n{printed}")

    mismatches, elements = [], 0
    for (t, text), (operands, rest, model) in zip(lines, trials):
        actual = parse_result(text)
        data, indices = operands
        expected = gather_elements(data, indices, 1)
        if args.corrupt and t == "0":
            expected.flat[0] = expected.flat[0] + 1
        elements += expected.size
        if actual.shape != expected.shape or actual.tobytes() != expected.tobytes():
            mismatches.append(f"trial {t}: kernel printed {actual.tolist()}, "
                              f"expected {expected.tolist()}")
        elif rest(actual).tobytes() != model.tobytes():
            mismatches.append(f"trial {t}: model output {rest(actual).tolist()}, "
                              f"expected {model.tolist()}")
    if mismatches:
        print(f"{name}: {len(mismatches)} of {len(trials)} trials differ")
        for m in mismatches:
            print("  " + m)
        return False
    print(f"{name}: {len(trials)} trials, {elements} elements, all bit-exact")
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--translate", required=True)
    parser.add_argument("--opt", required=True)
    parser.add_argument("--runner", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--trials", type=int, default=8)
    parser.add_argument("--corrupt", action="store_true")
    parser.add_argument("--out-of-range", action="store_true")
    parser.add_argument("models", nargs="+")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    ok = all([check_model(path, args, rng) for path in args.models])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
