#!/bin/sh
# Interestingness test ($1 gather-opt, $2 the candidate) that hangs on any
# candidate without @ranked, and is otherwise cannot-lower.sh: @ranked stays
# in the reduced output (a candidate that times out is not interesting).
grep -q "func.func @ranked" "$2" || sleep 600
exec "$(dirname "$0")/cannot-lower.sh" "$1" "$2"
