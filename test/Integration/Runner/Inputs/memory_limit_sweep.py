#!/usr/bin/env python3
# Part of the gather project.
# Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
# license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs gather-runner on a module with a 16 MiB constant under address-space
limits (RLIMIT_AS, as `ulimit -v` sets it) below and around the smallest
limit it runs under, in 4 MiB steps, and prints what each run did.

Every run must print the right value with exit status 0, or an error with
exit status 1; a signal (the JIT's SIGSEGV near the limit) or another status
is a failure. The process must first start: under the smallest limits the
dynamic loader cannot map or relocate its libraries (exit status 127), and
within about a MiB above that the libraries' own static constructors (LLVM's,
libstdc++'s, MPICH's transport) run out of memory and abort before main,
before any of gather's code has run. So the sweep first finds the smallest
limit under which `gather-runner --version` exits 0 (to 256 KiB; it varies by
a fraction of a MiB with address-space randomization) and skips the limits
less than 2 MiB above it, counted as "not started". The window is found on
this machine, so it follows the process's own size (libraries, threads)
wherever the test runs.

Usage: memory_limit_sweep.py <gather-runner> <work dir> [<runner option>...]
"""

import concurrent.futures
import os
import resource
import subprocess
import sys

SIZE = 2048
MIB = 1 << 20
# Above the start-up limit, where the process surely gets to main.
START_MARGIN = 2 * MIB


def write_module(path):
    # data[i][j] = (i * SIZE + j) % 1000, gathered with index 3 along axis 1;
    # the entry returns result[5][7] = data[5][3] = 243.
    values = bytearray()
    for k in range(SIZE * SIZE):
        values += ((k % 1000)).to_bytes(4, "little")
    with open(path, "w") as f:
        f.write("func.func @main() -> i32 {\n")
        f.write("  %c5 = arith.constant 5 : index\n")
        f.write("  %c7 = arith.constant 7 : index\n")
        f.write(f'  %d = arith.constant dense<"0x{values.hex().upper()}"> '
                f": tensor<{SIZE}x{SIZE}xi32>\n")
        f.write(f"  %i = arith.constant dense<3> : tensor<{SIZE}x{SIZE}xi64>\n")
        f.write(f"  %r = onnx.GatherElements %d, %i axis = 1 : "
                f"tensor<{SIZE}x{SIZE}xi32>, tensor<{SIZE}x{SIZE}xi64>\n")
        f.write(f"  %e = tensor.extract %r[%c5, %c7] : "
                f"tensor<{SIZE}x{SIZE}xi32>\n")
        f.write("  return %e : i32\n}\n")


def execute(command, limit):
    """The completed process of `command` under `limit` bytes of address
    space."""

    def set_limit():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    # One malloc arena: glibc gives each thread that contends for malloc an
    # arena of its own (64 MiB of address space each), so that the limit a
    # run needs would move with the machine's load.
    env = dict(os.environ, MALLOC_ARENA_MAX="1")
    return subprocess.run(command, preexec_fn=set_limit, capture_output=True,
                          text=True, timeout=300, env=env)


def starts(runner, limit):
    result = execute([runner, "--version"], limit)
    return result.returncode == 0 and "gather version" in result.stdout


def run(runner, module, limit, options):
    """(outcome, detail) of one run under `limit` bytes of address space."""
    result = execute(
        [runner, module, "-e", "main", "--entry-point-result=i32"] + options,
        limit)
    if result.returncode == 0 and result.stdout == "243\n":
        return "ran", ""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    if result.returncode == 1 and lines and "error:" in lines[-1] and \
            "Stack dump" not in result.stderr:
        return "error", lines[-1]
    return "failure", f"exit status {result.returncode}: " + \
        (lines[-1] if lines else "(no message)")


def bisect(low, high, works, step):
    """The smallest limit in (low, high], to `step`, under which `works`
    does (it does under `high`)."""
    while high - low > step:
        middle = (low + high) // 2
        if works(middle):
            high = middle
        else:
            low = middle
    return high


def main():
    runner, work, options = sys.argv[1], sys.argv[2], sys.argv[3:]
    module = os.path.join(work, "large-constant.mlir")
    write_module(module)
    high = 16 << 30
    if run(runner, module, high, options)[0] != "ran":
        print("does not run under 16 GiB")
        return 1
    startup = bisect(0, high, lambda limit: starts(runner, limit), MIB // 4)
    smallest = bisect(startup, high,
                      lambda limit: run(runner, module, limit,
                                        options)[0] == "ran", 4 * MIB)
    limits = [smallest + step * 4 * MIB for step in range(-88, 17)]
    tried = [limit for limit in limits if limit >= startup + START_MARGIN]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(
            pool.map(lambda limit: run(runner, module, limit, options), tried))
    counts = {"ran": 0, "error": 0, "failure": 0}
    messages = set()
    for limit, (outcome, detail) in zip(tried, outcomes):
        counts[outcome] += 1
        if outcome == "failure":
            print(f"FAILURE under {limit / MIB:.2f} MiB: {detail}")
        elif outcome == "error":
            messages.add(detail.split(": error: ", 1)[-1])
    print(f"{len(limits)} limits from {limits[0] // MIB} to "
          f"{limits[-1] // MIB} MiB")
    print(f"ran: {counts['ran']}, errors: {counts['error']}, "
          f"not started: {len(limits) - len(tried)}, "
          f"failures: {counts['failure']}")
    for message in sorted(messages):
        print(f"message: {message}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
