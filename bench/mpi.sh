#!/usr/bin/env bash
# The kernel partitioned over MPI processes (shard-grid) against one process,
# one command (after utils/build.sh): workloads e (rows split), e_axis0 (the
# axis split) and v (vocabulary-parallel), 1 process x 1 and 2 threads and
# mpirun.mpich -np 1, 2, 4 x 1 thread, inputs whole and split (shard-io).
# Prints a Markdown table (ms per call, peak RSS, bytes sent per process
# measured and modelled, bit-identical check) and the targets; writes
# build/bench-results/mpi.json. Arguments go to bench/mpi.py (--reps N,
# --only e,v, --ranks 1,2, --io split, --axis-schemes auto,all-to-all).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exec /usr/bin/python3 "$root/bench/mpi.py" "$@"
