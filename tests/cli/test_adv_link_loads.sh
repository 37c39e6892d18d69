#!/usr/bin/env bash
# Checks of sim/adv_link_loads.py (a dragonfly's link loads under ADV+i, from
# `rlroute sim --links`): MIN under ADV+2 sends every inter-group packet over
# its group's direct link, so the other global links and the intermediate
# groups' transit links carry nothing; a torus CSV and a shift that maps
# every group to itself are refused with one line.
# usage: test_adv_link_loads.sh RLROUTE SOURCE_DIR WORKDIR
set -uo pipefail
rlroute=$(realpath "$1") src=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
loads() { /usr/bin/python3 "$src/sim/adv_link_loads.py" "$@"; }

"$rlroute" sim "$src/examples/dfly_2_4_2_9_min.toml" --pattern adv+2 --load 0.2 --warmup 200 --cycles 1000 \
  --drain 0 --quiet --links "$work/min.csv"
check "the run writes its links" test -s "$work/min.csv"
loads "$work/min.csv" --shift 2 > "$work/min.txt"
check "exits 0" test $? -eq 0
cat "$work/min.txt"
check "9 groups" grep -q '^.*adv+2, 9 groups$' "$work/min.txt"
check "MIN loads the 9 direct links" grep -qE '^global, direct to the destination group: 9 links, mean 0\.[0-9]*[1-9]' "$work/min.txt"
check "and no other global link" grep -qE '^global, the others: +63 links, mean 0\.000, min 0\.000, max 0\.000' "$work/min.txt"
check "nor a transit link of an intermediate group" \
  test "$(grep -cE '^local, on the minimal transit path of [1-9] source group\(s\): .* max 0\.000' "$work/min.txt")" -ge 1

"$rlroute" sim "$src/examples/torus4x4_dor.toml" --load 0.1 --warmup 100 --cycles 200 --drain 0 --quiet \
  --links "$work/torus.csv"
loads "$work/torus.csv" --shift 1 > /dev/null 2> "$work/err.txt"
check "a torus is refused" test $? -ne 0
check "in one line naming the router" \
  test "$(wc -l < "$work/err.txt")" -eq 1 -a "$(grep -c "is not a dragonfly router name" "$work/err.txt")" -eq 1
loads "$work/min.csv" --shift 9 > /dev/null 2> "$work/err.txt"
check "a shift of g is refused" grep -q 'shift 9 sends every group to itself' "$work/err.txt"

finish
