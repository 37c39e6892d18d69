#!/usr/bin/env bash
# End-to-end checks of the rlroute command line: help, version, gen, bad
# configs (one-line error naming file:line:column, key, value and rule; exit
# non-zero; output directory untouched), output paths that must never lose or
# replace the user's files, bad flag values, and sim with --json and --trace.
# usage: test_cli.sh RLROUTE EXAMPLES_DIR WORKDIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: test_cli.sh RLROUTE EXAMPLES_DIR WORKDIR" >&2; exit 2; }  # a missing WORKDIR must not become /
rlroute=$(realpath "$1") examples=$(realpath "$2") work=$(realpath -m "$3")  # absolute: some cases cd
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"

"$rlroute" --version > "$work/version.txt"
check "--version prints the version" grep -q '^rlroute [0-9]' "$work/version.txt"
"$rlroute" --help > "$work/help.txt"
check "--help lists gen and sim" grep -q 'sim' "$work/help.txt"

"$rlroute" gen "$examples/torus4x4_dor.toml" -o "$work/a" > /dev/null
"$rlroute" gen "$examples/torus4x4_dor.toml" -o "$work/b" > /dev/null
check "gen is byte-identical across runs" diff -r "$work/a" "$work/b"
check "gen writes a filelist and a manifest" test -f "$work/a/torus4x4_dor.f" -a -f "$work/a/manifest.json"

# A bad config must leave an existing output directory as it was.
cp -r "$work/a" "$work/keep"
bad() {  # bad NAME TOML EXPECTED_REGEX
  printf '%s\n' "$2" > "$work/bad.toml"
  "$rlroute" gen "$work/bad.toml" -o "$work/a" 2> "$work/err.txt" > /dev/null
  local rc=$?
  check "$1: exits non-zero" test $rc -ne 0
  check "$1: one line" test "$(wc -l < "$work/err.txt")" -eq 1
  check "$1: message" grep -qE "$3" "$work/err.txt"
  check "$1: output untouched" diff -r "$work/a" "$work/keep"
}
bad "unknown key" $'[topology]\nkind = "torus"\ndims = [4, 4]\n[router]\nvc = 2' 'bad\.toml:5:1: router\.vc = 2: unknown key'
bad "dimension of 1" $'[topology]\nkind = "torus"\ndims = [4, 1]' 'bad\.toml:3:1: topology\.dims = \[4, 1\]: every dimension must be at least 2'
bad "too few VCs" $'[topology]\nkind = "torus"\ndims = [4, 4]\n[router]\nvcs = 1' 'bad\.toml:5:1: router\.vcs = 1: too few VCs for dor .* channel dependency cycle R0\(0,0\)'
bad "VCT buffer" $'[topology]\nkind = "mesh"\ndims = [4, 4]\n[router]\nbuffer_flits = 3\nmax_packet_flits = 4' 'router\.buffer_flits = 3: virtual cut-through'

# Output directories: rlroute replaces only what it wrote itself.
"$rlroute" gen "$examples/torus4x4_dor.toml" -o "$work/a/" > /dev/null 2> "$work/err.txt"
check "gen -o DIR/ (trailing slash) onto its own output: exits 0" test $? -eq 0
check "gen -o DIR/: the output is all there" diff -r "$work/a" "$work/keep"
(cd "$work/a" && "$rlroute" gen "$examples/torus4x4_dor.toml" -o . > /dev/null 2> "$work/err.txt")
check "gen -o . inside its own output: exits non-zero" test $? -ne 0
check "gen -o .: one line" test "$(wc -l < "$work/err.txt")" -eq 1
check "gen -o .: message" grep -qE '^rlroute: error: -o \.: is the current or the root directory' "$work/err.txt"
check "gen -o .: output untouched" diff -r "$work/a" "$work/keep"
echo "my notes" > "$work/a/notes.txt"
cp "$examples/torus4x4_dor.toml" "$work/a/my.toml"
"$rlroute" gen "$work/a/my.toml" -o "$work/a" > /dev/null 2> "$work/err.txt"
check "gen into a directory holding the user's files: exits non-zero" test $? -ne 0
check "gen into a foreign directory: one line" test "$(wc -l < "$work/err.txt")" -eq 1
check "gen into a foreign directory: message" grep -qE \
  "^rlroute: error: -o $work/a: holds (my\.toml|notes\.txt), which rlroute did not write; not overwriting" "$work/err.txt"
check "gen into a foreign directory: the user's file survives" grep -qx "my notes" "$work/a/notes.txt"
check "gen into a foreign directory: the config being read survives" cmp -s "$examples/torus4x4_dor.toml" "$work/a/my.toml"
rm "$work/a/notes.txt" "$work/a/my.toml"
check "gen into a foreign directory: the rest untouched" diff -r "$work/a" "$work/keep"
mkdir "$work/real"; ln -s real "$work/link"
"$rlroute" gen "$examples/torus4x4_dor.toml" -o "$work/link" > /dev/null 2> "$work/err.txt"
check "gen -o SYMLINK: exits 0" test $? -eq 0
"$rlroute" gen "$examples/torus4x4_dor.toml" -o "$work/link/" > /dev/null 2>> "$work/err.txt"
check "gen -o SYMLINK/ again: exits 0" test $? -eq 0
check "gen -o SYMLINK: the link stays a link" test -L "$work/link"
check "gen -o SYMLINK: the output is in the directory it names" diff -r "$work/real" "$work/keep"

# A VC buffer below a link's credit round trip is a warning, not an error.
sed 's/^buffer_flits = .*/buffer_flits = 8/' "$examples/dfly_2_4_2_9_min.toml" > "$work/warn.toml"
"$rlroute" gen "$work/warn.toml" -o "$work/warn" > /dev/null 2> "$work/warn.txt"
check "buffer below the credit round trip: gen still succeeds" test $? -eq 0
check "buffer below the credit round trip: one warning line" grep -qE \
  '^rlroute: warning: .*warn\.toml:[0-9]+:1: router\.buffer_flits = 8: smaller than the credit round trip of a global link' "$work/warn.txt"

"$rlroute" sim "$examples/torus4x4_dor.toml" --load 0.1 --cycles 500 --warmup 100 --quiet --json "$work/r.json"
check "sim exits 0" test $? -eq 0
for key in offered_load accepted_load packets_injected packets_delivered packets_lost packets_corrupted deadlock \
    latency total_latency avg_hops cycles router_cycles_per_second p50 p95 p99; do
  check "sim JSON has $key" grep -q "\"$key\"" "$work/r.json"
done
check "sim JSON says the run had one thread" grep -q '"threads": 1' "$work/r.json"
# --threads: the same results on two threads (the network regressions check
# every packet; here the whole JSON but the speed and the thread count).
"$rlroute" sim "$examples/torus4x4_dor.toml" --load 0.1 --cycles 500 --warmup 100 --quiet --threads 2 \
  --json "$work/r2.json"
check "sim --threads 2 exits 0" test $? -eq 0
check "sim JSON says the run had two threads" grep -q '"threads": 2' "$work/r2.json"
without_speed() { grep -vE '"(router_cycles_per_second|wall_seconds|threads)"' "$1"; }
check "sim --threads 2: the results of one thread" cmp -s <(without_speed "$work/r.json") <(without_speed "$work/r2.json")
# rlroute train runs rlroute-train beside the binary; without it, one line
# that names the missing path.
mkdir -p "$work/lonely" && cp "$rlroute" "$work/lonely/rlroute"
"$work/lonely/rlroute" train "$examples/torus4x4_dqn.toml" -o "$work/lonely/w.json" > /dev/null 2> "$work/err.txt"
check "train without rlroute-train: exits non-zero" test $? -ne 0
check "train without rlroute-train: one line" test "$(wc -l < "$work/err.txt")" -eq 1
check "train without rlroute-train: names the path" grep -qE \
  "^rlroute: error: rlroute train runs $work/lonely/rlroute-train: No such file or directory" "$work/err.txt"
check "train without rlroute-train: nothing written" test ! -e "$work/lonely/w.json"
"$rlroute" sim "$examples/torus4x4_dor.toml" --pattern nosuch --quiet 2> "$work/err.txt"
check "unknown pattern is an error" grep -q 'unknown traffic pattern "nosuch"' "$work/err.txt"

# --trace: an FST waveform of the network top for cycles 100..200 (10 time
# units per cycle; the FST header holds the first and last dumped time).
cat > "$work/mesh2x2.toml" <<'EOF'
[design]
name = "mesh2x2"
[topology]
kind = "mesh"
dims = [2, 2]
EOF
"$rlroute" sim "$work/mesh2x2.toml" --load 0.2 --cycles 300 --warmup 50 --quiet \
  --trace "$work/w.fst" --trace-from 100 --trace-to 200
check "sim --trace exits 0" test $? -eq 0
fst_times() { od -An -tu1 -N25 "$1" | tr -s ' \n' ' ' | awk '{
  if ($1 != 0) { print "not-fst"; exit }
  s = 0; e = 0; for (i = 10; i <= 17; i++) s = s * 256 + $i; for (i = 18; i <= 25; i++) e = e * 256 + $i
  print s, e }'; }
check "--trace writes an FST file covering cycles 100..200" test "$(fst_times "$work/w.fst")" = "1000 2005"
"$rlroute" sim "$work/mesh2x2.toml" --quiet --trace "$work/x.fst" --trace-from 50 --trace-to 10 2> "$work/err.txt"
check "--trace-to before --trace-from is an error" grep -q 'trace-to must not be before --trace-from' "$work/err.txt"

# --json onto a symlink: the link is followed and stays a link.
echo '{}' > "$work/target.json"; ln -s target.json "$work/jlink.json"
"$rlroute" sim "$examples/torus4x4_dor.toml" --load 0.1 --cycles 200 --warmup 50 --quiet --json "$work/jlink.json"
check "sim --json SYMLINK: exits 0" test $? -eq 0
check "sim --json SYMLINK: the link stays a link" test -L "$work/jlink.json"
check "sim --json SYMLINK: the file it names has the results" grep -q '"accepted_load"' "$work/target.json"

# Refused before any simulation or model build: exit non-zero, one line naming
# the flag and its value, nothing written. Every case asks for 2^30 cycles
# (minutes of simulation) and must still end within seconds.
ln -s /dev/null "$work/devlink"; ln -s nowhere/r.json "$work/dangling.json"
refused() { refused_run "$1" "$2" sim "${@:3}"; }  # refused NAME EXPECTED_REGEX ARGS... (after `rlroute sim`)
long=(--cycles 1073741824 --quiet)
cfg=$examples/torus4x4_dor.toml
refused "--json /dev/null" '--json /dev/null: exists and is not a regular file' "$cfg" "${long[@]}" --json /dev/null
check "--json /dev/null: still a device" test -c /dev/null
refused "--json onto a symlink to a device" "--json $work/devlink: exists and is not a regular file" \
  "$cfg" "${long[@]}" --json "$work/devlink"
check "--json onto a symlink to a device: the link stays" test -L "$work/devlink"
refused "--json onto a dangling symlink" "--json $work/dangling.json: directory $work/nowhere does not exist" \
  "$cfg" "${long[@]}" --json "$work/dangling.json"
check "--json onto a dangling symlink: the link stays" test -L "$work/dangling.json"
ln -s loop2.json "$work/loop1.json"; ln -s loop1.json "$work/loop2.json"
refused "--json onto a symlink loop" "--json $work/loop1.json: is a symbolic link that cannot be followed" \
  "$cfg" "${long[@]}" --json "$work/loop1.json"
check "--json onto a symlink loop: the links stay" test -L "$work/loop1.json" -a -L "$work/loop2.json"
refused "--json into a missing directory" "--json $work/nodir/r.json: directory $work/nodir does not exist" \
  "$cfg" "${long[@]}" --json "$work/nodir/r.json"
refused "--json onto a directory" "--json $work/real: exists and is not a regular file" \
  "$cfg" "${long[@]}" --json "$work/real"
refused "--cycles 2^63-1" '--cycles 9223372036854775807: must be an integer in 1\.\.2\^40 cycles' \
  "$cfg" --quiet --cycles 9223372036854775807 --json "$work/none.json"
refused "--cycles beyond 64 bits" '--cycles 99999999999999999999: must be an integer in 1\.\.2\^40 cycles' \
  "$cfg" --quiet --cycles 99999999999999999999 --json "$work/none.json"
refused "--cycles -5" '--cycles -5: must be an integer in 1\.\.2\^40 cycles' \
  "$cfg" --quiet --cycles -5 --json "$work/none.json"
refused "--cycles 0x20" '--cycles 0x20: must be an integer in 1\.\.2\^40 cycles' \
  "$cfg" --quiet --cycles 0x20 --json "$work/none.json"
refused "--warmup -1" '--warmup -1: must be an integer in 0\.\.2\^40 cycles' \
  "$cfg" "${long[@]}" --warmup -1 --json "$work/none.json"
refused "--drain 2^63-1" '--drain 9223372036854775807: must be an integer in 0\.\.2\^40 cycles' \
  "$cfg" "${long[@]}" --drain 9223372036854775807 --json "$work/none.json"
refused "--seed -1" '--seed -1: must be an integer >= 0' "$cfg" "${long[@]}" --seed -1 --json "$work/none.json"
refused "--seed 2^64" '--seed 18446744073709551616: must be an integer >= 0' \
  "$cfg" "${long[@]}" --seed 18446744073709551616 --json "$work/none.json"
refused "--watchdog 0" '--watchdog 0: must be an integer in 1\.\.2\^30 cycles' \
  "$cfg" "${long[@]}" --watchdog 0 --json "$work/none.json"
refused "--threads 0" '--threads 0: must be an integer in 1\.\.256' \
  "$cfg" "${long[@]}" --threads 0 --json "$work/none.json"
refused "--threads on the network fabric" '--threads 2: the network fabric \(--fabric network, --trace\) is one Verilated model on one thread; threads are for the harness fabric' \
  "$cfg" "${long[@]}" --fabric network --threads 2 --json "$work/none.json"
refused "--trace into a directory" "--trace $work/real: exists and is not a regular file" \
  "$work/mesh2x2.toml" "${long[@]}" --trace "$work/real" --json "$work/none.json"
refused "--trace into a missing parent" "--trace $work/nodir/w.fst: directory $work/nodir does not exist" \
  "$work/mesh2x2.toml" "${long[@]}" --trace "$work/nodir/w.fst" --json "$work/none.json"
refused "--series-window without --series" '--series-window: give --series FILE as well' \
  "$cfg" "${long[@]}" --series-window 100 --json "$work/none.json"
refused "--series-window 0" '--series-window 0: must be an integer in 1\.\.2\^40 cycles' \
  "$cfg" "${long[@]}" --series "$work/none.csv" --series-window 0
refused "--q-dump on a torus" "--q-dump $work/none.txt: only for routing.algorithm = q_adaptive \\(this config: dor\\)" \
  "$cfg" "${long[@]}" --q-dump "$work/none.txt"
refused "--q-dump-cycle without --q-dump" '--q-dump-cycle: give --q-dump FILE as well' \
  "$cfg" "${long[@]}" --q-dump-cycle 10
# DQN-routing's network: --weights only for dqn, a file that must exist and fit the block.
refused "--weights on a dor config" "--weights $work/none.json: only for routing.algorithm = dqn \\(this config: dor\\)" \
  "$cfg" "${long[@]}" --weights "$work/none.json"
refused "--weights missing" "$work/none.json: " "$examples/torus4x4_dqn.toml" "${long[@]}" --weights "$work/none.json"
# A zero network of the example's shape (13 -> 32 -> 32 -> 4), and one with a hidden layer too few.
dqn_weights() {  # dqn_weights FILE SIZE...
  local file=$1; shift
  python3 - "$file" "$@" <<'PY'
import json, sys
sizes = [int(s) for s in sys.argv[2:]]
layers = [{"inputs": i, "outputs": o, "shift": 0, "weights": [[0] * i for _ in range(o)], "biases": [0] * o}
          for i, o in zip(sizes, sizes[1:])]
json.dump({"rlroute_dqn_weights": 1, "weight_bits": 8, "activation_bits": 8, "provenance": {}, "layers": layers},
          open(sys.argv[1], "w"))
PY
}
dqn_weights "$work/dqn_small.json" 13 32 4
refused "--weights of another shape" \
  "$work/dqn_small.json: layers = 2: must hold 3 layers \\(routing.dqn_hidden has 2 hidden layers\\)" \
  "$examples/torus4x4_dqn.toml" "${long[@]}" --weights "$work/dqn_small.json"
dqn_weights "$work/dqn_zero.json" 13 32 32 4
"$rlroute" sim "$examples/torus4x4_dqn.toml" --load 0.1 --cycles 300 --warmup 50 --weights "$work/dqn_zero.json" \
  --json "$work/dqn.json" > /dev/null 2> "$work/err.txt"
check "sim --weights: exits 0" test $? -eq 0
check "sim --weights: says which network it programmed" grep -q "DQN network: $work/dqn_zero.json" "$work/err.txt"
check "sim --weights: the results name it" grep -q "\"dqn_network\": \"$work/dqn_zero.json\"" "$work/dqn.json"
"$rlroute" gen "$examples/torus4x4_dqn.toml" -o "$work/dqn_gen" --weights "$work/dqn_zero.json" > /dev/null
check "gen --weights: exits 0" test $? -eq 0
check "gen --weights: writes the programming image" grep -q "Network: $work/dqn_zero.json" "$work/dqn_gen/torus4x4_dqn_dqn_program.memh"
check "gen --weights: the manifest names it" grep -q '"file": "torus4x4_dqn_dqn_program.memh"' "$work/dqn_gen/manifest.json"
"$rlroute" gen "$examples/torus4x4_dor.toml" -o "$work/none_gen" --weights "$work/dqn_zero.json" > /dev/null 2> "$work/err.txt"
check "gen --weights on a dor config: exits non-zero" test $? -ne 0
check "gen --weights on a dor config: message" grep -q "^rlroute: error: --weights $work/dqn_zero.json: only for routing.algorithm = dqn (this config: dor)" "$work/err.txt"
check "gen --weights on a dor config: nothing written" test ! -e "$work/none_gen"
refused "--phases with --load" '--load 0.3: conflicts with --phases; the phases set the load' \
  "$cfg" "${long[@]}" --phases "0:uniform@0.1" --load 0.3
refused "--phases with --pattern" '--phases 0:uniform@0.1: conflicts with --pattern; the phases name their patterns' \
  "$cfg" "${long[@]}" --phases "0:uniform@0.1" --pattern transpose
refused "--phases not from cycle 0" '--phases 5:uniform@0.1: the first phase starts at cycle 0' \
  "$cfg" "${long[@]}" --phases "5:uniform@0.1"
refused "dpsnn with --load" '--load 0.3: conflicts with the dpsnn:rate=47 pattern, whose rate sets the load' \
  "$cfg" "${long[@]}" --pattern dpsnn:rate=47 --load 0.3
refused "dpsnn with --packet-flits" '--packet-flits 4: conflicts with the dpsnn pattern' \
  "$cfg" "${long[@]}" --pattern dpsnn --packet-flits 4
refused "dpsnn in --phases" '--phases 0:dpsnn@0.1: phase at cycle 0: traffic pattern "dpsnn": an application model' \
  "$cfg" "${long[@]}" --phases "0:dpsnn@0.1"
refused "--phases with a pattern the topology lacks" '--phases 0:uniform@0.1,100:adv\+1@0.2: phase at cycle 100: ' \
  "$cfg" "${long[@]}" --phases "0:uniform@0.1,100:adv+1@0.2"

# --series: a CSV row per window, the same windows in the JSON.
"$rlroute" sim "$cfg" --load 0.2 --cycles 1000 --warmup 500 --drain 0 --quiet --series "$work/s.csv" \
  --series-window 250 --json "$work/s.json"
check "sim --series exits 0" test $? -eq 0
check "--series: header" grep -q '^offered_load,begin,end,accepted_load,packets,latency_avg,latency_p99,minimal_share,avg_hops,mean_q,q_minimal,q_best_other,contention_mean$' "$work/s.csv"
check "--series: windows of 250 cycles from 0" grep -q '^0.2,250,500,' "$work/s.csv"
check "--series: at least 6 windows" test "$(grep -c '^0.2,' "$work/s.csv")" -ge 6
check "--series: in the JSON" grep -q '"series"' "$work/s.json"

# --links: a row per router-to-router link (the 4x4 torus: 16 routers x 4).
"$rlroute" sim "$cfg" --load 0.2 --cycles 1000 --warmup 500 --drain 0 --quiet --links "$work/l.csv"
check "sim --links exits 0" test $? -eq 0
check "--links: header" grep -q '^offered_load,router,router_name,port,port_name,class,to_router,utilisation$' "$work/l.csv"
check "--links: 64 links" test "$(grep -c '^0.2,' "$work/l.csv")" -eq 64
check "--links: dimension links carry flits" grep -q '^0.2,0,"R0(0,0)",1,"x+",dimension,1,0\.[0-9]*[1-9]' "$work/l.csv"
refused "--links into a missing directory" "--links $work/nodir/l.csv: directory $work/nodir does not exist" \
  "$cfg" "${long[@]}" --links "$work/nodir/l.csv"

finish
