#!/usr/bin/env bash
# Runs every libFuzzer target of the sanitizer build (build-asan/bin/
# gather-fuzz-<name>, seeded with test/Fuzz/corpus-<name>) one after the
# other for a total of N minutes, split evenly, and prints per target the
# inputs run, the coverage (libFuzzer's cov / ft), the time and the findings
# (crash-, timeout-, oom- and leak- artifacts, with their paths; slow-unit-
# ones, inputs over 10 s but under the 30 s timeout, are listed apart).
# A finding does not stop a target: libFuzzer stops at it (saving the
# artifact) and is started again on the grown corpus for the time left, so
# each target runs its whole share (`runs` counts the starts). The exit
# status is 1 if any target had a finding or failed to run, 2 for a usage
# error, else 0.
#
# Usage: utils/fuzz.sh [--minutes N] [--build DIR] [--out DIR] [--only NAME]
#   --minutes N  total time, all targets together (default 10; may be a
#                decimal, e.g. 0.5)
#   --build DIR  the sanitizer build (default build-asan; make it as
#                utils/test.sh does with GATHER_SANITIZERS=1)
#   --out DIR    where each target's corpus, artifacts and log go (default
#                a new directory under /tmp); the corpora grow between runs
#                into the same DIR
#   --only NAME  only gather-fuzz-NAME (may be repeated)
# The build is not rebuilt here. See docs/Robustness.md.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
minutes=10
build=$root/build-asan
out=
only=()

usage() {
  sed -n '2,/^# The build is not/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case $1 in
  --minutes) [ $# -ge 2 ] || usage; minutes=$2; shift 2 ;;
  --minutes=*) minutes=${1#*=}; shift ;;
  --build) [ $# -ge 2 ] || usage; build=$2; shift 2 ;;
  --build=*) build=${1#*=}; shift ;;
  --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
  --out=*) out=${1#*=}; shift ;;
  --only) [ $# -ge 2 ] || usage; only+=("$2"); shift 2 ;;
  --only=*) only+=("${1#*=}"); shift ;;
  -h | --help) usage ;;
  *) echo "fuzz.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
if ! [[ $minutes =~ ^[0-9]+(\.[0-9]+)?$ ]] || [ "$(awk "BEGIN{print ($minutes > 0)}")" != 1 ]; then
  echo "fuzz.sh: --minutes takes a number of minutes > 0, not '$minutes'" >&2
  exit 2
fi

# The targets: every fuzzer binary with a seed corpus.
targets=()
for corpus in "$root"/test/Fuzz/corpus-*; do
  [ -d "$corpus" ] || continue
  name=${corpus##*/corpus-}
  if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$name"; then
    continue
  fi
  targets+=("$name")
done
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz.sh: no fuzz target (test/Fuzz/corpus-<name>) matches" >&2
  exit 2
fi
for name in "${targets[@]}"; do
  if [ ! -x "$build/bin/gather-fuzz-$name" ]; then
    echo "fuzz.sh: $build/bin/gather-fuzz-$name is missing: build the sanitizer build first (utils/test.sh with GATHER_SANITIZERS=1, or utils/build.sh with its flags)" >&2
    exit 2
  fi
done
if [ -z "$out" ]; then
  out=$(mktemp -d /tmp/gather-fuzz.XXXXXX)
fi
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)

# As the sanitizer build's tests run (test/lit.cfg.py): LeakSanitizer's
# suppressions of upstream statics, and UCX (loaded by MPICH) not patching
# mmap, which crashes under ASan at start-up.
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/utils/lsan.supp}
export UCX_MEM_MMAP_HOOK_MODE=${UCX_MEM_MMAP_HOOK_MODE:-none}

seconds=$(awk "BEGIN{s = int($minutes * 60 / ${#targets[@]}); print (s < 1 ? 1 : s)}")
echo "fuzz.sh: ${#targets[@]} targets (${targets[*]}), $seconds s each, in $out"
echo "fuzz.sh: CPU: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p') ($(nproc) CPUs)"

status=0
rows=()
for name in "${targets[@]}"; do
  dir=$out/$name
  mkdir -p "$dir/corpus" "$dir/artifacts"
  echo "fuzz.sh: gather-fuzz-$name for $seconds s (logs: $dir/run-*.log)"
  start=$SECONDS
  deadline=$((SECONDS + seconds))
  inputs=0 runs=0 last= fuzzer_status=0
  # One libFuzzer process at a time; after a finding (it stops there, the
  # artifact saved) the next one goes on from the corpus for the time left.
  # The limits are those of the CI runs (test/Fuzz/*.test).
  while [ $((deadline - SECONDS)) -gt 0 ]; do
    runs=$((runs + 1))
    log=$dir/run-$runs.log
    run_start=$SECONDS
    "$build/bin/gather-fuzz-$name" -max_total_time=$((deadline - SECONDS)) \
      -timeout=30 -rss_limit_mb=3072 -print_final_stats=1 \
      -artifact_prefix="$dir/artifacts/" "$dir/corpus" \
      "$root/test/Fuzz/corpus-$name" >"$log" 2>&1
    fuzzer_status=$?
    executed=$(sed -nE 's/^stat::number_of_executed_units: ([0-9]+)/\1/p' "$log" | tail -n 1)
    line=$(grep -E '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
    [ -n "$line" ] && last=$line
    [ -z "$executed" ] && executed=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$line")
    inputs=$((inputs + ${executed:-0}))
    [ "$fuzzer_status" = 0 ] && break
    # A finding at once (e.g. in the seed corpus) would only repeat.
    [ $((SECONDS - run_start)) -lt 3 ] && break
  done
  elapsed=$((SECONDS - start))
  # The last status line: `#<n> ... cov: <n> ft: <n> ...`.
  cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
  corpus_size=$(find "$dir/corpus" -type f | wc -l)
  findings=$(find "$dir/artifacts" -type f \( -name 'crash-*' -o \
    -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | sort)
  count=$(grep -c . <<<"$findings")
  # Inputs slower than libFuzzer's -report_slow_units (10 s) but under
  # -timeout: listed, not findings.
  slow=$(find "$dir/artifacts" -type f -name 'slow-unit-*' | sort)
  slow_count=$(grep -c . <<<"$slow")
  rate=$(awk "BEGIN{printf \"%.1f\", $inputs / ($elapsed > 0 ? $elapsed : 1)}")
  rows+=("$(printf '%-18s %10s %8s %8s %8s %8s %6s %5s %5s %9s' \
    "gather-fuzz-$name" "$inputs" "$rate" "${cov:-?}" "${ft:-?}" \
    "$corpus_size" "${elapsed}s" "$runs" "$slow_count" "$count")")
  if [ -z "$last" ]; then
    echo "fuzz.sh: gather-fuzz-$name printed no status (exit status $fuzzer_status); the end of its log:"
    tail -n 20 "$log"
    status=1
  fi
  # Each target's own summary line (e.g. `gather-fuzz-mlir: N inputs: ...`),
  # printed by a run that ended without a finding.
  cat "$dir"/run-*.log | grep -E "^gather-fuzz-$name: " | tail -n 1
  if [ "$slow_count" -gt 0 ]; then
    echo "fuzz.sh: gather-fuzz-$name: $slow_count inputs slower than 10 s (not findings):"
    while read -r artifact; do
      echo "  $artifact"
    done <<<"$slow"
  fi
  if [ "$count" -gt 0 ]; then
    status=1
    echo "fuzz.sh: gather-fuzz-$name: $count findings:"
    while read -r artifact; do
      echo "  $artifact"
    done <<<"$findings"
  fi
done

echo
printf '%-18s %10s %8s %8s %8s %8s %6s %5s %5s %9s\n' target inputs \
  inputs/s cov ft corpus time runs slow findings
printf '%s\n' "${rows[@]}"
echo "fuzz.sh: findings reproduce with: $build/bin/gather-fuzz-<name> <artifact> (GATHER_FUZZ_PRINT=1 shows a generated program)"
exit $status
