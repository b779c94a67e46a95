#!/usr/bin/env python3
"""Writes the PTX of each GPU module of gpu-format=isa in an MLIR file.

Usage: extract-ptx.py INPUT.mlir OUTPUT_PREFIX  (writes OUTPUT_PREFIX<N>.ptx,
one per module, and prints their paths). The PTX is the `assembly` string of
a gpu.object, or the bytes of a gather-gpu-load-lazily binary global
(`@__gather_gpu_<module>_binary`, NUL-terminated), with MLIR's escapes
(\\XX hex, \\\\, \\") undone.
"""
import re
import sys


def unescape(text):
    return re.sub(r'\\([0-9A-Fa-f]{2}|\\|"|n|t)',
                  lambda m: {'\\': '\\', '"': '"', 'n': '\n', 't': '\t'}.get(
                      m.group(1)) or chr(int(m.group(1), 16)), text)


source = open(sys.argv[1]).read()
objects = re.findall(r'assembly = "((?:[^"\\]|\\.)*)"', source)
objects += re.findall(r'@__gather_gpu_\w+_binary\("((?:[^"\\]|\\.)*)"\)', source)
if not objects:
    sys.exit("no gpu.object with PTX (assembly) in " + sys.argv[1])
for n, ptx in enumerate(objects):
    path = f"{sys.argv[2]}{n}.ptx"
    with open(path, "w") as out:
        out.write(unescape(ptx).rstrip("\0"))
    print(path)
