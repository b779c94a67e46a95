#!/usr/bin/env bash
# Runs every libFuzzer target of the sanitizer build (build-asan/bin/
# gather-fuzz-<name>, seeded with test/Fuzz/corpus-<name>), K at a time
# (--jobs), each for its share of N minutes (--minutes: N split evenly over
# the rounds of K) or until it has run R inputs (--runs), and prints per
# target the inputs run, the coverage (libFuzzer's cov / ft), the time and the
# findings (crash-, timeout-, oom- and leak- artifacts, with their paths;
# slow-unit- ones, inputs over 10 s but under the 90 s timeout, are listed
# apart).
# A finding does not stop a target: libFuzzer stops at it (saving the
# artifact) and is started again on the grown corpus for the time left, so
# each target runs its whole share (`starts` counts them). The exit
# status is 1 if any target had a finding or failed to run, 2 for a usage
# error, else 0.
#
# Usage: utils/fuzz.sh [--minutes N] [--runs R] [--jobs K] [--build DIR]
#                      [--out DIR] [--only NAME] [-- LIBFUZZER-FLAGS...]
#   --minutes N  total time, all targets together (default 10, or none with
#                --runs; may be a decimal, e.g. 0.5); with --jobs K, the
#                targets run K at a time, so each gets N * K / targets
#   --runs R     each target runs until it has run R inputs (libFuzzer's
#                -runs, summed over its starts); with --minutes too, it
#                stops at whichever comes first
#   --jobs K     run K targets at once (default 1; each is one process, so
#                up to the machine's cores)
#   --build DIR  the sanitizer build (default build-asan; make it as
#                utils/test.sh does with GATHER_SANITIZERS=1)
#   --out DIR    where each target's corpus, artifacts and log go (default
#                a new directory under /tmp); the corpora grow between runs
#                into the same DIR
#   --only NAME  only gather-fuzz-NAME (may be repeated)
#   -- FLAGS...  more libFuzzer flags for every target, after the CI runs'
#                (e.g. -detect_leaks=0: leaks found at exit only, not per
#                input, which saves re-running and heap scans)
# The build is not rebuilt here. See docs/Robustness.md.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
minutes=
runs=
jobs=1
build=$root/build-asan
out=
only=()
extra=()

usage() {
  sed -n '2,/^# The build is not/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case $1 in
  --minutes) [ $# -ge 2 ] || usage; minutes=$2; shift 2 ;;
  --minutes=*) minutes=${1#*=}; shift ;;
  --runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
  --runs=*) runs=${1#*=}; shift ;;
  --jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
  --jobs=*) jobs=${1#*=}; shift ;;
  --build) [ $# -ge 2 ] || usage; build=$2; shift 2 ;;
  --build=*) build=${1#*=}; shift ;;
  --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
  --out=*) out=${1#*=}; shift ;;
  --only) [ $# -ge 2 ] || usage; only+=("$2"); shift 2 ;;
  --only=*) only+=("${1#*=}"); shift ;;
  --) shift; extra=("$@"); break ;;
  -h | --help) usage ;;
  *) echo "fuzz.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
if [ -z "$minutes" ] && [ -z "$runs" ]; then
  minutes=10
fi
if [ -n "$minutes" ] && { ! [[ $minutes =~ ^[0-9]+(\.[0-9]+)?$ ]] || [ "$(awk "BEGIN{print ($minutes > 0)}")" != 1 ]; }; then
  echo "fuzz.sh: --minutes takes a number of minutes > 0, not '$minutes'" >&2
  exit 2
fi
if [ -n "$runs" ] && ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: --runs takes a number of inputs > 0, not '$runs'" >&2
  exit 2
fi
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: --jobs takes a number of targets > 0, not '$jobs'" >&2
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

# With --minutes, each target's share: N minutes over the rounds of --jobs
# targets at a time; with --runs alone, no time limit.
jobs=$((jobs < ${#targets[@]} ? jobs : ${#targets[@]}))
rounds=$(((${#targets[@]} + jobs - 1) / jobs))
seconds=
if [ -n "$minutes" ]; then
  seconds=$(awk "BEGIN{s = int($minutes * 60 / $rounds); print (s < 1 ? 1 : s)}")
fi
echo "fuzz.sh: ${#targets[@]} targets (${targets[*]}), $jobs at a time, each for ${seconds:+$seconds s}${seconds:+${runs:+ or }}${runs:+$runs inputs}, in $out"
echo "fuzz.sh: CPU: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p') ($(nproc) CPUs); load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"

# Runs gather-fuzz-$1 for its share; writes its table row to $dir/row and
# what it has to say (summary, slow inputs, findings) to $dir/report, and 1
# to $dir/status if it had a finding or printed no status (else 0).
fuzz_target() {
  local name=$1 dir=$out/$1
  mkdir -p "$dir/corpus" "$dir/artifacts"
  local start=$SECONDS deadline= inputs=0 starts=0 last= fuzzer_status=0
  local status=0 log run_start executed line limits
  [ -n "$seconds" ] && deadline=$((SECONDS + seconds))
  {
    # One libFuzzer process at a time; after a finding (it stops there, the
    # artifact saved) the next one goes on from the corpus for the time (or
    # the inputs) left. The limits are those of the CI runs
    # (test/Fuzz/*.test).
    while { [ -z "$deadline" ] || [ $((deadline - SECONDS)) -gt 0 ]; } &&
      { [ -z "$runs" ] || [ "$inputs" -lt "$runs" ]; }; do
      starts=$((starts + 1))
      log=$dir/run-$starts.log
      run_start=$SECONDS
      limits=()
      [ -n "$deadline" ] && limits+=(-max_total_time=$((deadline - SECONDS)))
      [ -n "$runs" ] && limits+=(-runs=$((runs - inputs)))
      "$build/bin/gather-fuzz-$name" "${limits[@]}" \
        -timeout=90 -rss_limit_mb=3072 -print_final_stats=1 "${extra[@]}" \
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
    local elapsed=$((SECONDS - start))
    # The last status line: `#<n> ... cov: <n> ft: <n> ...`.
    local cov ft corpus_size findings count slow slow_count rate
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
    printf '%-18s %10s %8s %8s %8s %8s %6s %6s %5s %9s\n' \
      "gather-fuzz-$name" "$inputs" "$rate" "${cov:-?}" "${ft:-?}" \
      "$corpus_size" "${elapsed}s" "$starts" "$slow_count" "$count" >"$dir/row"
    echo "fuzz.sh: gather-fuzz-$name: $inputs inputs in ${elapsed} s (logs: $dir/run-*.log)"
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
      sed 's/^/  /' <<<"$slow"
    fi
    if [ "$count" -gt 0 ]; then
      status=1
      echo "fuzz.sh: gather-fuzz-$name: $count findings:"
      sed 's/^/  /' <<<"$findings"
    fi
  } >"$dir/report"
  echo "$status" >"$dir/status"
}

# K targets at a time (each in the background), reported in order.
status=0
for name in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
    wait -n
  done
  echo "fuzz.sh: gather-fuzz-$name started"
  rm -f "$out/$name/status"
  fuzz_target "$name" &
done
wait
for name in "${targets[@]}"; do
  cat "$out/$name/report"
  [ "$(cat "$out/$name/status" 2>/dev/null)" = 0 ] || status=1
done

echo
printf '%-18s %10s %8s %8s %8s %8s %6s %6s %5s %9s\n' target inputs \
  inputs/s cov ft corpus time starts slow findings
for name in "${targets[@]}"; do
  cat "$out/$name/row"
done
echo "fuzz.sh: findings reproduce with: $build/bin/gather-fuzz-<name> <artifact> (GATHER_FUZZ_PRINT=1 shows a generated program)"
exit $status
