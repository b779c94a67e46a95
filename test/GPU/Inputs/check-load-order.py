#!/usr/bin/env python3
"""Checks the memory order of gather kernels in PTX files.

Usage: check-load-order.py FILE.ptx...  For each kernel (.entry) prints
`<entry>: <n> loads (nc), then <m> stores/atomics` when every global load is
a read-only one (ld.global.nc) and comes before the first global store or
atomic; otherwise prints what breaks it and exits 1.
"""
import re
import sys

status = 0
for path in sys.argv[1:]:
    text = open(path).read()
    for entry in re.finditer(r"\.entry (\w+)\((.*?)\n\}", text, re.S):
        name, body = entry.group(1), entry.group(2)
        ops = re.findall(r"^\s*(?:@%p\d+\s+)?(ld\.global\S*|st\.global\S*|atom\.global\S*)",
                         body, re.M)
        loads = [i for i, op in enumerate(ops) if op.startswith("ld.")]
        writes = [i for i, op in enumerate(ops) if not op.startswith("ld.")]
        plain = [op for op in ops if op.startswith("ld.") and not op.startswith("ld.global.nc")]
        if plain:
            print(f"{name}: a load that is not read-only: {plain[0]}")
            status = 1
        elif writes and loads and max(loads) > min(writes):
            print(f"{name}: a load after a store or atomic: {ops}")
            status = 1
        else:
            print(f"{name}: {len(loads)} loads (nc), then {len(writes)} stores/atomics")
sys.exit(status)
