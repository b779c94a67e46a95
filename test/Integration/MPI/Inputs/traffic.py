"""Bytes each MPI process sends, measured against the model.

For each scheme and process count given, compiles the gather of the input
file with the collective's remark (gather-opt, the sharding stages of
onnx-to-llvm, gather-shard-prepare-for-mpi{remarks=true}: the model's bytes
per process), runs it under mpirun with test/lib/MPITraffic preloaded into
the ranks (the bytes each process hands to MPI, as the bandwidth-optimal
algorithm sends them), and prints one line per rank:

  <scheme> N=<n> rank <r>: model <bytes> sent <bytes> (<functions>) check <bytes> in <calls>

`sent` is the sum over the MPI functions the scheme calls (an all-to-all
calls three). `check` is the index-error consensus (the 8-byte
all-reduces). Exit status 1
when a rank's bytes differ from the model by more than 5 % (even splits).

Usage: traffic.py FILE BUILD_BIN TRAFFIC_LIB TMP SCHEME:N[:OPTIONS]...
"""
import os
import re
import subprocess
import sys

SCHEMES = {
    "all-gather": "shard-dim=0 shard-assembly=all-gather",
    "all-reduce": "shard-dim=0 shard-assembly=all-reduce",
    "axis": "shard-dim=1 shard-axis-scheme=all-reduce",
    "all-gather-data": "shard-dim=1 shard-axis-scheme=all-gather-data",
    "all-to-all": "shard-dim=1 shard-axis-scheme=all-to-all",
}


def main():
    source, bindir, lib, tmp = sys.argv[1:5]
    ok = True
    for spec in sys.argv[5:]:
        scheme, n = spec.split(":")[:2]
        options = f"shard-grid={n} {SCHEMES[scheme]}"
        assembly = "all-reduce" if "all-reduce" in options else "all-gather"
        axis_scheme = re.search(r"shard-axis-scheme=(\S+)", options)
        shard_dim = re.search(r"shard-dim=(\S+)", options).group(1)
        # The sharding stage with onnx-shard-gathers' remarks (the scheme
        # of an axis split and its bytes).
        sharding = (f"onnx-shard-gathers{{grid-size={n} shard-dim={shard_dim} "
                    f"axis-scheme={axis_scheme.group(1) if axis_scheme else 'auto'} "
                    f"remarks=true}},gather-shard-partition-functions")
        stages = ",".join([f"gather-pipeline-onnx-preprocessing{{{options}}}",
                           sharding,
                           f"gather-pipeline-onnx-to-linalg{{{options}}}"])
        remarks = subprocess.run(
            [os.path.join(bindir, "gather-opt"), source, "-o", os.devnull,
             f"--pass-pipeline=builtin.module({stages},"
             f"gather-shard-prepare-for-mpi{{assembly={assembly} remarks=true}})"],
            capture_output=True, text=True, check=True).stderr
        # The scheme's remark (every collective of an axis split), else the
        # one collective's.
        model = [int(m) for m in re.findall(
            r"axis split by \S+ \(axis-scheme=\S+\): (\d+) bytes per process",
            remarks)]
        if not model:
            model = [int(m) for m in
                     re.findall(r"(\d+) bytes per process", remarks)]
        if len(model) != 1:
            sys.exit(f"{scheme} N={n}: expected one collective remark, got:\n{remarks}")
        prefix = os.path.join(tmp, f"traffic.{scheme}.{n}")
        env = dict(os.environ, GATHER_MPI_TRAFFIC=prefix)
        subprocess.run(
            ["timeout", "120", "mpirun.mpich", "-np", n, "-genv", "LD_PRELOAD", lib,
             os.path.join(bindir, "gather-runner"), source, "-e", "main",
             "--entry-point-result=void", f"--pipeline-options={options}"],
            env=env, check=True, stdout=subprocess.DEVNULL)
        for rank in range(int(n)):
            lines = open(f"{prefix}.{rank}").read().split("\n")
            rows = {}
            for line in lines:
                f = line.split()
                if f:
                    rows[f[2]] = (int(f[4]), int(f[8]))
            moved = [(name, sent) for name, (_, sent) in sorted(rows.items())
                     if name not in ("small", "MPI_Allgather")]
            if not moved:
                sys.exit(f"{scheme} N={n} rank {rank}: expected a collective, got {rows}")
            name = "+".join(name for name, _ in moved)
            sent = sum(sent for _, sent in moved)
            calls, check = rows.get("small", (0, 0))
            good = abs(sent - model[0]) <= 0.05 * model[0]
            ok = ok and good
            print(f"{scheme} N={n} rank {rank}: model {model[0]} sent {sent} "
                  f"({name}) check {check} in {calls}"
                  + ("" if good else " MISMATCH"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
