#!/usr/bin/env python3
"""The differential cases of gather's GPU check (docs/GPU.md, "Checking on a
GPU"); made by utils/gpu-check.sh, run by its run.sh.

  cases.py kernels OUT.mlir OUT.json OUT.h --prefix P
      Writes the kernels (one func.func per element type, index type, rank,
      axis and static or dynamic shape; every one with llvm.emit_c_interface),
      the table of them (JSON, for this script on the GPU machine) and the C
      table the case runner (cases.c) is compiled with. The same kernels are
      compiled for the GPU (host and device memory) and for the CPU.

  cases.py run --runner BIN --table T.json [--count N] [--bad N] [--seed S]
      [--work DIR] [--label L] [--wrap COMMAND]
      Makes N random cases over the table's kernels (every element type, i32
      and i64 indices, ranks 1 to 5, negative axes and indices, dynamic
      shapes, empty and size-1 dimensions), runs them all in one process of
      BIN, and compares each result, bit for bit, with numpy's
      take_along_axis (with a pure-Python gather where numpy is missing).
      Then runs --bad cases, each in its own process, whose indices hold
      values out of range: BIN must exit with status 1 and print the
      located messages of the CPU's runtime, exactly. Prints one line per
      failure and a summary; exit status 0 only if every case passed.

Needs only Python 3 (and numpy where it is installed).
"""

import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

try:
    import numpy
except ImportError:  # The reference then is the pure-Python gather below.
    numpy = None

# (MLIR element type, size in bytes). Strings cannot run on the GPU.
ELEMENTS = [
    ("f16", 2), ("bf16", 2), ("f32", 4), ("f64", 8),
    ("i8", 1), ("i16", 2), ("i32", 4), ("i64", 8),
    ("ui8", 1), ("ui16", 2), ("ui32", 4), ("ui64", 8),
    ("i1", 1), ("complex<f32>", 8), ("complex<f64>", 16),
]
INDEX_SIZES = {"i32": 4, "i64": 8}


def kernel_set():
    """Every kernel: (element, index type, rank, axis as written, static
    (data shape, indices shape) or None)."""
    kernels = []
    # Every element type with both index types: rank 2 along the last axis
    # (written -1) and rank 3 along the first.
    for element, _ in ELEMENTS:
        for index in INDEX_SIZES:
            kernels.append((element, index, 2, -1, None))
            kernels.append((element, index, 3, 0, None))
    # Every rank and axis, each axis written positive and negative in turn.
    for element, index in (("f32", "i64"), ("i8", "i32")):
        for rank in range(1, 6):
            for axis in range(rank):
                written = axis - rank if (rank + axis) % 2 else axis
                kernels.append((element, index, rank, written, None))
    # Static shapes (offsets and sizes decided at compile time).
    kernels += [
        ("f32", "i64", 2, 0, ([3, 4], [2, 4])),
        ("f64", "i32", 3, -3, ([5, 1, 3], [2, 1, 3])),
        ("i8", "i64", 1, 0, ([7], [0])),
        ("bf16", "i32", 5, 3, ([2, 3, 1, 5, 2], [2, 3, 1, 4, 2])),
        ("complex<f32>", "i64", 2, 1, ([4, 4], [4, 6])),
        ("ui16", "i64", 2, -2, ([5, 2], [3, 2])),
        ("i1", "i32", 1, -1, ([4], [6])),
        ("f16", "i64", 4, 2, ([1, 2, 3, 4], [1, 2, 8, 4])),
        ("f32", "i32", 2, 1, ([1, 1], [1, 1])),
        ("complex<f64>", "i64", 3, 1, ([2, 3, 2], [2, 5, 2])),
    ]
    return kernels


def tensor_type(shape, rank, element):
    dims = shape if shape is not None else ["?"] * rank
    return "tensor<" + "".join(f"{d}x" for d in dims) + element + ">"


def write_kernels(mlir_path, json_path, header_path, prefix):
    lines = ["// The kernels of gather's GPU check (utils/gpu-check/cases.py).",
             ""]
    table = []
    for number, (element, index, rank, axis, static) in enumerate(kernel_set()):
        name = f"{prefix}{number}"
        data_shape, indices_shape = static if static else (None, None)
        data = tensor_type(data_shape, rank, element)
        indices = tensor_type(indices_shape, rank, index)
        result = tensor_type(indices_shape, rank, element)
        lines.append(f"func.func @{name}(%data: {data}, %indices: {indices}) "
                     f"-> {result} attributes {{llvm.emit_c_interface}} {{")
        # The op's location is this line, column 10 ("  %out = " before it).
        lines.append(f"  %out = onnx.GatherElements %data, %indices axis = "
                     f"{axis} : {data}, {indices}")
        table.append({
            "name": name, "element": element,
            "element_size": dict(ELEMENTS)[element],
            "index": index, "index_size": INDEX_SIZES[index],
            "rank": rank, "axis": axis % rank, "axis_written": axis,
            "data_shape": data_shape, "indices_shape": indices_shape,
            "line": len(lines), "column": 10,
            "file": os.path.basename(mlir_path)})
        lines.append(f"  return %out : {result}")
        lines.append("}")
        lines.append("")
    with open(mlir_path, "w") as f:
        f.write("\n".join(lines))
    with open(json_path, "w") as f:
        json.dump({"kernels": table}, f, indent=1)
    with open(header_path, "w") as f:
        f.write("// The kernels of cases.c (utils/gpu-check/cases.py).\n")
        for k in table:
            f.write(f"void _mlir_ciface_{k['name']}(int64_t *, int64_t *, "
                    f"int64_t *);\n")
        f.write("static const Kernel kKernels[] = {\n")
        for k in table:
            f.write(f"  {{_mlir_ciface_{k['name']}, {k['rank']}, "
                    f"{k['element_size']}, {k['index_size']}}},\n")
        f.write("};\n")


def product(shape):
    count = 1
    for d in shape:
        count *= d
    return count


def random_shapes(rng, kernel, bad):
    """Data and indices shapes for `kernel`: the static ones, or random
    sizes 0 to 6 (indices' off-axis sizes at most data's)."""
    if kernel["data_shape"] is not None:
        return kernel["data_shape"], kernel["indices_shape"]
    rank, axis = kernel["rank"], kernel["axis"]
    limit = max(2, int(4096 ** (1.0 / rank)))
    while True:
        data = [rng.choice([1, 1, 2, 3, rng.randint(1, limit)])
                for _ in range(rank)]
        indices = [rng.randint(0 if not bad else 1, d) for d in data]
        indices[axis] = rng.randint(0 if not bad else 1, limit)
        # Now and then an empty tensor (no launch).
        if not bad and rng.random() < 0.06:
            indices[rng.randrange(rank)] = 0
        if not bad and rng.random() < 0.02:
            data[axis], indices = 0, [0] * rank
        if product(data) * kernel["element_size"] < (1 << 20):
            return data, indices


def random_elements(rng, count, kernel):
    size = kernel["element_size"]
    if kernel["element"] == "i1":
        return bytes(rng.randint(0, 1) for _ in range(count))
    # Any bits: NaNs and infinities included, copied bit for bit.
    return rng.randbytes(count * size)


def random_indices(rng, data_shape, indices_shape, kernel, bad):
    axis_size = data_shape[kernel["axis"]]
    count = product(indices_shape)
    values = [rng.randint(-axis_size, axis_size - 1) if axis_size else 0
              for _ in range(count)]
    bad_positions = []
    if bad and count:
        for _ in range(rng.choice([1, 1, 2, 3, 12])):
            at = rng.randrange(count)
            low = -(2 ** 31) if kernel["index_size"] == 4 else -(2 ** 63)
            high = 2 ** 31 - 1 if kernel["index_size"] == 4 else 2 ** 63 - 1
            values[at] = rng.choice([axis_size, -axis_size - 1,
                                     axis_size + rng.randint(0, 100),
                                     low, high])
        bad_positions = [p for p, v in enumerate(values)
                         if not -axis_size <= v < axis_size]
    form = "<%d%s" % (count, "i" if kernel["index_size"] == 4 else "q")
    return values, struct.pack(form, *values), bad_positions


def reference(data, data_shape, values, indices_shape, kernel):
    """The expected result bytes: numpy's take_along_axis, else a gather in
    Python."""
    size, axis = kernel["element_size"], kernel["axis"]
    if numpy is not None:
        kind = {1: "u1", 2: "<u2", 4: "<u4", 8: "<u8", 16: "V16"}[size]
        array = numpy.frombuffer(data, dtype=kind).reshape(data_shape)
        index = numpy.array(values, dtype=numpy.int64).reshape(indices_shape)
        index = numpy.where(index < 0, index + data_shape[axis], index)
        return numpy.take_along_axis(array, index, axis=axis).tobytes()
    strides = [1] * len(data_shape)
    for d in range(len(data_shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * data_shape[d + 1]
    out = bytearray()
    for position, value in enumerate(values):
        coordinates, rest = [], position
        for d in range(len(indices_shape) - 1, -1, -1):
            coordinates.append(rest % indices_shape[d] if indices_shape[d] else 0)
            rest //= indices_shape[d] if indices_shape[d] else 1
        coordinates.reverse()
        coordinates[axis] = value + data_shape[axis] if value < 0 else value
        offset = sum(c * s for c, s in zip(coordinates, strides))
        out += data[offset * size:(offset + 1) * size]
    return bytes(out)


def coordinates_of(position, shape):
    out = []
    for d in range(len(shape) - 1, -1, -1):
        out.append(position % shape[d])
        position //= shape[d]
    return list(reversed(out))


def expected_messages(kernel, data_shape, indices_shape, values, bad):
    """The located lines the runtime prints for the bad positions `bad`
    (row-major): the first ten, then a count of the rest."""
    axis, size = kernel["axis"], data_shape[kernel["axis"]]
    where = f"{kernel['file']}:{kernel['line']}:{kernel['column']}: error: "
    valid = (f"outside the valid range [{-size}, {size - 1}] for axis {axis} "
             f"of size {size}")
    lines = []
    for position in bad[:10]:
        at = ", ".join(str(c) for c in coordinates_of(position, indices_shape))
        lines.append(f"{where}'onnx.GatherElements' op operand 'indices' holds "
                     f"value {values[position]} at position [{at}], {valid}")
    if len(bad) > 10:
        rest = len(bad) - 10
        lines.append(f"{where}'onnx.GatherElements' op operand 'indices' holds "
                     f"{rest} more value{'' if rest == 1 else 's'} {valid} "
                     f"(not listed)")
    return lines


def make_case(rng, number, kernel, bad):
    data_shape, indices_shape = random_shapes(rng, kernel, bad)
    data = random_elements(rng, product(data_shape), kernel)
    values, indices, bad_positions = random_indices(
        rng, data_shape, indices_shape, kernel, bad)
    record = struct.pack("<q", number) + struct.pack(
        "<%dq" % (2 * kernel["rank"]), *(data_shape + indices_shape))
    return {"kernel": kernel, "data_shape": data_shape,
            "indices_shape": indices_shape, "data": data, "values": values,
            "record": record + data + indices, "bad": bad_positions}


def run(args):
    table = json.load(open(args.table))["kernels"]
    rng = random.Random(args.seed)
    work = args.work or tempfile.mkdtemp(prefix="gather-cases-")
    os.makedirs(work, exist_ok=True)
    label = args.label or os.path.basename(args.runner)
    failures = []
    # Every kernel at least a few times, then at random.
    order = [number % len(table) for number in range(args.count)]
    rng.shuffle(order)
    cases = [make_case(rng, number, table[number], False) for number in order]
    with open(os.path.join(work, "cases.bin"), "wb") as f:
        for case in cases:
            f.write(case["record"])
    wrap = args.wrap.split() if args.wrap else []
    result = subprocess.run(wrap + [args.runner, os.path.join(work, "cases.bin"),
                             os.path.join(work, "results.bin")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            timeout=600)
    if result.returncode != 0:
        failures.append(f"{label}: the runner exited with status "
                        f"{result.returncode}: {result.stderr.decode()[-500:]}")
    output = open(os.path.join(work, "results.bin"), "rb").read() \
        if os.path.exists(os.path.join(work, "results.bin")) else b""
    at, checked = 0, 0
    for number, case in enumerate(cases):
        kernel = case["kernel"]
        rank = kernel["rank"]
        if at + 8 * rank > len(output):
            failures.append(f"{label}: no result for case {number} and later")
            break
        shape = list(struct.unpack_from("<%dq" % rank, output, at))
        at += 8 * rank
        size = product(case["indices_shape"]) * kernel["element_size"]
        got = output[at:at + size]
        at += size
        want = reference(case["data"], case["data_shape"], case["values"],
                         case["indices_shape"], kernel)
        checked += 1
        if shape != case["indices_shape"] or got != want:
            first = next((i for i in range(min(len(got), len(want)))
                          if got[i] != want[i]), min(len(got), len(want)))
            failures.append(
                f"{label}: case {number} ({kernel['name']}: "
                f"{kernel['element']} data {case['data_shape']}, "
                f"{kernel['index']} indices {case['indices_shape']}, axis "
                f"{kernel['axis_written']}): result shape {shape}, first "
                f"difference at byte {first}")
    # Bad indices: one process each, exit status 1 and the exact lines.
    bad_checked = 0
    candidates = [k for k in table if k["data_shape"] is None or
                  product(k["indices_shape"]) > 0]
    for number in range(args.bad):
        kernel = candidates[number % len(candidates)]
        case = make_case(rng, table.index(kernel), kernel, True)
        if not case["bad"]:
            continue
        path = os.path.join(work, f"bad-{number}.bin")
        with open(path, "wb") as f:
            f.write(case["record"])
        result = subprocess.run(wrap + [args.runner, path, path + ".out"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                timeout=120)
        lines = result.stderr.decode().splitlines()
        want = expected_messages(kernel, case["data_shape"],
                                 case["indices_shape"], case["values"],
                                 case["bad"])
        bad_checked += 1
        if result.returncode != 1 or not lines or lines != want[:len(lines)]:
            failures.append(
                f"{label}: bad case {number} ({kernel['name']}, data "
                f"{case['data_shape']}, indices {case['indices_shape']}): "
                f"exit {result.returncode}, got {lines[:2]}, want {want[:2]}")
    for failure in failures[:50]:
        print("FAIL " + failure)
    if not args.work and not failures:
        shutil.rmtree(work, ignore_errors=True)
    reference_name = "numpy " + numpy.__version__ if numpy else "pure Python"
    print(f"{label}: {checked - sum(1 for f in failures if ': case ' in f)} "
          f"of {len(cases)} cases bit-exact against {reference_name}; "
          f"{bad_checked} bad-index cases; {len(failures)} failures")
    return 0 if not failures and checked == len(cases) else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    kernels = sub.add_parser("kernels")
    kernels.add_argument("mlir")
    kernels.add_argument("json")
    kernels.add_argument("header")
    kernels.add_argument("--prefix", default="k")
    runner = sub.add_parser("run")
    runner.add_argument("--runner", required=True)
    runner.add_argument("--table", required=True)
    runner.add_argument("--count", type=int, default=2400)
    runner.add_argument("--bad", type=int, default=40)
    runner.add_argument("--seed", type=int, default=22)
    runner.add_argument("--work")
    runner.add_argument("--label")
    runner.add_argument("--wrap", help="a command to run the runner under "
                        "(compute-sanitizer ...)")
    args = parser.parse_args()
    if args.command == "kernels":
        write_kernels(args.mlir, args.json, args.header, args.prefix)
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
