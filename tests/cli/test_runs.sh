#!/usr/bin/env bash
# sim/runs.py on a small spec: a JSON and a series per run, one CSV row per
# run (a run with its own config keys, a run with load phases and its own
# run lengths in place of the spec's, a run with its links), a plot of two
# runs' series; a rerun runs
# nothing, --only and --fresh run a subset again; bad specs are refused with
# the key that is wrong, a config rlroute refuses before any run starts, and
# a failing run stops the table with its log.
# usage: test_runs.sh RLROUTE SOURCE_DIR WORKDIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: test_runs.sh RLROUTE SOURCE_DIR WORKDIR" >&2; exit 2; }  # a missing WORKDIR must not become /
rlroute=$(realpath "$1") src=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
cd "$src"
cat > "$work/tiny.toml" <<'SPEC'
title = "tiny"
config = "examples/torus4x4_dor.toml"
args = ["--cycles", "400", "--drain", "400", "--seed", "1", "--series-window", "100"]
[[run]]
name = "ur_0.3"
args = ["--pattern", "uniform", "--load", "0.3", "--warmup", "100"]
[[run]]
name = "ur_0.3_3vcs"
args = ["--pattern", "uniform", "--load", "0.3", "--warmup", "100"]
set = { "router.vcs" = 3 }
links = true
[[run]]
name = "steps"
args = ["--phases", "0:uniform@0.1,200:uniform@0.4", "--warmup", "0", "--cycles", "600", "--series-window", "50"]
[[plot]]
name = "two_runs"
title = "two runs"
runs = ["ur_0.3", "steps"]
SPEC
/usr/bin/python3 sim/runs.py "$work/tiny.toml" --rlroute "$rlroute" --out "$work/out" > "$work/log.txt" 2>&1
check "runs exits 0" test $? -eq 0
check "runs: a JSON per run" test "$(ls "$work/out/runs"/*.json | wc -l)" -eq 3
check "runs: a series per run" test -s "$work/out/series/steps.csv"
check "runs: the header" grep -qx 'run,pattern,offered_load,warmup,accepted_load,lat_avg,lat_p99,minimal_share,avg_hops,drained,packets_lost,wall_seconds,router_cycles_per_second' "$work/out/tiny.csv"
check "runs: a row per run" test "$(wc -l < "$work/out/tiny.csv")" -eq 4
check "runs: the run with phases" grep -qE '^steps,uniform phases,0.1/0.4,0,0\.[0-9]+,' "$work/out/tiny.csv"
check "runs: a run's own flags replace the spec's (600 cycles in windows of 50)" \
  grep -q '^[0-9.]*,550,600,' "$work/out/series/steps.csv"
check "runs: a window's offered load is its phase's (0.1 before cycle 200)" grep -q '^0.1,150,200,' "$work/out/series/steps.csv"
check "runs: a window's offered load is its phase's (0.4 from cycle 200)" grep -q '^0.4,200,250,' "$work/out/series/steps.csv"
check "runs: links = true writes the run's links" grep -q '^offered_load,router,router_name,port' "$work/out/links/ur_0.3_3vcs.csv"
check "runs: no links without it" test ! -e "$work/out/links/ur_0.3.csv"
/usr/bin/python3 sim/runs.py "$work/tiny.toml" --rlroute "$rlroute" --out "$work/nolinks" --only ur_0.3 > /dev/null 2>&1
check "runs: no links directory when only runs without links run" test ! -e "$work/nolinks/links"
check "runs: the plot of two runs' series" test -s "$work/out/two_runs.png"
check "runs: says what it wrote" grep -q 'tiny.csv and 1 plot (3 of 3 runs, 3 run now)' "$work/log.txt"
check "runs: the run's own keys reach its config" grep -qx 'vcs = 3' "$work/out/configs/torus4x4_dor_ur_0_3_3vcs.toml"
/usr/bin/python3 sim/runs.py "$work/tiny.toml" --rlroute "$rlroute" --out "$work/out" > "$work/log2.txt" 2>&1
check "runs again: runs nothing" grep -q '(3 of 3 runs, 0 run now)' "$work/log2.txt"
/usr/bin/python3 sim/runs.py "$work/tiny.toml" --rlroute "$rlroute" --out "$work/out" --only steps --fresh \
  > "$work/log3.txt" 2>&1
check "--only steps --fresh: one run" grep -q '(3 of 3 runs, 1 run now)' "$work/log3.txt"
refused_spec() {  # refused_spec NAME EXPECTED_MESSAGE SPEC_TEXT
  printf '%s\n' "$3" > "$work/bad.toml"
  /usr/bin/python3 sim/runs.py "$work/bad.toml" --rlroute "$rlroute" --out "$work/bad" 2> "$work/err.txt"
  local rc=$?
  check "$1: exits non-zero" test $rc -ne 0
  check "$1: names the problem" grep -q "$2" "$work/err.txt"
}
refused_spec "unknown key" 'configs: unknown key' $'title = "x"\nconfigs = "a"\n[[run]]\nname = "a"'
refused_spec "a run named twice" "name = 'a': given twice" \
  $'title = "x"\nconfig = "examples/torus4x4_dor.toml"\n[[run]]\nname = "a"\n[[run]]\nname = "a"'
refused_spec "a plot of an unknown run" "plot p: runs: nope: no such run" \
  $'title = "x"\nconfig = "examples/torus4x4_dor.toml"\n[[run]]\nname = "a"\n[[plot]]\nname = "p"\nruns = ["a", "nope"]'
refused_spec "a plot without runs" "plot p: runs: give the runs" \
  $'title = "x"\nconfig = "examples/torus4x4_dor.toml"\n[[run]]\nname = "a"\n[[plot]]\nname = "p"'
refused_spec "links not a boolean" "run a: links = 'yes': must be true or false" \
  $'title = "x"\nconfig = "examples/torus4x4_dor.toml"\n[[run]]\nname = "a"\nlinks = "yes"'
refused_spec "a run sets --json" 'args: --json is set by runs.py' \
  $'title = "x"\nconfig = "examples/torus4x4_dor.toml"\n[[run]]\nname = "a"\nargs = ["--json", "x.json"]'
refused_spec "a run's config refused before anything runs" "run bad_vcs: its config is refused: .*router.vcs" \
  $'title = "x"\nconfig = "examples/torus4x4_dor.toml"\n[[run]]\nname = "fine"\n[[run]]\nname = "bad_vcs"\nset = { "router.vcs" = 0 }'
check "a run's config refused: no run ran" test ! -e "$work/bad/runs/fine.json"
refused_spec "a variant's design name too long" "run a_name_long_enough_to_overflow: its config is refused: .*design.name" \
  $'title = "x"\nconfig = "examples/torus4x4_dor.toml"\n[[run]]\nname = "a_name_long_enough_to_overflow"\nset = { "router.vcs" = 3 }'
/usr/bin/python3 sim/runs.py "$work/tiny.toml" --rlroute "$rlroute" --out "$work/out" --only nope 2> "$work/err.txt"
check "--only an unknown run: refused" grep -q -- '--only nope: nope: no such run' "$work/err.txt"
printf 'title = "x"\nconfig = "examples/torus4x4_dor.toml"\n[[run]]\nname = "broken"\nargs = ["--load", "7"]\n' \
  > "$work/fails.toml"
/usr/bin/python3 sim/runs.py "$work/fails.toml" --rlroute "$rlroute" --out "$work/fails" 2> "$work/err.txt"
check "a failing run: exits non-zero" test $? -ne 0
check "a failing run: its command and log" grep -q 'run broken failed (.*--load 7' "$work/err.txt"
for spec in sim/runs/*.toml; do
  check "$spec reads" /usr/bin/python3 -c "import sys; sys.path.insert(0, 'sim'); import runs; runs.read_spec('$spec')"
done
finish
