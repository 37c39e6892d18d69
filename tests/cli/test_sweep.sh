#!/usr/bin/env bash
# sim/sweep.py on a small sweep: a line per point with its place in the sweep
# and an estimate of the time left, a row per point in sweep.csv, and a
# sweep CSV that rlroute report takes.
# usage: test_sweep.sh RLROUTE SOURCE_DIR WORKDIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: test_sweep.sh RLROUTE SOURCE_DIR WORKDIR" >&2; exit 2; }  # a missing WORKDIR must not become /
rlroute=$(realpath "$1") src=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"

/usr/bin/python3 "$src/sim/sweep.py" --rlroute "$rlroute" --configs "$src/examples/torus4x4_dor.toml" \
  --loads 0.1,0.2,0.3 --cycles 300 --warmup 50 --out "$work/sweep" > "$work/out.txt" 2>&1
check "sweep exits 0" test $? -eq 0
for k in 1 2 3; do
  check "sweep: point $k of 3 says where it is and what is left" \
    grep -qE "\[$k/3, [0-9]+ s so far, about [0-9]+ (s|min) left\]" "$work/out.txt"
done
check "sweep: a CSV row per point" test "$(grep -c '^torus4x4_dor,' "$work/sweep/sweep.csv")" -eq 3
"$rlroute" report "$work/sweep/sweep.csv" -o "$work/report.html" 2> /dev/null
check "rlroute report takes the sweep's CSV" grep -q '<figure class="plot">' "$work/report.html"
finish
