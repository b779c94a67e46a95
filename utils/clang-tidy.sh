#!/usr/bin/env bash
# Runs clang-tidy 22 with the repository's .clang-tidy over the C and C++
# sources the build compiles (build/compile_commands.json), examples/, and the
# headers they include from this tree; fails on any warning.
#   utils/clang-tidy.sh                  every source (about 10 CPU-minutes)
#   utils/clang-tidy.sh lib/Pipelines    only sources whose path starts so
# Needs Debian's clang-tidy-22 (utils/setup.sh installs it) and a build
# (utils/build.sh); BUILD_DIR and JOBS (default: all cores) as for the other
# scripts.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
tidy=$(command -v clang-tidy-22 || true)
runner=/usr/lib/llvm-22/bin/run-clang-tidy
if [[ -z $tidy || ! -x $runner ]]; then
  echo "clang-tidy.sh: needs clang-tidy-22 (apt-get install clang-tidy-22)" >&2
  exit 1
fi
if [[ ! -f $build/compile_commands.json ]]; then
  echo "clang-tidy.sh: no $build/compile_commands.json (build first)" >&2
  exit 1
fi
prefixes="bench|examples|include|lib|python|test|tools"
if (($#)); then
  prefixes=$(IFS='|'; echo "$*")
fi
headers="^$root/(bench|include|lib|python|test|tools)/"
status=0
"$runner" -p "$build" -j "${JOBS:-$(nproc)}" -quiet -clang-tidy-binary "$tidy" \
  -header-filter="$headers" -source-filter="^$root/($prefixes)" \
  -warnings-as-errors='*' || status=1
# examples/ is built only against an install tree (test/Install): its flags.
for file in "$root"/examples/*.c "$root"/examples/*.cpp; do
  [[ ${file#"$root"/} =~ ^($prefixes) ]] || continue
  flags=(-I"$root/include" -I"$build/include" -isystem /usr/lib/llvm-22/include)
  [[ $file == *.cpp ]] && flags+=(-std=c++17)
  "$tidy" -quiet --header-filter="$headers" --warnings-as-errors='*' "$file" \
    -- "${flags[@]}" || status=1
done
exit $status
