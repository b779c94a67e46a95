#!/usr/bin/env python3
"""The GPU benchmark of gather's GPU check (docs/GPU.md, "Checking on a
GPU"); made by utils/gpu-check.sh, run by bench/gpu.sh and run.sh.

  bench.py kernels WORKLOADS.json OUT-host.mlir OUT-device.mlir OUT.h
      For each workload: a kernel of its shapes (every size `?` for the
      dynamic ones), compiled once with host memory and once with device
      memory, and the C table bench.cpp is compiled with.

  bench.py run --bench BIN --workloads WORKLOADS.json [--out FILE]
      [--only NAME,...]
      Runs BIN (ms per whole call, host and device memory, each result
      checked bit for bit in C++, and our kernel's GPU time per call: the
      runtime's timing events), then times torch.gather on CUDA (CUDA
      events, kernel time per call) on the same inputs and a
      device-to-device copy that moves the floor's bytes (the index values,
      the touched 32-byte sectors of data and the output: it reads half and
      writes half), and prints a table
      with the GPU's name; also written to FILE. Without torch or CUDA it
      prints our times alone.
"""

import argparse
import json
import subprocess
import sys

# The workloads the GPU check times (bench/workloads.json names).
NAMES = ["a", "a_dyn", "b", "c_axis2", "c_rows16", "c_axis0", "c_i32", "d",
         "e", "f", "g", "h"]


def workloads(path):
    table = {w["name"]: w for w in json.load(open(path))["workloads"]}
    return [table[name] for name in NAMES if name in table]


def tensor_type(shape, dynamic, element):
    dims = ["?"] * len(shape) if dynamic else shape
    return "tensor<" + "".join(f"{d}x" for d in dims) + element + ">"


def write_kernels(args):
    loads = workloads(args.workloads)
    for path, prefix in ((args.host, "bench_host_"),
                         (args.device, "bench_device_")):
        lines = []
        for w in loads:
            dynamic = w.get("dynamic", False)
            index = "i32" if w["indices_type"] == "int32" else "i64"
            data = tensor_type(w["data"], dynamic, "f32")
            indices = tensor_type(w["indices"], dynamic, index)
            result = tensor_type(w["indices"], dynamic, "f32")
            lines += [
                f"func.func @{prefix}{w['name']}(%data: {data}, %indices: "
                f"{indices}) -> {result} attributes {{llvm.emit_c_interface}} {{",
                f"  %out = onnx.GatherElements %data, %indices axis = "
                f"{w['axis']} : {data}, {indices}",
                f"  return %out : {result}", "}", ""]
        open(path, "w").write("\n".join(lines))
    with open(args.header, "w") as f:
        f.write("// The workloads of bench.cpp (utils/gpu-check/bench.py).\n")
        f.write("extern \"C\" {\n")
        for w in loads:
            for mode in ("host", "device"):
                f.write(f"void _mlir_ciface_bench_{mode}_{w['name']}(int64_t *, "
                        "int64_t *, int64_t *);\n")
        f.write("}\n")
        f.write("static const Workload kWorkloads[] = {\n")
        for w in loads:
            def dims(shape):
                return "{" + ", ".join(str(d) for d in shape) + "}"
            f.write(f"  {{\"{w['name']}\", _mlir_ciface_bench_host_{w['name']}, "
                    f"_mlir_ciface_bench_device_{w['name']}, {len(w['data'])}, "
                    f"{dims(w['data'])}, {dims(w['indices'])}, {w['axis']}, "
                    f"{int(w['indices_type'] == 'int32')}, "
                    f"{int(w['negatives'])}}},\n")
        f.write("};\n")
    return 0


def torch_times(w, torch):
    """torch.gather's kernel time (ms, CUDA events, median of the calls) and
    the floor: a device-to-device copy of the bytes the gather must move."""
    device = torch.device("cuda")
    data_shape, shape, axis = w["data"], w["indices"], w["axis"]
    n = 1
    for d in shape:
        n *= d
    m = 1
    for d in data_shape:
        m *= d
    mask = 0xFFFFFFFF

    def hash32(x):
        x = x ^ (x >> 16)
        x = (x * 0x7FEB352D) & mask
        x = x ^ (x >> 15)
        x = (x * 0x846CA68B) & mask
        return x ^ (x >> 16)

    k = torch.arange(m, device=device, dtype=torch.int64)
    data = ((hash32(k ^ 0x9E3779B9) >> 8).to(torch.float32) /
            16777216.0).reshape(data_shape)
    k = torch.arange(n, device=device, dtype=torch.int64)
    size = data_shape[axis]
    index = hash32(k ^ 0x85EBCA6B) % size
    if w["negatives"]:
        index = index - size * (hash32(k ^ 0xC2B2AE35) & 1)
        index = torch.where(index < 0, index + size, index)  # torch rejects <0
    index_type = torch.int32 if w["indices_type"] == "int32" else torch.int64
    index = index.to(index_type).reshape(shape)
    del k

    def timed(call, repeats):
        call()
        torch.cuda.synchronize()
        times = []
        for _ in range(repeats):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            call()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        times.sort()
        return times[len(times) // 2]

    repeats = 20 if n < (1 << 24) else 5
    gather_ms = timed(lambda: torch.gather(data, axis, index), repeats)
    # The floor's bytes: index values, 32-byte sectors of data touched
    # (counted on the unique sectors of the positions read), the output.
    flat = torch.gather(torch.arange(m, device=device).reshape(data_shape),
                        axis, index.to(torch.int64)).reshape(-1)
    sectors = torch.unique(flat // 8).numel()
    floor_bytes = n * index.element_size() + sectors * 32 + n * 4
    # A copy reads and writes its size: half the floor's bytes each way, so
    # that it moves exactly what an ideal gather moves.
    source = torch.empty(max(1, floor_bytes // 8), dtype=torch.float32,
                         device=device)
    target = torch.empty_like(source)
    copy_ms = timed(lambda: target.copy_(source), repeats)
    return gather_ms, copy_ms, floor_bytes


def run(args):
    only = args.only.split(",") if args.only else []
    loads = [w for w in workloads(args.workloads)
             if not only or w["name"] in only]
    ours = {}
    status = 0
    stdout = ""
    for name in only or [None]:
        result = subprocess.run([args.bench] + ([name] if name else []),
                                stdout=subprocess.PIPE, text=True, timeout=900)
        status = status or (0 if result.returncode == 0 else 1)
        stdout += result.stdout
    for line in stdout.splitlines():
        name, mode, ms, calls, check, kernel_ms = line.split()
        ours[(name, mode)] = (float(ms), check, float(kernel_ms))
        if check != "ok":
            status = 1
    try:
        import torch
        have_cuda = torch.cuda.is_available()
    except ImportError:
        torch, have_cuda = None, False
    gpu = torch.cuda.get_device_name(0) if have_cuda else "(no torch/CUDA)"
    out = [f"GPU: {gpu}; torch {torch.__version__ if torch else '-'}",
           "ms per call: ours whole call with host memory (copies in and out) "
           "and with device memory; our kernel and torch.gather's kernel (CUDA "
           "events); the floor: a device-to-device copy of the floor's bytes",
           f"{'workload':10} {'ours host':>10} {'ours dev':>10} {'our kernel':>10} "
           f"{'torch':>10} {'floor':>10} {'dev/torch':>9} {'kern/torch':>10} "
           f"{'kern/floor':>10} {'GB/s kern':>9} {'check':>6}"]
    for w in loads:
        name = w["name"]
        nan = float("nan")
        host, host_check, _ = ours.get((name, "host"), (nan, "none", nan))
        dev, dev_check, kernel = ours.get((name, "device"), (nan, "none", nan))
        if kernel < 0:
            kernel, status = nan, 1
        torch_ms = copy_ms = float("nan")
        floor = 0
        if have_cuda:
            torch_ms, copy_ms, floor = torch_times(w, torch)
        rate = floor / (kernel * 1e6) if floor and kernel > 0 else nan
        check = "ok" if host_check == dev_check == "ok" else "BAD"
        ratio = lambda a, b: a / b if b == b and b > 0 else nan
        out.append(f"{name:10} {host:10.4f} {dev:10.4f} {kernel:10.4f} "
                   f"{torch_ms:10.4f} {copy_ms:10.4f} {ratio(dev, torch_ms):9.2f} "
                   f"{ratio(kernel, torch_ms):10.2f} {ratio(kernel, copy_ms):10.2f} "
                   f"{rate:9.1f} {check:>6}")
    text = "\n".join(out)
    print(text)
    if args.out:
        open(args.out, "w").write(text + "\n")
    return status


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    kernels = commands.add_parser("kernels")
    for name in ("workloads", "host", "device", "header"):
        kernels.add_argument(name)
    run_parser = commands.add_parser("run")
    for flag, required, text in (("--bench", True, "the benchmark program"),
                                 ("--workloads", True, "workloads.json"),
                                 ("--out", False, "where the table goes"),
                                 ("--only", False,
                                  "the workloads, comma-separated")):
        run_parser.add_argument(flag, required=required, help=text)
    args = parser.parse_args()
    return write_kernels(args) if args.command == "kernels" else run(args)


if __name__ == "__main__":
    sys.exit(main())
