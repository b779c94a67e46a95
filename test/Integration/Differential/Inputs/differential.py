#!/usr/bin/python3
"""Differential test of onnx.GatherElements against numpy.

Generates seeded random GatherElements cases (ranks 1-6, sizes 0 to 5, every
axis written positive or negative, i32/i64 indices including negative ones,
data of many element types with random bit patterns: NaN payloads, -0,
infinities, subnormals), writes them as MLIR modules of many cases each in one
of five forms, runs them with gather-runner and compares every printed element
with numpy's take_along_axis, bit for bit.

Forms:
  static      static shapes, scalar single-threaded code (vector-size=0 num-threads=1)
  vectorized  static shapes, vector-size=4 (remainders) or 16, single-threaded
  threaded    static shapes, OpenMP threads for every size (parallel-threshold=1)
  rows        static shapes of ranks 2-4 with short rows (innermost size 1-17)
              and up to 40 of them (second-innermost size): rows shorter
              than a vector, in groups of whole vectors and a rest; vectors
              of 16 and 8, 1 and 2 threads (parallel-threshold=1)
  blocks      static shapes of ranks 3-5 gathered along an outer axis (not
              one of the two innermost dimensions), sized so that the rows
              run in blocks (RowBlocks) under row-block-bytes=2048; scalar
              loops and vectors of 8 and 16, 1 and 2 threads
  permute     static shapes of ranks 2-3 gathered mostly along the innermost
              axis, rows of data of 1, 3, 8, 15, 16, 17, 31, 32, 33 (and
              random) elements, rows of indices as long as a vector or
              longer (some shorter: groups), mostly f32, i32, f64, i64, f16
              and i8 elements: in-register gathers (in-register-gathers=true)
              where the target's permutes hold the row, the other forms
              where not; vectors of 16 and 8, 1 and 2 threads
  dynamic     every size `?` (default pipeline: vectorized, threaded; LLVM
              -O3 for every fourth module, -O0 for the others)
  folded      constant operands in the entry function: canonicalize folds
              them (checked with gather-opt), the runner prints the constant

The oracle is numpy (run this with Debian's /usr/bin/python3): the gather is
computed on the raw bits of the data, and a printed float is accepted only if
its decimal text, rounded exactly (round to nearest even) to the element type,
gives those bits back; NaN must print its exact bits. It shares no code with
the project.

With --gather-form hardware|scalarized|scalar, the vectorized, threaded, rows
and dynamic forms use that code shape of vectorized gathers (pipeline option
gather-form; vectors of 4 and 8 for the vectorized and threaded forms, 16 and
8 for rows).

Usage: differential.py --form F --seed S --cases N --work DIR
                       --runner gather-runner [--opt gather-opt]
                       [--gather-form FORM] [--extra-options OPTIONS]
Prints `<form>: <N> cases, <M> elements, all bit-exact` or the mismatches
(and exits with status 1).
"""

import argparse
import os
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np

# name -> (numpy dtype of the bits or values, kind)
TYPES = {
    "f32": (np.uint32, "float"),
    "f64": (np.uint64, "float"),
    "f16": (np.uint16, "float"),
    "bf16": (np.uint16, "float"),
    "complex<f32>": (np.uint32, "complex"),
    "complex<f64>": (np.uint64, "complex"),
    "i1": (np.bool_, "bool"),
    "i8": (np.int8, "int"),
    "i16": (np.int16, "int"),
    "i32": (np.int32, "int"),
    "i64": (np.int64, "int"),
    "ui8": (np.uint8, "int"),
    "ui16": (np.uint16, "int"),
    "ui32": (np.uint32, "int"),
    "ui64": (np.uint64, "int"),
}
# Floating-point formats: (bits, precision incl. the implicit bit, min normal exponent)
FLOATS = {
    "f16": (16, 11, -14),
    "bf16": (16, 8, -126),
    "f32": (32, 24, -126),
    "f64": (64, 53, -1022),
}
# The permute form's: the element types of the permutes (32 and 64 bits),
# and some that have none.
PERMUTE_TYPE_CHOICES = [
    "f32", "f32", "i32", "i32", "f64", "i64", "ui32", "f16", "i8", "bf16", "i16",
]
# Type choices, weighted towards the ones the suite must cover.
TYPE_CHOICES = [
    "f32", "f32", "f64", "f16", "bf16", "i8", "i64", "i1", "ui16",
    "complex<f32>", "complex<f64>", "f64", "f16", "bf16", "i8", "i64", "i1",
    "ui16", "i16", "i32", "ui8", "ui32", "ui64",
]


def float_type_of(element):
    return element[8:-1] if element.startswith("complex") else element


def random_float_bits(rng, element, shape):
    """Random bit patterns of a float type: a mix of uniformly random bits
    (many NaN payloads, huge and tiny values) and special values."""
    bits, precision, _ = FLOATS[element]
    dtype = {16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
    n = int(np.prod(shape, dtype=np.int64))
    exponent_bits = bits - precision
    sign = 1 << (bits - 1)
    exp_all = ((1 << exponent_bits) - 1) << (precision - 1)
    one = ((1 << (exponent_bits - 1)) - 1) << (precision - 1)
    specials = [
        0, sign, exp_all, sign | exp_all,            # +-0, +-inf
        exp_all | 1, exp_all | (1 << (precision - 2)) | 5,  # sNaN, qNaN payload
        sign | exp_all | 3, 1, sign | 1,             # -NaN, +-smallest subnormal
        one, sign | one, exp_all - 1,                # +-1, largest finite
    ]
    out = np.empty(n, dtype=dtype)
    for k in range(n):
        r = rng.integers(0, 4)
        if r == 0:
            out[k] = specials[rng.integers(0, len(specials))]
        else:
            out[k] = int(rng.integers(0, 1 << 62)) * 4 + int(rng.integers(0, 4)) & ((1 << bits) - 1)
    return out.reshape(shape)


def random_data(rng, element, shape):
    dtype, kind = TYPES[element]
    if kind == "float":
        return random_float_bits(rng, element, shape)
    if kind == "complex":
        part = float_type_of(element)
        return np.stack([random_float_bits(rng, part, shape),
                         random_float_bits(rng, part, shape)], axis=-1)
    if kind == "bool":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    info = np.iinfo(dtype)
    values = rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    # Favour the extremes and zero now and then.
    mask = rng.integers(0, 6, size=shape)
    values = np.where(mask == 0, dtype(info.min), values)
    values = np.where(mask == 1, dtype(info.max), values)
    values = np.where(mask == 2, dtype(0), values)
    return values.astype(dtype)


def literal(element, data):
    """A dense<...> literal of `data` (bits for floats: hexadecimal)."""
    kind = TYPES[element][1]
    width = FLOATS[float_type_of(element)][0] // 4 if kind in ("float", "complex") else 0

    def scalar(v):
        if kind == "float":
            return "0x%0*X" % (width, int(v))
        if kind == "bool":
            return "true" if v else "false"
        return str(int(v))

    def rec(a):
        if kind == "complex" and a.ndim == 1:
            return "(0x%0*X, 0x%0*X)" % (width, int(a[0]), width, int(a[1]))
        if kind != "complex" and a.ndim == 0:
            return scalar(a)
        return "[" + ", ".join(rec(x) for x in a) + "]"

    if data.size == 0:
        return ""  # dense<> : any shape with no elements
    return rec(data)


class Case:
    def __init__(self, rng, index, rows=False, blocks=False, permute=False):
        self.index = index
        self.element = TYPE_CHOICES[rng.integers(0, len(TYPE_CHOICES))]
        if permute:
            self.element = PERMUTE_TYPE_CHOICES[rng.integers(0, len(PERMUTE_TYPE_CHOICES))]
            self.permute_shapes(rng)
        elif rows:
            self.short_rows_shapes(rng)
        elif blocks:
            self.blocks_shapes(rng)
        else:
            self.small_shapes(rng)
        rank = len(self.data_shape)
        axis = self.axis
        s = self.data_shape[axis]
        ishape = self.indices_shape
        self.index_type = "i32" if rng.integers(0, 2) else "i64"
        idx_dtype = np.int32 if self.index_type == "i32" else np.int64
        self.indices = rng.integers(-s, max(s, 1), size=ishape).astype(idx_dtype) if s else \
            np.zeros(ishape, dtype=idx_dtype)
        self.data = random_data(rng, self.element, self.data_shape)
        self.expected = self.oracle()

    def small_shapes(self, rng):
        """Ranks 1-6, sizes 0 to 5 (9 for rank 1)."""
        rank = int(rng.integers(1, 7))
        max_dim = {1: 9, 2: 5, 3: 4, 4: 3, 5: 3, 6: 2}[rank]
        dims = [int(rng.integers(0, max_dim + 1)) for _ in range(rank)]
        # Mostly non-empty data; size-0 and size-1 dims still common.
        if 0 in dims and rng.integers(0, 3) != 0:
            dims = [d if d else 1 for d in dims]
        self.data_shape = dims
        self.axis_written = int(rng.integers(-rank, rank))
        axis = self.axis_written % rank
        self.axis = axis
        s = dims[axis]
        ishape = []
        for d in range(rank):
            # Mostly non-empty indices; an empty one now and then.
            low = 0 if rng.integers(0, 10) == 0 else 1
            if d == axis:
                ishape.append(int(rng.integers(low, max_dim + 2)) if s else 0)
            else:
                ishape.append(int(rng.integers(min(low, dims[d]), dims[d] + 1)))
        if s == 0 and rank == 1:
            ishape = [0]
        self.indices_shape = ishape

    def short_rows_shapes(self, rng):
        """Ranks 2-4: indices of [1-3, ..., 1-40, 1-17] (rows of 1 to 17),
        data as large or up to 3 larger off the axis, 1 to 20 along it."""
        rank = int(rng.integers(2, 5))
        ishape = [int(rng.integers(1, 4)) for _ in range(rank - 2)]
        ishape += [int(rng.integers(1, 41)), int(rng.integers(1, 18))]
        self.axis_written = int(rng.integers(-rank, rank))
        self.axis = self.axis_written % rank
        self.data_shape = [int(rng.integers(1, 21)) if d == self.axis
                           else ishape[d] + int(rng.integers(0, 4)) * int(rng.integers(0, 2))
                           for d in range(rank)]
        self.indices_shape = ishape

    def blocks_shapes(self, rng):
        """Ranks 3-5, the axis one of the first rank-2 dimensions: indices
        of 1-3 before the axis, 1-12 along it, 2-24 right after it, then
        1-3 and an innermost 1-40; data 1-12 along the axis, as large or up
        to 2 larger off it."""
        rank = int(rng.integers(3, 6))
        self.axis = int(rng.integers(0, rank - 2))
        self.axis_written = self.axis - rank if rng.integers(0, 2) else self.axis
        ishape = []
        for d in range(rank):
            if d < self.axis:
                ishape.append(int(rng.integers(1, 4)))
            elif d == self.axis:
                ishape.append(int(rng.integers(1, 13)))
            elif d == self.axis + 1:
                ishape.append(int(rng.integers(2, 25)))
            elif d == rank - 1:
                ishape.append(int(rng.integers(1, 41)))
            else:
                ishape.append(int(rng.integers(1, 4)))
        self.data_shape = [int(rng.integers(1, 13)) if d == self.axis
                           else ishape[d] + int(rng.integers(0, 3)) * int(rng.integers(0, 2))
                           for d in range(rank)]
        self.indices_shape = ishape

    def permute_shapes(self, rng):
        """Ranks 2-3: indices of [1-3, 1-6, 1-48] (mostly 8 or more per
        row), data rows along the innermost axis (4 cases in 5) of the
        lengths around the permutes' registers, as large or up to 3 larger
        off the axis."""
        rank = int(rng.integers(2, 4))
        ishape = [int(rng.integers(1, 4)) for _ in range(rank - 2)]
        ishape += [int(rng.integers(1, 7)),
                   int(rng.integers(8, 49)) if rng.integers(0, 5) else int(rng.integers(1, 8))]
        innermost = rng.integers(0, 5) != 0
        self.axis = rank - 1 if innermost else int(rng.integers(0, rank - 1))
        self.axis_written = self.axis - rank if rng.integers(0, 2) else self.axis
        lengths = [1, 3, 8, 15, 16, 17, 31, 32, 33]
        s = lengths[rng.integers(0, len(lengths))] if rng.integers(0, 4) else int(rng.integers(1, 41))
        self.data_shape = [s if d == self.axis
                           else ishape[d] + int(rng.integers(0, 4)) * int(rng.integers(0, 2))
                           for d in range(rank)]
        self.indices_shape = ishape

    def oracle(self):
        """numpy: crop data to indices' shape off the axis, wrap negative
        indices, take_along_axis (on the bits for floats)."""
        rank = len(self.data_shape)
        crop = tuple(slice(None) if d == self.axis else slice(0, self.indices_shape[d])
                     for d in range(rank))
        s = self.data_shape[self.axis]
        idx = self.indices.astype(np.int64)
        idx = np.where(idx < 0, idx + s, idx)
        if TYPES[self.element][1] == "complex":
            parts = [np.take_along_axis(self.data[..., p][crop], idx, axis=self.axis)
                     for p in range(2)]
            return np.stack(parts, axis=-1)
        return np.take_along_axis(self.data[crop], idx, axis=self.axis)

    def type(self, shape, element, dynamic=False):
        dims = "".join(("?" if dynamic else str(d)) + "x" for d in shape)
        return f"tensor<{dims}{element}>"


def module_text(cases, form):
    """The module: one function per case (except when folded) and @main
    returning every result."""
    lines = []
    results = []
    main = []
    dynamic = form == "dynamic"
    for c in cases:
        td = c.type(c.data_shape, c.element)
        ti = c.type(c.indices_shape, c.index_type)
        tr = c.type(c.indices_shape, c.element)
        dd = c.type(c.data_shape, c.element, dynamic)
        di = c.type(c.indices_shape, c.index_type, dynamic)
        dr = c.type(c.indices_shape, c.element, dynamic)
        k = c.index
        main.append(f"  %d{k} = arith.constant dense<{literal(c.element, c.data)}> : {td}")
        main.append(f"  %i{k} = arith.constant dense<{literal(c.index_type, c.indices)}> : {ti}")
        if form == "folded":
            main.append(f"  %r{k} = onnx.GatherElements %d{k}, %i{k} axis = {c.axis_written} : {td}, {ti}")
            results.append((f"%r{k}", tr))
            continue
        lines.append(f"func.func @case{k}(%d: {dd}, %i: {di}) -> {dr} {{")
        lines.append(f"  %r = onnx.GatherElements %d, %i axis = {c.axis_written} : {dd}, {di}")
        lines.append(f"  return %r : {dr}")
        lines.append("}")
        if dynamic:
            main.append(f"  %dc{k} = tensor.cast %d{k} : {td} to {dd}")
            main.append(f"  %ic{k} = tensor.cast %i{k} : {ti} to {di}")
            main.append(f"  %r{k} = call @case{k}(%dc{k}, %ic{k}) : ({dd}, {di}) -> {dr}")
            results.append((f"%r{k}", dr))
        else:
            main.append(f"  %r{k} = call @case{k}(%d{k}, %i{k}) : ({td}, {ti}) -> {tr}")
            results.append((f"%r{k}", tr))
    types = ", ".join(t for _, t in results)
    lines.append(f"func.func @main() -> ({types}) {{")
    lines += main
    lines.append(f"  return {', '.join(v for v, _ in results)} : {types}")
    lines.append("}")
    return "\n".join(lines) + "\n"


SCALAR = r"(?:nan\(0x[0-9a-fA-F]+\)|[^\[\](), ]+)"
COMPLEX = re.compile(rf"\(({SCALAR}), ({SCALAR})\)")
TOKEN = re.compile(rf"{COMPLEX.pattern}|{SCALAR}")


def decode_float(bits, fmt):
    """Exact value of finite bits as (sign, Fraction)."""
    width, precision, emin = FLOATS[fmt]
    sign = bits >> (width - 1)
    exponent = (bits >> (precision - 1)) & ((1 << (width - precision)) - 1)
    mantissa = bits & ((1 << (precision - 1)) - 1)
    if exponent == 0:
        value = Fraction(mantissa) * Fraction(2) ** (emin - precision + 1)
    else:
        value = Fraction(mantissa | (1 << (precision - 1))) * \
            Fraction(2) ** (exponent + emin - 1 - precision + 1)
    return sign, value


def round_to_format(x, fmt):
    """x (a positive Fraction) rounded to nearest even in format `fmt`
    (no overflow handling: the caller compares with a finite value)."""
    _, precision, emin = FLOATS[fmt]
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x:
        e -= 1
    e = max(e, emin)
    ulp = Fraction(2) ** (e - precision + 1)
    m = x / ulp
    q, r = divmod(m.numerator, m.denominator)
    if 2 * r > m.denominator or (2 * r == m.denominator and q % 2):
        q += 1
    return q * ulp


def float_matches(text, bits, fmt):
    width, precision, _ = FLOATS[fmt]
    bits = int(bits)
    exp_mask = ((1 << (width - precision)) - 1) << (precision - 1)
    is_special = bits & exp_mask == exp_mask
    if is_special and bits & ((1 << (precision - 1)) - 1):  # NaN
        return text.startswith("nan(0x") and int(text[6:-1], 16) == bits
    if is_special:
        return text == ("-inf" if bits >> (width - 1) else "inf")
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return False
    sign, expected = decode_float(bits, fmt)
    if (1 if text.startswith("-") else 0) != sign:
        return False
    if expected == 0:
        return value == 0
    return value != 0 and round_to_format(abs(value), fmt) == expected


def element_matches(text, expected, element):
    kind = TYPES[element][1]
    if kind == "float":
        return float_matches(text, expected, element)
    if kind == "complex":
        m = COMPLEX.fullmatch(text)
        part = float_type_of(element)
        return bool(m) and float_matches(m.group(1), expected[0], part) and \
            float_matches(m.group(2), expected[1], part)
    if kind == "bool":
        return text == ("true" if expected else "false")
    return text == str(int(expected))


def skeleton(shape):
    if not shape:
        return "x"
    if shape[0] == 0:
        return "[]"
    return "[" + ", ".join([skeleton(shape[1:])] * shape[0]) + "]"


def check(cases, output, form):
    """Compares gather-runner's result lines with the oracle; returns the
    number of elements compared and a list of errors."""
    lines = [l for l in output.splitlines() if l.startswith("result ")]
    errors = []
    if len(lines) != len(cases):
        return 0, [f"{len(lines)} result lines for {len(cases)} cases"]
    compared = 0
    for c, line in zip(cases, lines):
        head, _, values = line.partition(" = ")
        want_type = c.type(c.indices_shape, c.element)
        if not head.endswith(": " + want_type):
            errors.append(f"case {c.index}: printed {head!r}, expected type {want_type}")
            continue
        if TOKEN.sub("x", values) != skeleton(c.indices_shape):
            errors.append(f"case {c.index}: nesting of {values[:200]!r} is not shape {c.indices_shape}")
            continue
        tokens = [m.group(0) for m in TOKEN.finditer(values)]
        kind = TYPES[c.element][1]
        flat = c.expected.reshape(-1, 2) if kind == "complex" else c.expected.reshape(-1)
        for pos, (text, want) in enumerate(zip(tokens, flat)):
            compared += 1
            if not element_matches(text, want, c.element):
                errors.append(f"case {c.index} ({c.element}, data {c.data_shape}, indices "
                              f"{c.index_type} {c.indices_shape}, axis {c.axis_written}): element "
                              f"{pos} printed {text}, expected bits/value {want}")
                break
    return compared, errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--form", required=True,
                        choices=["static", "vectorized", "threaded", "rows", "blocks",
                                 "permute", "dynamic", "folded"])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--cases", type=int, required=True)
    # gather-runner's compile time grows faster than linearly with the number
    # of results of one entry function: keep modules small.
    parser.add_argument("--batch", type=int, default=40, help="cases per module")
    parser.add_argument("--corrupt", action="store_true",
                        help="flip the lowest bit of one expected element of every "
                             "module (the comparison must then fail)")
    parser.add_argument("--work", required=True, help="directory for the modules")
    parser.add_argument("--runner", required=True)
    parser.add_argument("--opt", help="gather-opt, to check that folded modules fold")
    parser.add_argument("--gather-form", choices=["hardware", "scalarized", "scalar"],
                        help="the code shape of vectorized gathers (pipeline option "
                             "gather-form); vectorized and threaded modules then use "
                             "vectors of 4 and 8 (rows of this test are short), rows "
                             "modules vectors of 16 and 8")
    parser.add_argument("--extra-options", default="",
                        help="more onnx-to-llvm options for every module, after the "
                             "form's (e.g. narrow-offsets=true)")
    args = parser.parse_args()

    options = {
        "static": "vector-size=0 num-threads=1",
        "vectorized": "vector-size={v} num-threads=1",
        "threaded": "num-threads=2 parallel-threshold=1 vector-size={v}",
        "rows": "num-threads={t} parallel-threshold=1 vector-size={v}",
        "blocks": "num-threads={t} parallel-threshold=1 vector-size={v} row-block-bytes=2048",
        "permute": "num-threads={t} parallel-threshold=1 vector-size={v} "
                   "in-register-gathers=true",
        "dynamic": "",
        "folded": "",
    }[args.form]
    rng = np.random.default_rng(args.seed)
    os.makedirs(args.work, exist_ok=True)
    total = compared = 0
    errors = []
    for b, start in enumerate(range(0, args.cases, args.batch)):
        cases = [Case(rng, k, rows=args.form == "rows", blocks=args.form == "blocks",
                      permute=args.form == "permute")
                 for k in range(start, min(start + args.batch, args.cases))]
        path = os.path.join(args.work, f"{args.form}-{b}.mlir")
        with open(path, "w") as f:
            f.write(module_text(cases, args.form))
        if args.form == "folded" and args.opt:
            folded = subprocess.run([args.opt, "--canonicalize", path], capture_output=True,
                                    text=True)
            if folded.returncode or "onnx.GatherElements" in folded.stdout:
                errors.append(f"{path}: canonicalize did not fold every gather "
                              f"(exit {folded.returncode}) {folded.stderr[:2000]}")
        command = [args.runner, path, "-e", "main", "--entry-point-result=void"]
        if args.form in ("rows", "permute"):
            # Vectors of 16 and 8, each with 1 and 2 threads.
            vector_size = 16 if b % 4 < 2 else 8
        elif args.form == "blocks":
            # Scalar loops, vectors of 8 and 16, each with 1 and 2 threads.
            vector_size = [0, 8, 16][(b // 2) % 3]
        elif args.gather_form:
            vector_size = 4 if b % 2 == 0 else 8
        else:
            vector_size = 4 if b % 2 == 0 else 16
        options_text = options.format(v=vector_size, t=1 + b % 2)
        if args.gather_form:
            options_text += f" gather-form={args.gather_form}"
        options_text += " " + args.extra_options
        options_text = options_text.strip()
        if options_text:
            command.append("--pipeline-options=" + options_text)
        if args.form == "dynamic" and b % 4:
            # LLVM -O3 takes about 0.5 s per dynamic-shape gather; every
            # fourth module gets it, the others -O0 (same MLIR lowering).
            command.append("-O0")
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode:
            errors.append(f"{' '.join(command)}: exit {run.returncode}\n{run.stderr[:4000]}")
            continue
        if args.corrupt:
            for c in cases:
                if c.expected.size:
                    flat = c.expected.reshape(-1)
                    flat[0] = flat[0] ^ flat.dtype.type(1)
                    break
        n, errs = check(cases, run.stdout, args.form)
        compared += n
        total += len(cases)
        errors += [f"{path}: {e}" for e in errs]
    if errors:
        print("\n".join(errors[:50]))
        return 1
    print(f"{args.form}: {total} cases, {compared} elements, all bit-exact")
    return 0


if __name__ == "__main__":
    sys.exit(main())
