#!/bin/sh
# Interestingness test that is not deterministic: $1 is a counter file, $2
# the number of calls answered "interesting" (exit status 1), then the
# others "not interesting"; with $3 = alternate, it alternates instead.
n=$(($(cat "$1" 2>/dev/null || echo 0) + 1))
echo $n > "$1"
if [ "$3" = alternate ]; then [ $((n % 2)) = 1 ] && exit 1; exit 0; fi
[ $n -le "$2" ] && exit 1
exit 0
