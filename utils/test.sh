#!/usr/bin/env bash
# The test command: installs the dependencies (utils/setup.sh), builds
# (utils/build.sh) and runs the whole lit suite in build/test. The last line
# printed is the summary `N passed, N failed, N skipped`; the exit status is
# non-zero if any test failed, none passed, or the setup or build failed.
# Extra arguments go to lit (e.g. `utils/test.sh --filter Runner`).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
lit=/usr/lib/llvm-22/bin/lit

fail() {
  echo "error: $1" >&2
  echo "0 passed, 1 failed"
  exit 1
}

"$root/utils/setup.sh" || fail "installing the dependencies failed"
"$root/utils/build.sh" || fail "the build failed"

results=$build/test/results.json
rm -f "$results"
"$lit" -sv -o "$results" "$@" "$build/test"
lit_status=$?
[ -f "$results" ] || fail "lit wrote no results (exit status $lit_status)"

/usr/bin/python3 - "$results" <<'PY'
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
passed = sum(t["code"] in ("PASS", "XFAIL") for t in tests)
skipped = sum(t["code"] == "UNSUPPORTED" for t in tests)
failed = len(tests) - passed - skipped
for t in tests:
    if t["code"] not in ("PASS", "XFAIL", "UNSUPPORTED"):
        print(f"{t['code']}: {t['name']}")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or not passed else 0)
PY
