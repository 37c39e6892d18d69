#!/usr/bin/env bash
# End-to-end checks of `rlroute app` (the SystemC host layer, run by
# rlroute-app beside rlroute): a workload's run and its results JSON, and
# bad input refused with one line and nothing written.
# usage: test_app.sh RLROUTE EXAMPLES_DIR WORKDIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: test_app.sh RLROUTE EXAMPLES_DIR WORKDIR" >&2; exit 2; }  # a missing WORKDIR must not become /
rlroute=$(realpath "$1") examples=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
cfg="$examples/torus4x4_dor.toml"

"$rlroute" app "$cfg" --workload pingpong:bytes=1024,iterations=2,peer=10 --json "$work/pp.json" \
  --messages "$work/pp.csv" > "$work/out.txt" 2> "$work/err.txt"
check "app exits 0" test $? -eq 0
check "app: one line of results on stdout, no banner" test "$(wc -l < "$work/out.txt")" -eq 1
check "app: the summary" grep -qE '^pingpong: 16 ranks done in [0-9]+ cycles; 4 messages \(4096 bytes\)' "$work/out.txt"
check "app --json: the app object" python3 -c "
import json, sys
d = json.load(open('$work/pp.json'))
a = d['app']
assert d['pattern'] == 'pingpong:bytes=1024,iterations=2,peer=10' and d['failure'] == '', d['failure']
assert a['finished'] and a['messages'] == 4 and a['run_cycles'] == a['rank_cycles'][0] > 0, a
assert a['run_cycles'] == round(4 * a['message_latency']['avg']), a
assert d['packets_delivered'] == 4 * 64 and d['packets_lost'] == 0
"
check "app --messages: a row per message, in the order of the sends" python3 -c "
import csv, json
rows = list(csv.DictReader(open('$work/pp.csv')))
a = json.load(open('$work/pp.json'))['app']
assert [(r['src_rank'], r['dst_rank']) for r in rows] == [('0', '10'), ('10', '0')] * 2, rows
assert all(int(r['packets']) == 64 and int(r['bytes']) == 1024 for r in rows), rows
assert all(int(r['posted']) < int(r['sent']) < int(r['arrived']) for r in rows), rows
assert sum(int(r['latency']) for r in rows) == a['run_cycles'], rows
"
"$rlroute" app "$cfg" --workload allreduce:bytes=32,iterations=2 --placement random --seed 5 --ranks 12 --quiet \
  --json "$work/ar.json"
check "app: allreduce on 12 random nodes" python3 -c "
import json
a = json.load(open('$work/ar.json'))['app']
assert a['finished'] and a['ranks'] == 12 and len(set(a['placement'])) == 12 and a['placement'] != list(range(12)), a
assert a['messages'] == 2 * (4 + 3 * 8 + 4), a
"
"$rlroute" app "$cfg" --workload allreduce:bytes=32,iterations=2 --placement random --seed 5 --ranks 12 --quiet \
  --json "$work/ar2.json" --threads 2
check "app --threads 2: the same results" python3 -c "
import json
a, b = (json.load(open(f)) for f in ('$work/ar.json', '$work/ar2.json'))
speed = ('router_cycles_per_second', 'wall_seconds', 'threads')
assert {k: v for k, v in a.items() if k not in speed} == {k: v for k, v in b.items() if k not in speed}
assert b['threads'] == 2, b['threads']
"
"$rlroute" app "$cfg" --workload pingpong:bytes=512,iterations=4 --ranks 2 --background random:bytes=64,interval=2,messages=100000 \
  --quiet --json "$work/bg.json" --messages "$work/bg.csv"
check "app --background: a second job on the other nodes, not waited for" python3 -c "
import json
a = json.load(open('$work/bg.json'))['app']
assert a['finished'] and a['ranks'] == 2 and len(a['jobs']) == 1, a
b = a['jobs'][0]
assert b['name'] == 'random' and b['background'] and not b['finished'] and b['ranks'] == 14, b
assert sorted(a['placement'] + b['placement']) == list(range(16)), (a['placement'], b['placement'])
"
check "app --messages: the job of each message" grep -q "^random,3," "$work/bg.csv"
"$rlroute" app "$cfg" --workload pingpong:bytes=100000,iterations=9 --max-cycles 500 --quiet --json "$work/cut.json" \
  2> "$work/cut.txt"
check "app: a workload cut short exits 2" test $? -eq 2
check "app: and says so" grep -q "did not finish in --max-cycles 500" "$work/cut.txt"
check "app: its results are written" grep -q '"finished": false' "$work/cut.json"
"$rlroute" app --help > "$work/help.txt"
check "app --help (forwarded to rlroute-app)" grep -q -- "--workload" "$work/help.txt"

# A trace: its own ranks (4 of the 16 nodes), replayed.
printf 'ranks 4\n0 send 3 64 1\n3 recv 0 64 1\n0 allreduce 8\n1 allreduce 8\n2 allreduce 8\n3 allreduce 8\n' \
  > "$work/four.trace"
"$rlroute" app "$cfg" --workload "trace:$work/four.trace" --placement random --quiet --json "$work/trace.json"
check "app: a trace replayed on its 4 ranks" python3 -c "
import json
a = json.load(open('$work/trace.json'))['app']
assert a['finished'] and a['ranks'] == 4 and a['messages'] == 1 + 8, a
"
printf 'ranks 4\n0 send 9 64 1\n' > "$work/bad.trace"
# A GOAL schedule (LogGOPSim's format): a ring, each send after the receive.
{
  echo "num_ranks 4"
  for r in 0 1 2 3; do
    echo "rank $r {"
    echo "l1: recv 8b from $(( (r + 3) % 4 )) tag 5"
    echo "l2: send 8b to $(( (r + 1) % 4 )) tag 5 cpu 0 nic 0"
    [ $r -ne 0 ] && echo "l2 requires l1"  # rank 0 starts the ring
    echo "}"
  done
} > "$work/ring.goal"
"$rlroute" app "$cfg" --workload "goal:$work/ring.goal" --quiet --json "$work/goal.json"
check "app: a GOAL schedule replayed" python3 -c "
import json
a = json.load(open('$work/goal.json'))['app']
assert a['finished'] and a['ranks'] == 4 and a['messages'] == 4, a
"

# The example trace and GOAL schedule.
"$rlroute" app "$examples/dfly_2_4_2_9_min.toml" --workload "trace:$examples/apps/ring8.trace" --placement groups \
  --quiet --json "$work/ring8.json"
check "app: examples/apps/ring8.trace on a dragonfly" grep -q '"finished": true' "$work/ring8.json"
"$rlroute" app "$cfg" --workload "goal:$examples/apps/dissemination16.goal" --quiet --json "$work/d16.json"
check "app: examples/apps/dissemination16.goal" python3 -c "
import json
a = json.load(open('$work/d16.json'))['app']
assert a['finished'] and a['messages'] == 64, a
"

# The host layer's speed benchmark: both modes on every network, at about the same load.
/usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/../../sim/host_speed.py" --rlroute "$rlroute" --out "$work/speed" \
  --loads 0.3 --repeat 1 > /dev/null
check "host_speed.py exits 0" test $? -eq 0
check "host_speed.py: sim and app on three networks, loads alike" python3 -c "
import csv
rows = list(csv.DictReader(open('$work/speed/host_speed.csv')))
assert len(rows) == 6 and {r['mode'] for r in rows} == {'sim', 'app'}, rows
for r in rows:
    assert abs(float(r['accepted_load']) - 0.3) < 0.05 and int(r['router_cycles_per_second']) > 0, r
"
check "host_speed.py: its plot" test -s "$work/speed/host_speed.png"

refused_run "unknown workload" 'workload "halo": unknown workload "halo" \(pingpong, allreduce, barrier, broadcast, alltoall, halo3d, many2many, randneighbors, random, trace:FILE, goal:FILE\)' \
  app "$cfg" --workload halo --json "$work/none.json"
refused_run "bad parameter" 'workload "pingpong:bytes=x": bytes = "x": must be a non-negative integer' \
  app "$cfg" --workload pingpong:bytes=x --json "$work/none.json"
refused_run "more ranks than nodes" 'ranks = 17: must be 1..16 \(one rank per node\)' \
  app "$cfg" --workload pingpong --ranks 17 --json "$work/none.json"
refused_run "a peer beyond the ranks" '--ranks 16: workload "pingpong:peer=16" needs at least 17' \
  app "$cfg" --workload pingpong:peer=16 --json "$work/none.json"
refused_run "unknown placement" 'placement = "spread": must be linear, random or groups' \
  app "$cfg" --workload pingpong --placement spread --json "$work/none.json"
refused_run "a trace's ranks" "--ranks 5: workload \"trace:$work/four.trace\" has 4 ranks" \
  app "$cfg" --workload "trace:$work/four.trace" --ranks 5 --json "$work/none.json"
refused_run "a trace's bad line" "$work/bad.trace:2: to \"9\": must be an integer in 0..3" \
  app "$cfg" --workload "trace:$work/bad.trace" --json "$work/none.json"
refused_run "groups on a torus" 'placement = "groups": needs a dragonfly' \
  app "$cfg" --workload pingpong --placement groups --json "$work/none.json"
refused_run "--json and --messages the same file" '.*' \
  app "$cfg" --workload pingpong --json "$work/none.json" --messages "$work/none.json"
refused_run "--background-ranks alone" '--background-ranks: give --background SPEC as well' \
  app "$cfg" --workload pingpong --background-ranks 3 --json "$work/none.json"
refused_run "more ranks than nodes in both jobs" '--background-ranks 15: with the 2 ranks of --workload, more than the 16 nodes' \
  app "$cfg" --workload pingpong --ranks 2 --background barrier --background-ranks 15 --json "$work/none.json"
refused_run "no workload" '.*--workload is required' app "$cfg"
refused_run "the config as --json" '.*' app "$cfg" --workload pingpong --json "$cfg"
finish
