#!/usr/bin/env bash
# The reference-simulator scripts (sim/reference) without building anything:
# each build script refuses wrong arguments, a source tree that is not the
# one it builds (an SST core without the request fields the element fork
# needs) and an output directory it did not make; run_sst.py refuses bad
# options, measures a window from the fork's per-packet logs as the paper
# does and takes the non-minimal share from its statistics (logs written
# here by hand).
# usage: test_reference.sh SOURCE_DIR WORKDIR
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: test_reference.sh SOURCE_DIR WORKDIR" >&2; exit 2; }  # a missing WORKDIR must not become /
src=$(realpath "$1") work=$(realpath -m "$2")
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
cd "$src"
ref=sim/reference

bash $ref/build_booksim.sh > /dev/null 2> "$work/err.txt"
check "build_booksim.sh without arguments: usage, exit 2" test $? -eq 2
check "build_booksim.sh: the usage line" grep -q "usage: build_booksim.sh BOOKSIM_SRC OUT" "$work/err.txt"
bash $ref/build_booksim.sh "$work" "$work/b" > /dev/null 2> "$work/err.txt"
check "build_booksim.sh on a tree that is not BookSim's: exit 2" test $? -eq 2
check "build_booksim.sh: names the argument and what is missing" grep -q "not a BookSim 2 checkout" "$work/err.txt"
# A tree shaped like BookSim's, and an output directory holding a user's file.
mkdir -p "$work/booksim/src/networks" "$work/users"
touch "$work/booksim/src/Makefile" "$work/booksim/src/networks/dragonfly.cpp" "$work/users/results.csv"
bash $ref/build_booksim.sh "$work/booksim" "$work/users" > /dev/null 2> "$work/err.txt"
check "build_booksim.sh into a directory it did not make: refused" test $? -ne 0
check "build_booksim.sh: says why" grep -q "users: exists and was not made by this script" "$work/err.txt"
check "build_booksim.sh: the user's file is still there, nothing added" \
  test "$(ls -A "$work/users")" = results.csv

bash $ref/build_booksim.sh "$work/booksim" "$work/b2" 10 > /dev/null 2> "$work/err.txt"
check "build_booksim.sh with three arguments: usage, exit 2" test $? -eq 2
bash $ref/build_booksim.sh "$work/booksim" "$work/b2" 10 1.5 > /dev/null 2> "$work/err.txt"
check "build_booksim.sh with a latency of 1.5: refused, names the value" grep -q "channel latency 1.5: must be a whole number" "$work/err.txt"
bash $ref/build_booksim.sh "$work/booksim" "$work/b2" 10 15 > /dev/null 2> "$work/err.txt"
check "build_booksim.sh latencies on a dragonfly.cpp without BookSim's calls: refused" \
  grep -q "does not set two channels to SetLatency(10);" "$work/err.txt"
check "build_booksim.sh: nothing made on a refusal" test ! -e "$work/b2"
bash $ref/build_sst.sh a b > /dev/null 2> "$work/err.txt"
check "build_sst.sh with two arguments: usage, exit 2" test $? -eq 2
mkdir -p "$work/core/src/sst/core/interfaces" "$work/elements/src/sst/elements/merlin/topology"
printf 'struct Request { bool allow_adaptive; };\n' > "$work/core/src/sst/core/interfaces/simpleNetwork.h"
printf '// q-adaptive\n' > "$work/elements/src/sst/elements/merlin/topology/dragonfly.cc"
bash $ref/build_sst.sh "$work/core" "$work/elements" "$work/sst" > /dev/null 2> "$work/err.txt"
check "build_sst.sh on an upstream core: exit 2" test $? -eq 2
check "build_sst.sh: names the missing field and the fork" grep -q "no adp_routed field.*SPEAR-IIT/sst-core" "$work/err.txt"
check "build_sst.sh: nothing made" test ! -e "$work/sst"
printf 'struct Request { bool adp_routed; };\n' > "$work/core/src/sst/core/interfaces/simpleNetwork.h"
printf '// minimal\n' > "$work/elements/src/sst/elements/merlin/topology/dragonfly.cc"
bash $ref/build_sst.sh "$work/core" "$work/elements" "$work/sst" > /dev/null 2> "$work/err.txt"
check "build_sst.sh on elements without Q-adaptive: exit 2" test $? -eq 2
check "build_sst.sh: names the element fork" grep -q "no Q-adaptive.*SPEAR-IIT/sst-elements" "$work/err.txt"

py=/usr/bin/python3
$py $ref/run_sst.py --sst "$work/none" --out "$work/o" 2> "$work/err.txt"
check "run_sst.py without an sst binary: refused" grep -q "sst $work/none: not an executable" "$work/err.txt"
printf '#!/bin/sh\nexit 1\n' > "$work/fake_sst"; chmod +x "$work/fake_sst"  # never run: every option below is refused first
$py $ref/run_sst.py --sst "$work/fake_sst" --out "$work/o" --loads 0.5,1.5 2> "$work/err.txt"
check "run_sst.py --loads 1.5: refused" grep -q -- "--loads 0.5,1.5: every load must be in (0, 1]" "$work/err.txt"
$py $ref/run_sst.py --sst "$work/fake_sst" --out "$work/o" --loads 0.5, 2> "$work/err.txt"
check "run_sst.py --loads with a trailing comma: refused" grep -q -- "--loads 0.5,: not a comma-separated list" "$work/err.txt"
$py $ref/run_sst.py --sst "$work/fake_sst" --out "$work/o" --warmup-us 300 --time-us 300 2> "$work/err.txt"
check "run_sst.py --warmup-us not below --time-us: refused" grep -q -- "--warmup-us 300.0: must be" "$work/err.txt"
check "run_sst.py: nothing written on a refusal" test ! -e "$work/o"

# The measurement: two endpoints' logs in the fork's format (job, trace, src,
# dst, hops, latency, injected, arrived, in ns); a window of 1 us on 2 nodes
# holds 2 x 1000 / 32 = 62.5 packet times.
mkdir -p "$work/logs"
{ echo "0,1,0,1,3,100,400,500,|,"; echo "0,2,0,1,5,300,1700,2000,|,"; echo "0,3,1,0,2,50,2950,3000,|,"; } \
  > "$work/logs/linkcontrol_job0_0_"
echo "0,4,1,0,4,200,1300,1500,|," > "$work/logs/linkcontrol_job0_1_"
$py - "$work/logs" > "$work/measure.txt" <<'PY'
import sys
sys.path.insert(0, "sim/reference")
import run_sst
m = run_sst.measure(sys.argv[1], 2, 1000, 2000)
print(m["packets"], round(m["accepted_load"], 6), m["latency_avg_ns"], m["latency_p99_ns"], m["avg_hops"])
PY
check "run_sst.py measures the packets that arrive in the window" \
  test "$(cat "$work/measure.txt")" = "1 0.016 200.0 200 4.0"
# The non-minimal share: the endpoints' running sums (SST's CSV statistics,
# times in ps) at the window's ends; 3 of the 10 packets received in (1, 2] us
# were marked, and a window end without a row is an error, not a zero.
h="ComponentName,StatisticName,StatisticSubId,StatisticType,SimTime,Rank,Sum.u64,SumSQ.u64,Count.u64,Min.u64,Max.u64"
{ echo "$h"
  echo "TrafficGen.0:networkIF,packet_hops,,Accumulator,1000000,0,9,27,3,3,3"
  echo "TrafficGen.0:networkIF,packet_adp,,Accumulator,1000000,0,1,1,1,1,1"
  echo "TrafficGen.1:networkIF,packet_hops,,Accumulator,1000000,0,6,18,2,3,3"
  echo "TrafficGen.1:networkIF,packet_adp,,Accumulator,1000000,0,0,0,0,0,0"
  echo "TrafficGen.0:networkIF,packet_hops,,Accumulator,2000000,0,27,81,9,3,3"
  echo "TrafficGen.0:networkIF,packet_adp,,Accumulator,2000000,0,3,3,3,1,1"
  echo "TrafficGen.1:networkIF,packet_hops,,Accumulator,2000000,0,18,54,6,3,3"
  echo "TrafficGen.1:networkIF,packet_adp,,Accumulator,2000000,0,1,1,1,1,1"; } > "$work/stats.csv"
$py - "$work/stats.csv" > "$work/share.txt" 2>&1 <<'PY'
import sys
sys.path.insert(0, "sim/reference")
import run_sst
print(run_sst.nonminimal_share(sys.argv[1], 1000, 2000))
try:
    run_sst.nonminimal_share(sys.argv[1], 1000, 3000)
except RuntimeError as e:
    print(e)
PY
check "run_sst.py: the non-minimal share of the window's packets" test "$(head -1 "$work/share.txt")" = 0.3
check "run_sst.py: a window end without statistics is an error" grep -q "no packet_hops row at 3000 ns" "$work/share.txt"
# run_booksim.py: bad options are refused before anything runs; a run's
# figures come from BookSim's overall statistics (a binary that prints them
# in BookSim's format), and BookSim's success is its exit status 255.
$py $ref/run_booksim.py --booksim "$work/none" --out "$work/b1" 2> "$work/err.txt"
check "run_booksim.py without a booksim binary: refused" grep -q "booksim $work/none: not an executable" "$work/err.txt"
$py $ref/run_booksim.py --booksim "$work/fake_sst" --out "$work/b1" --routings ugal,par 2> "$work/err.txt"
check "run_booksim.py --routings par: refused, naming the known ones" grep -q -- "--routings par: unknown (known: min, ugal)" "$work/err.txt"
$py $ref/run_booksim.py --booksim "$work/fake_sst" --out "$work/b1" --patterns adv+4 2> "$work/err.txt"
check "run_booksim.py --patterns adv+4: refused" grep -q -- "--patterns adv+4: unknown (known: uniform, adv+1)" "$work/err.txt"
$py $ref/run_booksim.py --booksim "$work/fake_sst" --out "$work/b1" --warmup 2500 --cycles 1000 2> "$work/err.txt"
check "run_booksim.py --warmup not a multiple of --cycles: refused" grep -q -- "--warmup 2500: must be a multiple of --cycles 1000" "$work/err.txt"
$py $ref/run_booksim.py --booksim "$work/fake_sst" --out "$work/b1" --loads 0 2> "$work/err.txt"
check "run_booksim.py --loads 0: refused" grep -q -- "--loads 0: every load must be in (0, 1]" "$work/err.txt"
check "run_booksim.py: nothing written on a refusal" test ! -e "$work/b1"
cat > "$work/fake_booksim" <<'SH'
#!/bin/sh
grep -q "^sample_period = 1000;" "$1" && grep -q "^warmup_periods = 2;" "$1" && grep -q "^max_samples = 3;" "$1" \
  && grep -q "^traffic = bad_dragon;" "$1" && grep -q "^num_vcs = 3;" "$1" || exit 3
printf 'Accepted flit rate average= 0.9\n====== Overall Traffic Statistics ======\n'
printf 'Packet latency average = 900.5 (1 samples)\n\tminimum = 20 (1 samples)\n'
printf 'Network latency average = 150.25 (1 samples)\nAccepted flit rate average = 0.4375 (1 samples)\n'
printf 'Hops average = 4.5 (1 samples)\n'
exit 255
SH
chmod +x "$work/fake_booksim"
$py $ref/run_booksim.py --booksim "$work/fake_booksim" --out "$work/b2" --routings ugal --patterns adv+1 --seeds 7 \
  --warmup 2000 --cycles 1000 > /dev/null 2> "$work/err.txt"
check "run_booksim.py: a run that BookSim ends with 255 is tabulated (hops as links: routers less one)" \
  grep -q "^ugal,adv+1,1.0,7,0.4375,150.25,3.5,3,2000,1000," "$work/b2/booksim.csv"
check "run_booksim.py: the run's JSON holds its config" grep -q "routing_function = ugal" "$work/b2/runs/ugal__adv+1__1__s7.json"
printf '#!/bin/sh\necho "Error: something"\nexit 0\n' > "$work/fake_booksim0"; chmod +x "$work/fake_booksim0"
$py $ref/run_booksim.py --booksim "$work/fake_booksim0" --out "$work/b3" --seeds 1 > /dev/null 2> "$work/err.txt"
check "run_booksim.py: BookSim's exit 0 is a failure, reported with its status and output" \
  grep -q "booksim failed, exit 0" "$work/err.txt"
check "run_booksim.py: no JSON for the failed run" test -z "$(ls -A "$work/b3/runs")"
finish
