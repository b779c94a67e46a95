#!/usr/bin/python3
"""The cost of a call from Python: a 2×2 GatherElements (axis 1, int64
indices, the inputs of workloads.h) called through gather's Python package,
against the same kernel called from C (gather-bench, the kernel alone), and
beside torch.gather from Python (peers.py) and ONNX Runtime's
InferenceSession.run (onnxruntime-node, bench/ort) on the same tensors, all
at one thread, in one run. Prints one JSON object per measurement, like the
other phases of bench/run.py, which runs it with --python.

    /usr/bin/python3 bench/python_call.py --build build [--repetitions 10]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peers  # noqa: E402 (the inputs of workloads.h)

WORKLOAD = {"name": "python_2x2", "title": "[2,2] axis 1, called from Python",
            "data": [2, 2], "indices": [2, 2], "axis": 1,
            "indices_type": "int64", "negatives": False}

MLIR = """
func.func @gather(%data: tensor<2x2xf32>, %indices: tensor<2x2xi64>)
    -> tensor<2x2xf32> {
  %0 = "onnx.GatherElements"(%data, %indices) {axis = 1 : si64}
      : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
"""


def emit(record):
    print(json.dumps(record), flush=True)


def time_python(function, arguments, repetitions, calls):
    """Seconds per call: one sample per batch of `calls` calls."""
    samples = []
    for _ in range(repetitions):
        start = time.perf_counter()
        for _ in range(calls):
            function(*arguments)
        samples.append((time.perf_counter() - start) / calls)
    return samples


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    parser.add_argument("--repetitions", type=int, default=10,
                        help="timed batches per measurement")
    parser.add_argument("--calls", type=int, default=20000,
                        help="calls per timed batch (Python)")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.build, "python"))
    import gather

    data, indices = peers.make_inputs(WORKLOAD)
    expected = np.take_along_axis(data, indices, axis=1)
    work = tempfile.mkdtemp(prefix="gather-python-call-")
    try:
        workloads = os.path.join(work, "workloads.json")
        with open(workloads, "w") as f:
            json.dump({"workloads": [WORKLOAD]}, f)

        # gather from Python: the default pipeline, as a user gets it.
        module = gather.compile(MLIR)
        result = module.gather(data, indices)
        if not np.array_equal(result, expected):
            raise SystemExit(f"python_call: gather returned {result.tolist()}, "
                             f"expected {expected.tolist()}")
        for function, peer in ((module.gather, "gather (Python)"),):
            samples = time_python(function, (data, indices), args.repetitions,
                                  args.calls)
            emit({"kind": "python", "peer": peer, "threads": 1,
                  "samples": samples, "checksum": float(result.sum())})

        # The kernel alone, called from C (gather-bench's "ours").
        bench = subprocess.run(
            [os.path.join(args.build, "bin", "gather-bench"),
             f"--workloads={workloads}", f"--rounds={args.repetitions}",
             "--batch-ms=20", "--thread-counts=1"],
            check=True, text=True, stdout=subprocess.PIPE).stdout
        for line in bench.splitlines():
            record = json.loads(line)
            if record["kind"] == "time" and record["impl"] == "ours":
                emit({"kind": "python", "peer": "gather kernel (C)", "threads": 1,
                      "samples": record["samples"]})
            elif record["kind"] == "error":
                raise SystemExit(f"gather-bench: {record['message']}")

        # torch.gather from Python, if Debian's python3-torch is there.
        try:
            import torch  # noqa: F401
            have_torch = True
        except ImportError:
            have_torch = False
            emit({"kind": "python", "peer": "torch.gather (Python)",
                  "missing": "python3-torch is not installed (bench/run.sh installs it)"})
        if have_torch:
            out = subprocess.run(
                ["/usr/bin/python3", os.path.join(HERE, "peers.py"),
                 "--workloads", workloads, "--threads", "1",
                 "--repetitions", str(args.repetitions)],
                check=True, text=True, stdout=subprocess.PIPE).stdout
            for line in out.splitlines():
                record = json.loads(line)
                if record.get("peer") == "torch":
                    emit({"kind": "python", "peer": "torch.gather (Python)",
                          "threads": 1, "samples": [record["seconds"]],
                          "checksum": record["checksum"]})

        # ONNX Runtime's InferenceSession.run, from onnxruntime-node.
        ort = os.path.join(HERE, "ort")
        if shutil.which("node") and os.path.isdir(os.path.join(ort, "node_modules")):
            models = os.path.join(work, "models")
            subprocess.run(["/usr/bin/python3", os.path.join(HERE, "make_models.py"),
                            workloads, models], check=True, stdout=subprocess.DEVNULL)
            out = subprocess.run(
                ["node", "--expose-gc", "bench.mjs", "--workloads", workloads,
                 "--models", models, "--threads", "1",
                 "--repetitions", str(args.repetitions)],
                check=True, text=True, stdout=subprocess.PIPE, cwd=ort).stdout
            for line in out.splitlines():
                record = json.loads(line)
                emit({"kind": "python", "peer": "ORT InferenceSession.run (node)",
                      "threads": 1, "samples": [record["seconds"]],
                      "checksum": record["checksum"]})
        else:
            emit({"kind": "python", "peer": "ORT InferenceSession.run (node)",
                  "missing": "onnxruntime-node is not installed (bench/run.sh installs it)"})
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
