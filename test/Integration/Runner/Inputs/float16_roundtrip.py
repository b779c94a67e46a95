#!/usr/bin/env python3
"""Exhaustive check that gather-runner prints every f16 and bf16 value so
that it reads back to the same bits.

  float16_roundtrip.py gen            writes an .mlir module whose @main
                                      returns all 65536 f16 and bf16 bit
                                      patterns, gathered in reverse order
  float16_roundtrip.py check OUTPUT   checks gather-runner's output

The oracle rounds each printed decimal to the 16-bit format with exact
rational arithmetic (fractions.Fraction, round to nearest, ties to even) —
independent of the C++ printer.
"""
import bisect
import sys
from fractions import Fraction

N = 1 << 16


def hex_constant():
    # Little-endian raw data of the bit patterns 0..65535.
    return "0x" + "".join("%02X%02X" % (b & 0xFF, b >> 8) for b in range(N))


def gen():
    hexdata = hex_constant()
    print("func.func @reverse(%d: tensor<65536xT>, %i: tensor<65536xi32>) -> tensor<65536xT> {"
          .replace("T", "f16"))
    print("  %0 = onnx.GatherElements %d, %i : tensor<65536xf16>, tensor<65536xi32>")
    print("  return %0 : tensor<65536xf16>")
    print("}")
    print("func.func @reverse_bf16(%d: tensor<65536xbf16>, %i: tensor<65536xi64>) -> tensor<65536xbf16> {")
    print("  %0 = onnx.GatherElements %d, %i : tensor<65536xbf16>, tensor<65536xi64>")
    print("  return %0 : tensor<65536xbf16>")
    print("}")
    print("func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {")
    print('  %h = arith.constant dense<"' + hexdata + '"> : tensor<65536xf16>')
    print('  %b = arith.constant dense<"' + hexdata + '"> : tensor<65536xbf16>')
    # Index -1 - k: element N-1-k (negative indices, reversed).
    idx = "".join("%08X" % int.from_bytes(((-1 - k) & 0xFFFFFFFF).to_bytes(4, "little"), "big")
                  for k in range(N))
    idx64 = "".join("%016X" % int.from_bytes(((-1 - k) & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "little"), "big")
                    for k in range(N))
    print('  %i = arith.constant dense<"0x' + idx + '"> : tensor<65536xi32>')
    print('  %j = arith.constant dense<"0x' + idx64 + '"> : tensor<65536xi64>')
    print("  %r = call @reverse(%h, %i) : (tensor<65536xf16>, tensor<65536xi32>) -> tensor<65536xf16>")
    print("  %s = call @reverse_bf16(%b, %j) : (tensor<65536xbf16>, tensor<65536xi64>) -> tensor<65536xbf16>")
    print("  return %r, %s : tensor<65536xf16>, tensor<65536xbf16>")
    print("}")


def make_format(exp_bits, man_bits):
    bias = (1 << (exp_bits - 1)) - 1

    def value(bits):
        sign = -1 if bits >> (exp_bits + man_bits) else 1
        e = (bits >> man_bits) & ((1 << exp_bits) - 1)
        m = bits & ((1 << man_bits) - 1)
        if e == (1 << exp_bits) - 1:
            return None  # inf or nan
        if e == 0:
            return sign * Fraction(m, 1 << man_bits) * Fraction(2) ** (1 - bias)
        return sign * (1 + Fraction(m, 1 << man_bits)) * Fraction(2) ** (e - bias)

    positives = [(value(b), b) for b in range(1 << (exp_bits + man_bits)) if value(b) is not None]
    values = [v for v, _ in positives]
    top = values[-1] + (values[-1] - values[-2])  # overflow threshold neighbour
    sign_bit = 1 << (exp_bits + man_bits)

    def round_to_bits(x):
        neg = x < 0
        x = -x if neg else x
        if x >= (values[-1] + top) / 2:
            bits = ((1 << exp_bits) - 1) << man_bits  # inf
        else:
            k = bisect.bisect_left(values, x)
            if k == len(values):
                bits = positives[-1][1]  # above the largest finite, below the threshold
            elif values[k] == x:
                bits = positives[k][1]
            else:
                lo, hi = positives[k - 1], positives[k]
                dl, dh = x - lo[0], hi[0] - x
                bits = lo[1] if dl < dh or (dl == dh and lo[1] % 2 == 0) else hi[1]
        return bits | (sign_bit if neg else 0)

    return value, round_to_bits


def check(path):
    formats = {"f16": make_format(5, 10), "bf16": make_format(8, 7)}
    seen = 0
    for line in open(path):
        if not line.startswith("result "):
            continue
        head, body = line.split(" = ", 1)
        elt = head.split("x")[-1].rstrip(">")
        value, round_to_bits = formats[elt]
        texts = body.strip()[1:-1].split(", ")
        assert len(texts) == N, (elt, len(texts))
        for k, text in enumerate(texts):
            bits = N - 1 - k
            if text.startswith("nan(0x"):
                got = int(text[6:-1], 16)
                ok = got == bits and value(bits) is None
            elif text in ("inf", "-inf"):
                got = (0x7C00 if elt == "f16" else 0x7F80) | (0x8000 if text[0] == "-" else 0)
                ok = got == bits
            elif text == "-0":
                ok = bits == 0x8000
            else:
                got = round_to_bits(Fraction(text))
                ok = got == bits
            if not ok:
                sys.exit("%s bits 0x%04x printed as %r, which does not read back" % (elt, bits, text))
        seen += 1
        print("%s: all %d values round-trip" % (elt, N))
    if seen != 2:
        sys.exit("expected 2 results, got %d" % seen)


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen()
    else:
        check(sys.argv[2])
