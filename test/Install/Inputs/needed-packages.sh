#!/bin/sh
# needed-packages.sh ROOT: the Debian packages that own the shared libraries
# the ELF files under ROOT/usr/bin and ROOT/usr/lib (not below) name in
# DT_NEEDED, one per line, sorted; libraries found under ROOT itself (the
# package's own, through $ORIGIN) are left out. Direct dependencies only:
# the packages of those pull in their own.
set -eu
root=$1
owner() {
  # The package of the file itself, not of a symlink to it (a -dev package's
  # in /usr/lib/llvm-22/lib); dpkg knows it by the path its package ships it
  # at: with merged /usr, /lib/x86_64-linux-gnu/libc.so.6 rather than
  # /usr/lib/...
  real=$(readlink -f "$1")
  for candidate in "$real" "${real#/usr}"; do
    if found=$(dpkg-query -S "$candidate" 2>/dev/null); then
      echo "$found" | sed 's/[:,].*//'
      return
    fi
  done
  echo "no package owns $1" >&2
  exit 1
}
for file in "$root"/usr/bin/* "$root"/usr/lib/*.so; do
  [ -f "$file" ] || continue
  resolved=$(env -u LD_LIBRARY_PATH ldd "$file")
  for needed in $(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    path=$(echo "$resolved" | awk -v n="$needed" '$1 == n { print $3 }')
    case "$path" in
      "$root"/*) ;;
      /*) owner "$path" ;;
      *) echo "$file: $needed not found" >&2; exit 1 ;;
    esac
  done
done | sort -u
