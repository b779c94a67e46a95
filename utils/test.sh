#!/usr/bin/env bash
# The test command: installs the dependencies (utils/setup.sh), builds
# (utils/build.sh) and runs the whole lit suite in build/test. The last line
# printed is the summary `N passed, N failed, N skipped`; the exit status is
# non-zero if any test failed, none passed, or the setup or build failed.
# Extra arguments go to lit (e.g. `utils/test.sh --filter Integration/Runner`).
#
# With GATHER_SANITIZERS=1 (as CI runs it, .ci/run) it also builds
# build-asan/ with AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer
# coverage and runs the suite there too, including the bounded fuzzer runs
# (docs/Robustness.md), and builds build-tsan/ with ThreadSanitizer for the
# thread tests (jit-threads.test), which run there too; the summary then
# counts every run. With GATHER_CLANG_TIDY=1 (as CI runs it) it also runs
# utils/clang-tidy.sh over the release build's sources, counted as one test
# (its log: build/clang-tidy.log).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
asan_build=${ASAN_BUILD_DIR:-$root/build-asan}
tsan_build=${TSAN_BUILD_DIR:-$root/build-tsan}
lit=/usr/lib/llvm-22/bin/lit
stage() { echo "test.sh: $1 ($SECONDS s since the start)"; }

fail() {
  echo "error: $1" >&2
  echo "0 passed, 1 failed"
  exit 1
}

"$root/utils/setup.sh" || fail "installing the dependencies failed"
stage "building $build"
"$root/utils/build.sh" || fail "the build failed"
builds=("$build")
if [ "${GATHER_SANITIZERS:-0}" = 1 ]; then
  stage "building $asan_build"
  BUILD_DIR=$asan_build "$root/utils/build.sh" \
    '-DLLVM_USE_SANITIZER=Address;Undefined' \
    '-DLLVM_UBSAN_FLAGS=-fsanitize=undefined -fno-sanitize-recover=all' \
    -DLLVM_USE_SANITIZE_COVERAGE=ON || fail "the sanitizer build failed"
  builds+=("$asan_build")
  # ThreadSanitizer: only what the thread tests run (the kernel API from
  # many threads); only those tests run there.
  stage "building $tsan_build"
  BUILD_DIR=$tsan_build GATHER_BUILD_TARGETS=gather-jit-threads \
    "$root/utils/build.sh" -DLLVM_USE_SANITIZER=Thread \
    || fail "the ThreadSanitizer build failed"
fi

results=()
run_lit() { # build directory, extra lit arguments...
  local b=$1
  shift
  stage "testing $b"
  rm -f "$b/test/results.json"
  "$lit" -sv -o "$b/test/results.json" "$@" "$b/test"
  lit_status=$?
  [ -f "$b/test/results.json" ] || fail "lit wrote no results in $b (exit status $lit_status)"
  results+=("$b/test/results.json")
}
for b in "${builds[@]}"; do
  run_lit "$b" "$@"
done
if [ "${GATHER_SANITIZERS:-0}" = 1 ]; then
  run_lit "$tsan_build" --filter 'jit-threads'
fi

tidy=none
if [ "${GATHER_CLANG_TIDY:-0}" = 1 ]; then
  stage "clang-tidy over $build's sources"
  if BUILD_DIR=$build "$root/utils/clang-tidy.sh" > "$build/clang-tidy.log" 2>&1; then
    tidy=pass
  else
    tidy=fail
    grep -E "(warning|error): " "$build/clang-tidy.log" | sort -u | head -50
  fi
fi

stage "done"
/usr/bin/python3 - "$tidy" "${results[@]}" <<'PY'
import json, os, sys
passed = failed = skipped = 0
if sys.argv[1] == "pass":
    passed += 1
elif sys.argv[1] == "fail":
    print(f"FAIL: clang-tidy (utils/clang-tidy.sh; log: build/clang-tidy.log)")
    failed += 1
for path in sys.argv[2:]:
    build = os.path.basename(os.path.dirname(os.path.dirname(path)))
    tests = json.load(open(path))["tests"]
    p = sum(t["code"] in ("PASS", "XFAIL") for t in tests)
    s = sum(t["code"] == "UNSUPPORTED" for t in tests)
    for t in tests:
        if t["code"] not in ("PASS", "XFAIL", "UNSUPPORTED"):
            print(f"{t['code']}: {t['name']} ({build})")
    passed, skipped, failed = passed + p, skipped + s, failed + len(tests) - p - s
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or not passed else 0)
PY
