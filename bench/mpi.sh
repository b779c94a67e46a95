#!/usr/bin/env bash
# The kernel partitioned over MPI processes (shard-grid) against one process:
# workload e ([8192,8192] f32, i64 indices, axis 1) and its axis-0 variant,
# 1 process x 1 and 2 threads, 1 and 2 MPI ranks x 1 thread (MPICH; for e
# both shard-assembly schemes). Prints a Markdown table (median ms per call,
# the slowest rank; MiB each rank passes to the collective that moves the
# result, and the model's bytes sent per rank). Usage: bench/mpi.sh [REPS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bench=${BUILD_DIR:-$root/build}/bin/gather-mpi-bench
reps=${1:-3}
echo "| workload | run | ms per call | collective payload per rank | model: bytes sent per rank | result |"
echo "|---|---|---|---|---|---|"
for w in e e_axis0; do
  OMP_NUM_THREADS=1 "$bench" --workload=$w --threads=1 --reps="$reps"
  OMP_NUM_THREADS=2 "$bench" --workload=$w --threads=2 --reps="$reps"
  for r in 1 2; do
    if [ $w = e ]; then
      for a in all-gather all-reduce; do
        mpirun.mpich -np $r "$bench" --workload=$w --threads=1 --ranks=$r \
          --assembly=$a --reps="$reps"
      done
    else
      mpirun.mpich -np $r "$bench" --workload=$w --threads=1 --ranks=$r \
        --reps="$reps"
    fi
  done
done
