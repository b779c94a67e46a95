#!/usr/bin/env python3
"""Generates the JIT execution tests test/Integration/Runner/*.mlir of onnx.GatherElements.

Each test file JIT-runs onnx.GatherElements with gather-runner and checks the
printMemref output with FileCheck. The expected outputs are computed here with
plain Python lists from the ONNX GatherElements (opset 13) equations,
independently of the compiler (never by running it):

    out[i_0]..[i_{r-1}] = data[i_0]..[idx]..[i_{r-1}]   (idx at position axis)
    idx = indices[i_0]..[i_{r-1}], plus s = data.shape[axis] if negative,

and cross-checked against the spec's explicit rank-2/3/4 loop equations
(cross_check). The CHECK lines reproduce printMemref's output format
(MemRefDataPrinter in mlir/ExecutionEngine/RunnerUtils.h).

Usage: utils/gen_runner_tests.py [OUTDIR [FILE.mlir...]]
  OUTDIR defaults to test/Integration/Runner next to this script; FILEs restrict the
  output to those files. Plain python3, no third-party modules.
"""

import itertools
import sys


# --------------------------------------------------------------------------
# Reference semantics.
# --------------------------------------------------------------------------

def shape_of(x):
    s = []
    while isinstance(x, list):
        s.append(len(x))
        x = x[0] if x else None
    return s


def get(x, mi):
    for i in mi:
        x = x[i]
    return x


def build(shape, fn, prefix=()):
    if not shape:
        return fn(prefix)
    return [build(shape[1:], fn, prefix + (i,)) for i in range(shape[0])]


def gather_elements(data, indices, axis, ds=None, is_=None):
    """ds, is_: the shapes of data and indices, needed when one has a size-0
    dimension (a nested list does not hold the sizes after a 0)."""
    ds = shape_of(data) if ds is None else list(ds)
    is_ = shape_of(indices) if is_ is None else list(is_)
    r = len(ds)
    assert r >= 1 and len(is_) == r, (ds, is_)
    assert -r <= axis < r
    if axis < 0:
        axis += r
    s = ds[axis]
    for d in range(r):
        if d != axis:
            assert is_[d] <= ds[d], "indices larger than data on non-axis dim"

    def elem(mi):
        v = get(indices, mi)
        assert -s <= v < s, ("index out of range", v, s)
        if v < 0:
            v += s
        src = list(mi)
        src[axis] = v
        return get(data, src)

    return build(is_, elem)


# --------------------------------------------------------------------------
# printMemref format (mirrors MemRefDataPrinter in RunnerUtils.h).
# --------------------------------------------------------------------------

FLOAT_TYPES = ("f16", "bf16", "f32", "f64")


def fmt_elem(v, elt):
    if elt in FLOAT_TYPES:
        return "%g" % v  # std::ostream default: precision 6, %g-like
    return str(int(v))


def print_memref_data(x, elt):
    """Returns the text printMemref prints after 'data = \\n'."""
    shape = shape_of(x)
    rank = len(shape)
    flat = []

    def rec(x, dim, out):
        if dim == 0:
            out.append(fmt_elem(x, elt))
            return
        n = len(x)
        out.append("[")
        rec(x[0], dim - 1, out)
        if n <= 1:
            out.append("]")
            return
        out.append(", ")
        if dim > 1:
            out.append("\n")
        for i in range(1, n - 1):
            out.append(" " * (rank - dim + 1))
            rec(x[i], dim - 1, out)
            out.append(", ")
            if dim > 1:
                out.append("\n")
        out.append(" " * (rank - dim + 1))
        rec(x[n - 1], dim - 1, out)
        out.append("]")

    rec(x, rank, flat)
    return "".join(flat)


def check_lines(prefix, x, elt):
    shape = shape_of(x)
    lines = ["// %s: rank = %d offset = 0 sizes = [%s]" %
             (prefix, len(shape), ", ".join(map(str, shape)))]
    for row in print_memref_data(x, elt).split("\n"):
        lines.append("// %s-NEXT{LITERAL}: %s" % (prefix, row.rstrip()))
    return lines


# --------------------------------------------------------------------------
# MLIR emission.
# --------------------------------------------------------------------------

PRINTERS = {"f16": "F16", "bf16": "BF16", "f32": "F32", "f64": "F64",
            "i16": "I16", "i32": "I32", "i64": "I64"}
# Element types printMemref cannot print as numbers: widened to i32 first.
WIDEN = {"i8": "arith.extsi", "i1": "arith.extui"}


def mlir_scalar(v, elt):
    if elt in FLOAT_TYPES:
        t = repr(float(v))
        if "e" in t and "." not in t.split("e")[0]:
            m, e = t.split("e")
            t = m + ".0e" + e
        return t
    if elt == "i1":
        return "true" if v else "false"
    return str(int(v))


def num_elements(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def mlir_literal(x, elt):
    if isinstance(x, list):
        return "[" + ", ".join(mlir_literal(e, elt) for e in x) + "]"
    return mlir_scalar(x, elt)


def ttype(shape, elt):
    return "tensor<" + "".join("%sx" % d for d in shape) + elt + ">"


class Case:
    """One gather + print.

    mode: 'inline'  - gather in @main on arith.constant operands;
          'func'    - gather in a separate function taking tensor arguments
                      (types: the constants' types unless fn_types given);
          'dyn'     - same, with every dimension of the arguments dynamic.
    axis: int, or None to omit the attribute (default 0).
    dshape, ishape: the shapes of data and indices; required when one has a
    size-0 dimension (otherwise taken from the nested lists). A result with
    no element is checked through its sizes (tensor.dim) instead of
    printMemref.
    """

    def __init__(self, name, comment, data, delt, indices, ielt, axis,
                 mode="inline", fn=None, fn_types=None, dshape=None, ishape=None):
        self.name, self.comment = name, comment
        self.data, self.delt = data, delt
        self.indices, self.ielt = indices, ielt
        self.axis, self.mode = axis, mode
        self.fn, self.fn_types = fn or name, fn_types
        self.dshape = shape_of(data) if dshape is None else list(dshape)
        self.ishape = shape_of(indices) if ishape is None else list(ishape)
        if dshape is not None and 0 not in self.dshape:
            assert shape_of(data) == self.dshape, (name, "data shape")
        if ishape is not None and 0 not in self.ishape:
            assert shape_of(indices) == self.ishape, (name, "indices shape")
        self.expected = gather_elements(data, indices,
                                        0 if axis is None else axis,
                                        self.dshape, self.ishape)

    def arg_types(self):
        ds, is_ = self.dshape, self.ishape
        if self.fn_types:
            return self.fn_types
        if self.mode == "dyn":
            return (ttype(["?"] * len(ds), self.delt),
                    ttype(["?"] * len(is_), self.ielt))
        return ttype(ds, self.delt), ttype(is_, self.ielt)


def axis_text(axis):
    return "" if axis is None else " axis = %d" % axis


def result_type(dtype_str, itype_str):
    # tensor<AxBxi64> -> shape of indices, element type of data.
    ishape = itype_str[len("tensor<"):-1].rsplit("x", 1)[0]
    delt = dtype_str[len("tensor<"):-1].rsplit("x", 1)[1]
    return "tensor<%sx%s>" % (ishape, delt)


def emit_function(case):
    dt, it = case.arg_types()
    rt = result_type(dt, it)
    return [
        "func.func @%s(%%data: %s, %%indices: %s) -> %s {" % (case.fn, dt, it, rt),
        "  %%out = onnx.GatherElements %%data, %%indices%s : %s, %s"
        % (axis_text(case.axis), dt, it),
        "  return %%out : %s" % rt,
        "}",
    ]


def dense_text(x, shape, elt):
    if num_elements(shape) == 0:
        return "dense<>"
    return "dense<%s>" % mlir_literal(x, elt)


def empty_result_check(case, n, prefix, res, res_t):
    """A result with no element: prints its sizes with vector.print (not
    printMemref, which reads an element even when a size is 0)."""
    shape = case.ishape
    out = []
    for d in range(len(shape)):
        out.append("  %%c%d_%d = arith.constant %d : index" % (n, d, d))
    for d in range(len(shape)):
        out.append("  %%s%d_%d = tensor.dim %s, %%c%d_%d : %s" % (n, d, res, n, d, res_t))
    out.append('  vector.print str "%s: sizes = "' % case.name)
    for d in range(len(shape)):
        punct = " punctuation <comma>" if d + 1 < len(shape) else ""
        out.append("  vector.print %%s%d_%d : index%s" % (n, d, punct))
    out.append("  // %s: {{^}}%s: sizes = %s{{$}}"
               % (prefix, case.name, ", ".join(map(str, shape))))
    return out


def emit_case(case, n, prefix):
    ds, is_ = case.dshape, case.ishape
    dt, it = ttype(ds, case.delt), ttype(is_, case.ielt)
    rt = result_type(dt, it)
    out = []
    for c in case.comment.split("\n"):
        out.append("  // " + c if c else "  //")
    out.append("  %%d%d = arith.constant %s : %s"
               % (n, dense_text(case.data, ds, case.delt), dt))
    out.append("  %%i%d = arith.constant %s : %s"
               % (n, dense_text(case.indices, is_, case.ielt), it))
    if case.mode == "inline":
        out.append("  %%o%d = onnx.GatherElements %%d%d, %%i%d%s : %s, %s"
                   % (n, n, n, axis_text(case.axis), dt, it))
        res, res_t = "%%o%d" % n, rt
    else:
        adt, ait = case.arg_types()
        frt = result_type(adt, ait)
        dv, iv = "%%d%d" % n, "%%i%d" % n
        if adt != dt:
            out.append("  %%dc%d = tensor.cast %s : %s to %s" % (n, dv, dt, adt))
            dv = "%%dc%d" % n
        if ait != it:
            out.append("  %%ic%d = tensor.cast %s : %s to %s" % (n, iv, it, ait))
            iv = "%%ic%d" % n
        out.append("  %%o%d = call @%s(%s, %s) : (%s, %s) -> %s"
                   % (n, case.fn, dv, iv, adt, ait, frt))
        res, res_t = "%%o%d" % n, frt
    if num_elements(is_) == 0:
        return out + empty_result_check(case, n, prefix, res, res_t)
    elt = case.delt
    if elt in WIDEN:
        shape_s = "".join("%dx" % d for d in is_)
        r = len(is_)
        dims = ", ".join("d%d" % k for k in range(r))
        amap = "affine_map<(%s) -> (%s)>" % (dims, dims)
        out.append("  %%e%d = tensor.empty() : tensor<%si32>" % (n, shape_s))
        out.append("  %%w%d = linalg.generic {indexing_maps = [%s, %s], "
                   "iterator_types = [%s]}" % (n, amap, amap,
                                                ", ".join(['"parallel"'] * r)))
        out.append("      ins(%s : %s) outs(%%e%d : tensor<%si32>) {"
                   % (res, res_t, n, shape_s))
        out.append("  ^bb0(%%a: %s, %%b: i32):" % elt)
        out.append("    %%x = %s %%a : %s to i32" % (WIDEN[elt], elt))
        out.append("    linalg.yield %x : i32")
        out.append("  } -> tensor<%si32>" % shape_s)
        res, res_t, elt = "%%w%d" % n, "tensor<%si32>" % shape_s, "i32"
    out.append("  %%u%d = tensor.cast %s : %s to tensor<*x%s>" % (n, res, res_t, elt))
    out.append("  call @printMemref%s(%%u%d) : (tensor<*x%s>) -> ()"
               % (PRINTERS[elt], n, elt))
    out += ["  " + l for l in check_lines(prefix, case.expected, case.delt)]
    return out


def emit_file(path, header, entries):
    """entries: list of (entry_name, prefix, [Case])."""
    lines = ["// REQUIRES: jit"]
    for entry, prefix, _ in entries:
        pre = "" if prefix == "CHECK" else " --check-prefix=%s" % prefix
        # Default -O3, and -O0 so that LLVM cannot fold the kernel away.
        for opt in ("", " -O0"):
            lines.append("// RUN: gather-runner %%s -e %s --entry-point-result=void%s "
                         "| FileCheck %%s%s" % (entry, opt, pre))
    lines.append("")
    lines += ["// " + h if h else "//" for h in header.split("\n")]
    lines.append("")
    used = set()
    for _, _, cases in entries:
        for c in cases:
            if isinstance(c, Case):
                used.add(c.delt if c.delt not in WIDEN else "i32")
    for elt in sorted(used, key=lambda e: list(PRINTERS).index(e)):
        # The printers only read their argument: saying so lets
        # one-shot-bufferize pass a constant that is used again afterwards
        # (e.g. folded into an identical constant) without a copy, which it
        # cannot make for an unranked tensor.
        lines.append("func.func private @printMemref%s(tensor<*x%s> "
                     "{bufferization.access = \"read\"}) "
                     "attributes {llvm.emit_c_interface}" % (PRINTERS[elt], elt))
    lines.append("")
    emitted = {}
    for _, _, cases in entries:
        for c in cases:
            if not isinstance(c, Case) or c.mode == "inline":
                continue
            f = emit_function(c)
            if c.fn in emitted:
                assert emitted[c.fn] == f, "function %s redefined" % c.fn
                continue
            emitted[c.fn] = f
            lines += f + [""]
    for entry, prefix, cases in entries:
        lines.append("func.func @%s() {" % entry)
        for n, c in enumerate(cases):
            if n:
                lines.append("")
            if isinstance(c, str):  # hand-written MLIR + CHECK lines
                lines += c.rstrip("\n").split("\n")
            else:
                lines += emit_case(c, n, prefix)
        lines.append("  return")
        lines.append("}")
        lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines).rstrip("\n") + "\n")


# --------------------------------------------------------------------------
# Test definitions.
# --------------------------------------------------------------------------

def formula_indices(shape, s, a=7, off=0):
    """Deterministic, varied indices in [-s, s-1] (negative ones included):
    element number n (row-major) gets (a * n + off) mod 2s - s, a coprime
    to 2s so that every value in [-s, s-1] shows up."""
    import math
    assert math.gcd(a, 2 * s) == 1
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]

    def f(mi):
        n = sum(i * st for i, st in zip(mi, strides))
        return (a * n + off) % (2 * s) - s
    return build(list(shape), f)


SPEC_D0 = [[1.0, 2.0], [3.0, 4.0]]
SPEC_I0 = [[0, 0], [1, 0]]
SPEC_D1 = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]
SPEC_I1 = [[1, 2, 0], [2, 0, 0]]
SPEC_I2 = [[-1, -2, 0], [-2, 0, 0]]


def spec_examples():
    ex = [
        ("test_gather_elements_0: axis = 1.", SPEC_D0, SPEC_I0, 1),
        ("test_gather_elements_1: axis = 0.", SPEC_D1, SPEC_I1, 0),
        ("test_gather_elements_negative_indices: axis = 0.", SPEC_D1, SPEC_I2, 0),
    ]
    # The spec's expected outputs, as printed in the spec.
    spec_out = [[[1.0, 1.0], [4.0, 3.0]], [[4.0, 8.0, 3.0], [7.0, 2.0, 3.0]],
                [[7.0, 5.0, 3.0], [4.0, 2.0, 3.0]]]
    main = [Case("ex%d" % k, c, d, "f32", i, "i64", a)
            for k, (c, d, i, a) in enumerate(ex)]
    for c, want in zip(main, spec_out):
        assert c.expected == want, (c.name, c.expected, want)
    rt = [
        Case("ex0_func", ex[0][0] + "\nIn a separate function: operands are run-time values.",
             SPEC_D0, "f32", SPEC_I0, "i64", 1, "func", fn="gather_elements_0"),
        # axis omitted: default 0. Same function for both axis-0 examples.
        Case("ex1_func", ex[1][0] + "\nIn a separate function, axis attribute omitted (default 0).",
             SPEC_D1, "f32", SPEC_I1, "i64", None, "func", fn="gather_axis0_3x3"),
        Case("ex2_func", ex[2][0] + "\nSame function as the previous case, other indices.",
             SPEC_D1, "f32", SPEC_I2, "i64", None, "func", fn="gather_axis0_3x3"),
        Case("ex0_dyn", ex[0][0] + "\nDynamic shapes.",
             SPEC_D0, "f32", SPEC_I0, "i64", 1, "dyn", fn="gather_dyn_axis1"),
        Case("ex1_dyn", ex[1][0] + "\nDynamic shapes.",
             SPEC_D1, "f32", SPEC_I1, "i64", 0, "dyn", fn="gather_dyn"),
        Case("ex2_dyn", ex[2][0] + "\nDynamic shapes: negative indices count from the run-time size.",
             SPEC_D1, "f32", SPEC_I2, "i64", 0, "dyn", fn="gather_dyn"),
    ]
    for c, want in zip(rt, spec_out + spec_out):
        assert c.expected == want
    return [("main", "CHECK", main), ("main_runtime", "RUNTIME", rt)]


F64_D = [[0.1, 1.0e300, -2.5e-300], [3.5e38, -1.0e-310, 123.456]]
I32_D = [[2147483647, -2147483648, -1], [65536, 0, -123456789], [7, -7, 1000000]]
I64_D = [[9000000000000000000, -9000000000000000000, 4294967296, -1],
         [9223372036854775807, -9223372036854775808, 4294967297, -4294967296]]
F32_D = [[1.5, -2.5, 3.25, -4.125], [5.0, 6.0, 7.0, 8.0], [-9.0, -10.0, -11.0, -12.0]]


def element_types():
    cases = [
        Case("f64_axis1",
             "f64 data (values out of f32's range or precision), i64 indices, axis = 1;\n"
             "indices longer than data along the axis.",
             F64_D, "f64", [[1, 2, 0, -1], [2, 0, 1, -3]], "i64", 1),
        Case("f64_axis0_func", "f64 data, axis = 0, in a separate function.",
             F64_D, "f64", [[1, 0, 1], [0, 1, -2], [-1, -1, 0]], "i64", 0, "func"),
        Case("i32_axis0",
             "i32 data (extreme values), i64 indices, axis = 0.",
             I32_D, "i32", [[2, 0, 1], [1, 2, 0], [-3, -1, -2]], "i64", 0),
        Case("i32_axis_m1_func",
             "i32 data, i32 indices, axis = -1, in a separate function.",
             I32_D, "i32", [[2, -2], [-3, 0], [1, -1]], "i32", -1, "func"),
        Case("i64_axis_m1",
             "i64 data (values beyond 32 bits), i64 indices, axis = -1.",
             I64_D, "i64", [[3, 2, 1, 0, -4], [1, 0, -1, 2, -3]], "i64", -1),
        Case("i64_axis0_func",
             "i64 data, i32 indices, axis = 0, in a separate function.",
             I64_D, "i64", [[1, -2, 0, -1], [-1, 1, -2, 0]], "i32", 0, "func"),
        Case("i32_indices_axis1",
             "f32 data, i32 indices (negative ones included), axis = 1.",
             F32_D, "f32", [[-4, -3, -2, -1], [3, -1, 0, -4], [1, 1, -3, 2]], "i32", 1),
        Case("i32_indices_axis0_func",
             "f32 data, i32 indices, axis = 0, in a separate function.",
             F32_D, "f32", [[-1, -2, -3, 0], [2, 1, 0, -1]], "i32", 0, "func"),
        Case("i32_indices_dyn",
             "f32 data, i32 indices, axis = 1, dynamic shapes.",
             F32_D, "f32", [[-1, 0], [2, -3]], "i32", 1, "dyn",
             fn="gather_dyn_i32_indices"),
        Case("f64_i32_indices_dyn",
             "f64 data, i32 indices, axis = 0, dynamic shapes.",
             F64_D, "f64", [[-1, 0, -2], [-2, -1, 1]], "i32", 0, "dyn",
             fn="gather_dyn_f64_i32_indices"),
    ]
    return [("main", "CHECK", cases)]


def more_element_types():
    cases = [
        Case("f16", "f16 data, axis = 1.",
             [[0.5, -1.25, 65504.0], [6.103515625e-05, -2048.0, 3.0]], "f16",
             [[2, 0, -2], [-1, 1, 0]], "i64", 1),
        Case("bf16", "bf16 data (2^100 is out of f16's range), axis = 0.",
             [[1.2676506002282294e30, -0.375], [256.0, -3.0]], "bf16",
             [[1, 0], [-2, -1], [0, 1]], "i32", 0),
        Case("i16", "i16 data, axis = -1.",
             [[32767, -32768, -1], [256, 0, 1]], "i16",
             [[1, 0, 2, -3], [-1, -2, 0, 1]], "i64", -1, "func"),
        Case("i8", "i8 data (widened to i32 to print), axis = 1.",
             [[127, -128, -1], [0, 5, -6]], "i8",
             [[1, 2, 0], [-1, -3, 1]], "i64", 1),
        Case("i1", "i1 (bool) data (widened to i32 to print), axis = 0.",
             [[True, False, True], [False, False, True]], "i1",
             [[1, 0, 0], [0, -1, -2], [-1, 1, 1]], "i32", 0, "func"),
    ]
    return [("main", "CHECK", cases)]


def r3_data():
    return build([2, 3, 4], lambda m: float(100 * (m[0] + 1) + 10 * (m[1] + 1) + m[2] + 1))


def r4_data():
    return build([2, 3, 2, 3], lambda m: 1000 * (m[0] + 1) + 100 * (m[1] + 1)
                 + 10 * (m[2] + 1) + m[3] + 1)


def ranks_and_axes():
    R2 = [[11.0, 12.0, 13.0, 14.0], [21.0, 22.0, 23.0, 24.0], [31.0, 32.0, 33.0, 34.0]]
    cases = [
        Case("r1_default_axis",
             "Rank 1, axis attribute omitted (default 0), indices longer than data.",
             [10.0, 20.0, 30.0, 40.0, 50.0], "f32", [4, 0, -1, 2, -5, 1, 1], "i64", None),
        Case("r1_axis_m1_func", "Rank 1, axis = -1, i32 data and indices, in a function.",
             [-5, 100, 7], "i32", [2, -3, 1], "i32", -1, "func"),
        Case("r1_single", "Rank 1, a single index.",
             [3.5, 4.5], "f32", [-2], "i64", 0),
        Case("r2_axis_m1", "Rank 2, axis = -1 (same as 1).",
             R2, "f32", [[3, 0, -1], [1, -4, 2], [0, 0, 3]], "i64", -1),
        Case("r2_axis_m2", "Rank 2, axis = -2 (same as 0).",
             R2, "f32", [[2, 0, -1, 1], [-3, 1, 2, 0]], "i64", -2),
        Case("r2_axis_m2_func", "Rank 2, axis = -2, in a separate function.",
             R2, "f32", [[-1, 1, 0], [0, -2, 2]], "i64", -2, "func"),
        Case("r3_axis0", "Rank 3 (data 2x3x4), axis = 0, indices 2x2x3.",
             r3_data(), "f32", formula_indices([2, 2, 3], 2), "i64", 0),
        Case("r3_axis1", "Rank 3, axis = 1, indices 2x4x2 (longer on the axis).",
             r3_data(), "f32", formula_indices([2, 4, 2], 3, off=1), "i64", 1),
        Case("r3_axis2", "Rank 3, axis = 2, indices 1x3x5.",
             r3_data(), "f32", formula_indices([1, 3, 5], 4, off=2), "i64", 2),
        Case("r3_axis_m1_dyn", "Rank 3, axis = -1, i32 indices, dynamic shapes.",
             r3_data(), "f32", formula_indices([2, 2, 3], 4, a=5, off=3), "i32",
             -1, "dyn", fn="gather_dyn_r3_axis_m1"),
        Case("r3_axis1_func", "Rank 3, axis = 1, in a separate function.",
             r3_data(), "f32", formula_indices([2, 3, 4], 3, a=5, off=4), "i64",
             1, "func"),
        Case("r4_axis1", "Rank 4 (i64 data 2x3x2x3), axis = 1, indices 2x4x2x2.",
             r4_data(), "i64", formula_indices([2, 4, 2, 2], 3), "i64", 1),
        Case("r4_axis2", "Rank 4, axis = 2, indices 1x2x3x3 (longer on the axis).",
             r4_data(), "i64", formula_indices([1, 2, 3, 3], 2, off=1), "i64", 2),
        Case("r4_axis_m1_func", "Rank 4, axis = -1 (3), i32 indices, in a separate function.",
             r4_data(), "i64", formula_indices([2, 1, 2, 4], 3, off=2), "i32", -1, "func"),
        Case("r4_axis2_dyn", "Rank 4, axis = 2, dynamic shapes.",
             r4_data(), "i64", formula_indices([2, 3, 2, 2], 2, a=5), "i64",
             2, "dyn", fn="gather_dyn_r4_axis2"),
    ]
    return [("main", "CHECK", cases)]


# Empty indices: nothing to print (printMemref reads an element even when a
# size is 0), so the result's dimensions are printed instead.
EMPTY_CASES = """\
  // Empty indices (2x0), dynamic shapes, axis = 1: the result is 2x0.
  %de = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %ie = tensor.empty() : tensor<2x0xi64>
  %dce = tensor.cast %de : tensor<2x2xf32> to tensor<?x?xf32>
  %ice = tensor.cast %ie : tensor<2x0xi64> to tensor<?x?xi64>
  %oe = call @gather_dyn(%dce, %ice) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %oe0 = tensor.dim %oe, %c0 : tensor<?x?xf32>
  %oe1 = tensor.dim %oe, %c1 : tensor<?x?xf32>
  vector.print str "empty result: "
  vector.print %oe0 : index punctuation <comma>
  vector.print %oe1 : index
  // CHECK: empty result: 2, 0
  // CHECK-NOT: {{.}}
"""


def shapes():
    D34 = [[0.0, 1.0, 2.0, 3.0], [10.0, 11.0, 12.0, 13.0], [20.0, 21.0, 22.0, 23.0]]
    D23 = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    big_d = build([5, 37], lambda m: float(m[0] * 1000 + m[1]))
    big_i = formula_indices([4, 40], 37, a=13)
    cases = [
        Case("smaller_axis1", "data 3x4, indices 2x2, axis = 1: indices smaller on the other dim.",
             D34, "f32", [[3, -2], [0, -3]], "i64", 1),
        Case("smaller_axis0", "data 3x4, indices 2x2, axis = 0.",
             D34, "f32", [[2, -1], [0, -3]], "i64", 0),
        Case("larger_axis1", "data 2x2, indices 2x5, axis = 1: indices larger along the axis.",
             SPEC_D0, "f32", [[0, 1, 1, 0, -1], [1, -2, 0, -1, 1]], "i64", 1),
        Case("larger_axis0", "data 2x3, indices 6x1, axis = 0.",
             D23, "f32", [[0], [1], [-1], [-2], [1], [0]], "i64", 0),
        Case("one_element", "data 3x4, indices 1x1, axis = 1.",
             D34, "f32", [[-1]], "i64", 1),
        Case("smaller_axis1_func", "data 3x4, indices 2x2, axis = 1, in a separate function.",
             D34, "f32", [[1, -1], [-4, 2]], "i64", 1, "func"),
        Case("larger_axis1_func", "data 2x2, indices 2x5, axis = 1, in a separate function.",
             SPEC_D0, "f32", [[-1, -2, 0, 1, 1], [0, 0, -1, 1, -2]], "i64", 1, "func"),
        Case("dyn_smaller_axis1", "Dynamic shapes: data 3x4, indices 2x2, axis = 1.",
             D34, "f32", [[3, -2], [0, -3]], "i64", 1, "dyn", fn="gather_dyn"),
        Case("dyn_larger_axis1", "Same dynamic function: data 2x2, indices 2x5, axis = 1.",
             SPEC_D0, "f32", [[0, 1, 1, 0, -1], [1, -2, 0, -1, 1]], "i64", 1, "dyn",
             fn="gather_dyn"),
        Case("dyn_smaller_axis0", "Dynamic shapes: data 3x4, indices 2x3, axis = 0.",
             D34, "f32", [[-1, 2, -3], [1, 0, -2]], "i64", 0, "dyn", fn="gather_dyn_axis0"),
        Case("dyn_larger_axis0", "Same dynamic function: data 2x3, indices 6x1, axis = 0.",
             D23, "f32", [[0], [1], [-1], [-2], [1], [0]], "i64", 0, "dyn",
             fn="gather_dyn_axis0"),
        Case("mixed_static_dynamic",
             "Partly dynamic: data tensor<?x4xf32>, indices tensor<2x?xi64>, axis = 1.",
             D34, "f32", [[3, -4, 1], [-1, 2, 0]], "i64", 1, "func",
             fn="gather_mixed", fn_types=("tensor<?x4xf32>", "tensor<2x?xi64>")),
        Case("big_axis1",
             "data 5x37, indices 4x40, axis = 1: odd sizes, longer loops.",
             big_d, "f32", big_i, "i64", 1),
        Case("big_axis1_dyn", "The same, dynamic shapes.",
             big_d, "f32", big_i, "i64", 1, "dyn", fn="gather_dyn"),
        EMPTY_CASES,
    ]
    return [("main", "CHECK", cases)]


def seq_data(shape, base=-20.0):
    """f32 data numbered in row-major order: element n is base + n/2, so
    every element differs, and each value is exact in f32 and printed
    exactly by printMemref's 6 significant digits."""
    import struct
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]

    def f(mi):
        v = base + 0.5 * sum(i * st for i, st in zip(mi, strides))
        assert struct.unpack("f", struct.pack("f", v))[0] == v
        assert float("%g" % v) == v
        return v
    return build(list(shape), f)


def shape_name(shape):
    return "x".join(map(str, shape))


# (rank, data shape, [(axis as written, indices shape, index type), ...]):
# per rank, a middle axis (rank 1: the only axis; rank 2: axis 0) and the
# last axis, some spelled negative. Indices are smaller than data on some
# non-axis dims and larger along the axis in some cases.
RANK_CASES = [
    (1, [3], [(0, [5], "i64"), (-1, [2], "i32")]),
    (2, [3, 2], [(0, [4, 1], "i32"), (-1, [2, 3], "i64")]),
    (3, [2, 3, 2], [(1, [2, 4, 1], "i64"), (2, [1, 3, 3], "i32")]),
    (4, [2, 3, 2, 3], [(-2, [2, 2, 3, 3], "i32"), (3, [1, 3, 2, 2], "i64")]),
    (5, [2, 3, 2, 2, 3], [(2, [2, 2, 3, 1, 3], "i64"), (-1, [1, 3, 2, 2, 4], "i32")]),
    (6, [2, 2, 3, 2, 2, 2], [(-3, [2, 1, 3, 3, 2, 2], "i32"), (5, [2, 2, 2, 2, 1, 3], "i64")]),
    (7, [2, 2, 2, 3, 2, 2, 2], [(3, [1, 2, 2, 4, 2, 1, 2], "i64"),
                                (-1, [2, 2, 1, 3, 2, 2, 3], "i32")]),
    (8, [2] * 8, [(-4, [2, 1, 2, 2, 3, 2, 1, 2], "i64"), (7, [1, 2, 2, 2, 2, 1, 2, 3], "i32")]),
]
DYN_RANKS = (5, 8)


def axis_name(axis):
    return "axis%d" % axis if axis >= 0 else "axis_m%d" % -axis


def edge_ranks():
    cases = []
    for r, dshape, variants in RANK_CASES:
        data = seq_data(dshape)
        for k, (axis, ishape, ielt) in enumerate(variants):
            s = dshape[axis]
            what = "last" if axis % r == r - 1 else "middle"
            if r == 1:
                what = "only"
            elif r == 2 and axis % r == 0:
                what = "first"
            name = "r%d_%s" % (r, axis_name(axis))
            comment = ("Rank %d, %s axis = %d: data %s, %s indices %s."
                       % (r, what, axis, shape_name(dshape), ielt, shape_name(ishape)))
            indices = formula_indices(ishape, s, a=7 if k == 0 else 5, off=r)
            cases.append(Case(name, comment, data, "f32", indices, ielt, axis, "func"))
            if r in DYN_RANKS:
                cases.append(Case(name + "_dyn", comment + "\nDynamic shapes, other indices.",
                                  data, "f32", formula_indices(ishape, s, off=r + 3),
                                  ielt, axis, "dyn", fn="gather_dyn_" + name))
    return cases


def edge_size_one():
    D141 = seq_data([1, 4, 1], base=1.5)
    D31 = seq_data([3, 1], base=-1.0)
    D1131 = seq_data([1, 1, 3, 1], base=4.0)
    return [
        Case("ones_1x4x1_axis1", "data 1x4x1, indices 1x3x1, axis = 1.",
             D141, "f32", [[[3], [-4], [1]]], "i64", 1, "func"),
        Case("ones_1x4x1_axis1_dyn", "The same, i32 indices, dynamic shapes.",
             D141, "f32", [[[-1], [0], [-3]]], "i32", 1, "dyn", fn="gather_dyn_r3_axis1"),
        Case("ones_1x4x1_axis0", "data 1x4x1, axis = 0 (size 1): index values 0 and -1.",
             D141, "f32", [[[0], [-1], [-1], [0]]], "i64", 0, "func"),
        Case("ones_1x4x1_axis0_inline", "The same on constants.",
             D141, "f32", [[[-1], [0], [0], [-1]]], "i64", 0),
        Case("ones_1x4x1_axis_m1", "data 1x4x1, axis = -1 (size 1), i32 indices 1x2x1.",
             D141, "f32", [[[-1], [0]]], "i32", -1, "func"),
        Case("ones_1x4x1_axis2_dyn", "data 1x4x1, axis = 2 (size 1), dynamic shapes.",
             D141, "f32", [[[0], [-1], [0], [-1]]], "i64", 2, "dyn", fn="gather_dyn_r3_axis2"),
        Case("ones_3x1_axis1", "data 3x1, indices 3x4, axis = 1 (size 1): larger along the axis.",
             D31, "f32", [[0, -1, 0, -1], [-1, -1, 0, 0], [0, 0, -1, 0]], "i64", 1, "func"),
        Case("ones_1x1x3x1_axis3", "data 1x1x3x1, indices 1x1x2x5, axis = 3 (size 1), i32 indices.",
             D1131, "f32", [[[[0, -1, -1, 0, 0], [-1, 0, -1, -1, 0]]]], "i32", 3, "func"),
        Case("ones_1x1x3x1_axis_m1_dyn", "The same with axis = -1, dynamic shapes.",
             D1131, "f32", [[[[-1, 0, 0, -1, -1], [0, -1, 0, 0, -1]]]], "i32", -1, "dyn",
             fn="gather_dyn_r4_axis_m1_i32"),
        Case("ones_1x1x3x1_axis2", "data 1x1x3x1, indices 1x1x4x1, axis = 2 (size 3).",
             D1131, "f32", [[[[2], [-3], [-1], [1]]]], "i64", 2, "func"),
        Case("ones_1x1x1_axis1", "data 1x1x1, indices 1x1x1, axis = 1, index -1.",
             [[[7.5]]], "f32", [[[-1]]], "i64", 1, "func"),
        Case("ones_1x1x1_axis1_dyn", "The same, index 0, dynamic shapes.",
             [[[7.5]]], "f32", [[[0]]], "i64", 1, "dyn", fn="gather_dyn_r3_axis1_i64"),
        Case("ones_r1", "Rank 1, data of size 1, indices 3 (larger), values 0 and -1.",
             [2.5], "f32", [0, -1, 0], "i32", 0, "func"),
    ]


def edge_empty():
    D23 = seq_data([2, 3], base=1.0)
    D2s8 = seq_data([2] * 8, base=0.0)
    return [
        Case("rows0_axis0", "data 2x3, indices 0x3, axis = 0: empty result 0x3.",
             D23, "f32", [], "i64", 0, "func", ishape=[0, 3]),
        Case("rows0_axis0_dyn", "The same, dynamic shapes.",
             D23, "f32", [], "i64", 0, "dyn", fn="gather_dyn_axis0", ishape=[0, 3]),
        Case("rows0_axis0_inline", "The same on constants (indices dense<>).",
             D23, "f32", [], "i64", 0, ishape=[0, 3]),
        Case("rows0_axis1", "data 2x3, i32 indices 0x3, axis = 1.",
             D23, "f32", [], "i32", 1, "func", ishape=[0, 3]),
        Case("cols0_axis0", "data 2x3, indices 2x0, axis = 0: empty result 2x0.",
             D23, "f32", [[], []], "i64", 0, "func", ishape=[2, 0]),
        Case("cols0_axis0_dyn", "The same, dynamic shapes.",
             D23, "f32", [[], []], "i64", 0, "dyn", fn="gather_dyn_axis0", ishape=[2, 0]),
        Case("data0_axis1",
             "data 0x3, indices 0x5, axis = 1: data empty on the other dim, indices\n"
             "empty there too (and larger along the axis); nothing is read.",
             [], "f32", [], "i64", 1, "func", dshape=[0, 3], ishape=[0, 5]),
        Case("data0_axis1_dyn", "The same, dynamic shapes.",
             [], "f32", [], "i64", 1, "dyn", fn="gather_dyn_axis1",
             dshape=[0, 3], ishape=[0, 5]),
        Case("data0_axis_m1_i32_dyn", "data 0x3, i32 indices 0x2, axis = -1, dynamic shapes.",
             [], "f32", [], "i32", -1, "dyn", fn="gather_dyn_axis_m1_i32",
             dshape=[0, 3], ishape=[0, 2]),
        Case("data0_mixed",
             "data 0x3 as tensor<?x3xf32>, indices 0x4 as tensor<0x?xi64>, axis = 1.",
             [], "f32", [], "i64", 1, "func", fn="gather_mixed_empty",
             fn_types=("tensor<?x3xf32>", "tensor<0x?xi64>"), dshape=[0, 3], ishape=[0, 4]),
        Case("r3_mid0_axis_m1", "data 2x0x3, i32 indices 2x0x4, axis = -1.",
             [[], []], "f32", [[], []], "i32", -1, "func", dshape=[2, 0, 3], ishape=[2, 0, 4]),
        Case("r3_mid0_axis_m1_dyn", "The same, dynamic shapes.",
             [[], []], "f32", [[], []], "i32", -1, "dyn", fn="gather_dyn_r3_axis_m1_i32",
             dshape=[2, 0, 3], ishape=[2, 0, 4]),
        Case("r3_empty_axis1",
             "data 2x0x3, indices 2x0x3, axis = 1: the axis has size 0, but indices\n"
             "are empty, so this is valid; nothing is read.",
             [[], []], "f32", [[], []], "i64", 1, "func", dshape=[2, 0, 3], ishape=[2, 0, 3]),
        Case("r3_empty_axis1_dyn", "The same, dynamic shapes.",
             [[], []], "f32", [[], []], "i64", 1, "dyn", fn="gather_dyn_r3_axis1_i64",
             dshape=[2, 0, 3], ishape=[2, 0, 3]),
        Case("r3_indices_empty_last",
             "data 2x3x2, indices 1x2x0, axis = 1: empty result 1x2x0.",
             seq_data([2, 3, 2]), "f32", [[[], []]], "i64", 1, "func", ishape=[1, 2, 0]),
        Case("r8_empty_dyn",
             "Rank 8: data 2x2x2x2x2x2x2x2, indices 2x2x0x2x2x2x2x3, axis = 7,\n"
             "dynamic shapes.",
             D2s8, "f32", [[[], []], [[], []]], "i32", 7, "dyn", fn="gather_dyn_r8_axis7",
             ishape=[2, 2, 0, 2, 2, 2, 2, 3]),
        Case("after_empty_dyn",
             "A non-empty gather through a dynamic function used above: data 2x3,\n"
             "indices 1x3, axis = 0.",
             D23, "f32", [[-1, 0, 1]], "i64", 0, "dyn", fn="gather_dyn_axis0"),
    ]


def edge_extreme():
    D25 = seq_data([2, 5], base=-3.0)
    D52 = seq_data([5, 2], base=10.0)
    D252 = seq_data([2, 5, 2], base=-6.5)
    I24 = [[-5, 4, -5, 4], [4, -5, 0, -1]]
    I32 = [[-5, 4], [4, -5], [-1, 0]]
    return [
        Case("x25_axis1_i64", "data 2x5, axis = 1 (size 5): index values -5 and 4, i64.",
             D25, "f32", I24, "i64", 1, "func"),
        Case("x25_axis1_i32", "The same with i32 indices.",
             D25, "f32", I24, "i32", 1, "func"),
        Case("x25_axis1_i64_dyn", "i64 indices, dynamic shapes.",
             D25, "f32", [[4, 4, -5, -5], [-5, 4, -1, 0]], "i64", 1, "dyn",
             fn="gather_dyn_axis1"),
        Case("x25_axis1_i32_dyn", "i32 indices, dynamic shapes.",
             D25, "f32", [[4, 4, -5, -5], [-5, 4, -1, 0]], "i32", 1, "dyn",
             fn="gather_dyn_axis1_i32"),
        Case("x52_axis_m2_i32", "data 5x2, axis = -2 (size 5), i32 indices.",
             D52, "f32", I32, "i32", -2, "func"),
        Case("x52_axis_m2_i64_inline", "The same on constants, i64 indices.",
             D52, "f32", I32, "i64", -2),
        Case("x5_r1_i64_dyn", "Rank 1, data 5, i64 indices -5 and 4, dynamic shapes.",
             [0.5, 1.5, 2.5, 3.5, 4.5], "f32", [4, -5, -5, 4, 0, -1], "i64", 0, "dyn",
             fn="gather_dyn_r1"),
        Case("x5_r1_i32", "Rank 1, data 5, i32 indices -5 and 4.",
             [0.5, 1.5, 2.5, 3.5, 4.5], "f32", [-5, 4, 4, -5], "i32", 0, "func"),
        Case("x252_axis1_i32_dyn", "data 2x5x2, axis = 1 (size 5), i32 indices 2x3x2, dynamic shapes.",
             D252, "f32", [[[-5, 4], [4, -5], [-5, -5]], [[4, 4], [-5, 4], [0, -1]]], "i32", 1,
             "dyn", fn="gather_dyn_r3_axis1"),
    ]


def edge_shapes():
    return [("ranks", "RANKS", edge_ranks()),
            ("size_one", "ONES", edge_size_one()),
            ("empty", "EMPTY", edge_empty()),
            ("extreme_indices", "EXTREME", edge_extreme())]


FILES = {
    "spec-examples.mlir": (
        "onnx.GatherElements: the three examples of the ONNX spec (opset 13).\n"
        "@main computes them on constants and prints them in order; @main_runtime\n"
        "runs them again through separate (non-inlined) functions taking tensor\n"
        "arguments, with static and with dynamic shapes.",
        spec_examples),
    "element-types.mlir": (
        "onnx.GatherElements on f64, i32 and i64 data, and with i32 indices.",
        element_types),
    "more-element-types.mlir": (
        "onnx.GatherElements on f16, bf16, i16, i8 and i1 data.",
        more_element_types),
    "ranks-and-axes.mlir": (
        "onnx.GatherElements on ranks 1 to 4, every axis of rank 3, negative axes.",
        ranks_and_axes),
    "shapes.mlir": (
        "onnx.GatherElements with indices shaped unlike data (smaller on other dims,\n"
        "larger along the axis), and with dynamic shapes.",
        shapes),
    "edge-shapes.mlir": (
        "onnx.GatherElements at the edges: ranks 1 to 8 (a middle and the last axis,\n"
        "static and, for ranks 5 and 8, dynamic shapes), dims of size 1, dims of\n"
        "size 0 (empty results are checked through their sizes), and the extreme\n"
        "valid index values -s and s-1.",
        edge_shapes),
}


def cross_check(case):
    """Recomputes case.expected with the spec's explicit per-rank loops."""
    def norm(v, s):
        return v + s if v < 0 else v
    D, I = case.data, case.indices
    ds, is_ = case.dshape, case.ishape
    r = len(ds)
    ax = (0 if case.axis is None else case.axis) % r
    out = build(is_, lambda mi: None)
    for mi in itertools.product(*[range(n) for n in is_]):
        x = get(I, mi)
        if r == 1:
            v = D[norm(x, ds[0])]
        elif r == 2:
            i, j = mi
            v = (D[norm(x, ds[0])][j] if ax == 0 else D[i][norm(x, ds[1])])
        elif r == 3:
            i, j, k = mi
            v = {0: lambda: D[norm(x, ds[0])][j][k],
                 1: lambda: D[i][norm(x, ds[1])][k],
                 2: lambda: D[i][j][norm(x, ds[2])]}[ax]()
        elif r == 4:
            p = list(mi)
            p[ax] = norm(x, ds[ax])
            v = D[p[0]][p[1]][p[2]][p[3]]
        else:
            # Ranks 5 to 8: the same equation, axis position replaced.
            assert r <= 8
            p = list(mi)
            p[ax] = norm(x, ds[ax])
            v = D
            for q in p:
                v = v[q]
        o = out
        for d in mi[:-1]:
            o = o[d]
        o[mi[-1]] = v
    assert out == case.expected, case.name


if __name__ == "__main__":
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "test", "Integration", "Runner")
    only = sys.argv[2:]
    for name, (header, fn) in FILES.items():
        if only and name not in only:
            continue
        entries = fn()
        for _, _, cases in entries:
            for c in cases:
                if isinstance(c, Case):
                    cross_check(c)
        emit_file(os.path.join(outdir, name),
                  header + "\nGenerated by utils/gen_runner_tests.py, which computes the expected values\n"
                  "independently from the spec's equations.",
                  entries)
