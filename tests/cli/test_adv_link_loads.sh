#!/usr/bin/env bash
# Checks of sim/adv_link_loads.py (a dragonfly's link loads under ADV+i, from
# `rlroute sim --links`): MIN under ADV+2 sends every inter-group packet over
# its group's direct link, so the other global links and the intermediate
# groups' transit links carry nothing; a torus CSV and a shift that maps
# every group to itself are refused with one line.
# usage: test_adv_link_loads.sh RLROUTE SOURCE_DIR WORKDIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: test_adv_link_loads.sh RLROUTE SOURCE_DIR WORKDIR" >&2; exit 2; }  # a missing WORKDIR must not become /
rlroute=$(realpath "$1") src=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
loads() { /usr/bin/python3 "$src/sim/adv_link_loads.py" "$@"; }

"$rlroute" sim "$src/examples/dfly_2_4_2_9_min.toml" --pattern adv+2 --load 0.2 --warmup 200 --cycles 1000 \
  --drain 0 --quiet --links "$work/min.csv" --json "$work/min.json"
check "the run writes its links" test -s "$work/min.csv"
loads "$work/min.csv" --shift 2 > "$work/min.txt"
check "exits 0" test $? -eq 0
cat "$work/min.txt"
check "9 groups" grep -q '^.*adv+2, 9 groups$' "$work/min.txt"
check "MIN loads the 9 direct links" grep -qE '^global, direct to the destination group: 9 links, mean 0\.[0-9]*[1-9]' "$work/min.txt"
check "and no other global link" grep -qE '^global, the others: +63 links, mean 0\.000, min 0\.000, max 0\.000' "$work/min.txt"
check "so all 63 are idle and none is full" grep -qE '^global, the others: .* at 0\.95 or more: 0, at 0\.10 or less: 63$' "$work/min.txt"
check "nor a transit link of an intermediate group" \
  test "$(grep -cE '^local, on the minimal transit path of [1-9] source group\(s\): .* max 0\.000' "$work/min.txt")" -ge 1

# --sources: the 4 positions of a group's routers, 9 routers each. At 0.2
# MIN's direct links are full (its cap is 1/(a p) = 0.125): the sources of
# the router that holds the link (position 0) reach it first and get more.
loads "$work/min.csv" --shift 2 --sources "$work/min.json" > "$work/src.txt"
check "--sources exits 0" test $? -eq 0
cat "$work/src.txt"
check "--sources: 4 positions of 9 routers" test "$(grep -cE '^  position [0-3]: 9 routers, ' "$work/src.txt")" -eq 4
position_mean() { sed -nE "s/^  position $1: .* mean ([0-9.]+),.*/\1/p" "$work/src.txt"; }
check "--sources: position 0 gets more than each other position" /usr/bin/python3 -c "
import sys; m = [float(x) for x in sys.argv[1:]]; sys.exit(0 if len(m) == 4 and all(m[0] > x > 0 for x in m[1:]) else 1)" \
  $(position_mean 0) $(position_mean 1) $(position_mean 2) $(position_mean 3)
# A starved position shows: zero the nodes of every group's direct-link router.
/usr/bin/python3 - "$work/min.json" "$work/starved.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))
r = runs[0] if isinstance(runs, list) else runs
groups = {}
for l in r["topology"]["links"]:
    if l["class"] == "global":
        groups.setdefault(l["router"], set()).add(l["to_router"])
routers = r["topology"]["routers"]
for i, rt in enumerate(routers):  # the router of group G with a link into group G + 2
    target = (rt["group"] + 2) % 9
    if any(routers[t]["group"] == target for t in groups.get(i, ())):
        r["accepted_by_node"][2 * i] = r["accepted_by_node"][2 * i + 1] = 0.0
json.dump(r, open(sys.argv[2], "w"))
PY
loads "$work/min.csv" --shift 2 --sources "$work/starved.json" > "$work/starved.txt"
check "--sources: the starved position is position 0" grep -qE '^  position 0: 9 routers, accepted per node mean 0\.000' "$work/starved.txt"
check "--sources: the others are not" test "$(grep -cE '^  position [1-3]: .* mean 0\.000' "$work/starved.txt")" -eq 0
loads "$work/min.csv" --shift 2 --sources "$work/torus.csv" > /dev/null 2> "$work/err.txt"
check "--sources not a JSON: refused in one line" test "$(wc -l < "$work/err.txt")" -eq 1

"$rlroute" sim "$src/examples/torus4x4_dor.toml" --load 0.1 --warmup 100 --cycles 200 --drain 0 --quiet \
  --links "$work/torus.csv"
loads "$work/torus.csv" --shift 1 > /dev/null 2> "$work/err.txt"
check "a torus is refused" test $? -ne 0
check "in one line naming the router" \
  test "$(wc -l < "$work/err.txt")" -eq 1 -a "$(grep -c "is not a dragonfly router name" "$work/err.txt")" -eq 1
loads "$work/min.csv" --shift 9 > /dev/null 2> "$work/err.txt"
check "a shift of g is refused" grep -q 'shift 9 sends every group to itself' "$work/err.txt"

finish
