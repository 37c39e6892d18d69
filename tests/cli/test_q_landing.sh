#!/usr/bin/env bash
# Checks of sim/q_landing.py (what Q-adaptive's intermediate routers
# estimate under ADV+i, from `rlroute sim --q-dump` and `--links`): under
# ADV+2 the landing routers' minimal local links are the loaded ones; the
# detour share follows the threshold (none at q_thld2 = 1, every other local
# column below any Q_min at a negative one: (a - 2) / (a - 1)); the rise over
# the same tables is zero, and so is the wait W taken out of the estimates; a torus, a shift of g, a file that is not a dump
# and the tables of another network are refused in one line.
# usage: test_q_landing.sh RLROUTE SOURCE_DIR WORKDIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: test_q_landing.sh RLROUTE SOURCE_DIR WORKDIR" >&2; exit 2; }  # a missing WORKDIR must not become /
rlroute=$(realpath "$1") src=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
landing() { /usr/bin/python3 "$src/sim/q_landing.py" "$@"; }
# a statistic of a section: stat SECTION-PREFIX NAME FILE -> its mean
stat() { awk -v s="$1" -v n="$2" 'index($0, s) == 1 { on = 1; next } /^[a-z]/ { on = 0 }
                                   on && index($0, "  " n " ") == 1 { print $(NF - 6); exit }' "$3"; }

"$rlroute" sim "$src/examples/dfly_2_4_2_9_q_adaptive.toml" --pattern adv+2 --load 1.0 --warmup 1500 --cycles 1000 \
  --drain 0 --quiet --links "$work/links.csv" --q-dump "$work/q.txt"
"$rlroute" sim "$src/examples/dfly_2_4_2_9_q_adaptive.toml" --pattern adv+2 --load 1.0 --warmup 0 --cycles 1 \
  --drain 0 --quiet --q-dump "$work/q0.txt" --q-dump-cycle 0
check "the runs write their tables" test -s "$work/q.txt" -a -s "$work/q0.txt"
check "--q-dump-cycle 0: the tables before the first cycle" grep -q '^# offered load 1: every router.s table at cycle 0$' "$work/q0.txt"
landing "$work/q.txt" "$work/links.csv" --shift 2 --initial "$work/q0.txt" > "$work/out.txt"
check "exits 0" test $? -eq 0
cat "$work/out.txt"
check "landing rows and other rows" \
  test "$(grep -cE '^(landing routers|other intermediate rows).*: [1-9][0-9]* rows$' "$work/out.txt")" -eq 2
check "ADV+2 loads the landing routers' minimal links more than the other rows'" /usr/bin/python3 -c "
import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if a > b else 1)" \
  "$(stat landing 'minimal local link utilisation' "$work/out.txt")" \
  "$(stat other 'minimal local link utilisation' "$work/out.txt")"
landing "$work/q.txt" "$work/links.csv" --shift 2 --thld2 1 > "$work/t1.txt"
check "q_thld2 = 1: no detour" test "$(stat landing 'detour probability' "$work/t1.txt")" = 0.000
landing "$work/q.txt" "$work/links.csv" --shift 2 --thld2 -1000 > "$work/tn.txt"
check "a negative q_thld2: every other local column, 2 of 3" test "$(stat landing 'detour probability' "$work/tn.txt")" = 0.667
landing "$work/q.txt" "$work/links.csv" --shift 2 --initial "$work/q.txt" > "$work/self.txt"
check "no rise over the same tables" test "$(stat landing "Q_min's rise" "$work/self.txt")" = 0.000
check "no wait W to take out then" test "$(stat landing "W: other local hops' rise" "$work/self.txt")" = 0.000
check "and the same detour probability without it" \
  test "$(stat landing 'detour probability without W' "$work/self.txt")" = "$(stat landing 'detour probability' "$work/self.txt")"

"$rlroute" sim "$src/examples/torus4x4_dor.toml" --load 0.1 --warmup 100 --cycles 200 --drain 0 --quiet \
  --links "$work/torus.csv"
landing "$work/q.txt" "$work/torus.csv" --shift 1 > /dev/null 2> "$work/err.txt"
check "a torus is refused in one line" \
  test $? -ne 0 -a "$(wc -l < "$work/err.txt")" -eq 1 -a "$(grep -c "is not a dragonfly router name" "$work/err.txt")" -eq 1
landing "$work/q.txt" "$work/links.csv" --shift 9 > /dev/null 2> "$work/err.txt"
check "a shift of g is refused" grep -q 'shift 9 sends every group to itself' "$work/err.txt"
landing "$work/links.csv" "$work/links.csv" --shift 2 > /dev/null 2> "$work/err.txt"
check "a file that is not a dump is refused in one line" \
  test $? -ne 0 -a "$(wc -l < "$work/err.txt")" -eq 1 -a "$(grep -c "has no Q-table" "$work/err.txt")" -eq 1
head -n 5 "$work/q0.txt" > "$work/short.txt"
landing "$work/q.txt" "$work/links.csv" --shift 2 --initial "$work/short.txt" > /dev/null 2> "$work/err.txt"
check "the tables of another network are refused in one line" \
  test $? -ne 0 -a "$(wc -l < "$work/err.txt")" -eq 1 -a "$(grep -c "not the tables of the same network" "$work/err.txt")" -eq 1

finish
