#!/usr/bin/env bash
# What a hostile-but-honest user types, and what must then hold: a one-line
# error naming the flag or key, the value and the rule; a non-zero exit; the
# user's files intact (symbolic links and folders inside an earlier output,
# the config, another output of the same run); nothing half-written after an
# interrupt, and no false build failure in the model cache.
# usage: test_hostile_input.sh RLROUTE EXAMPLES_DIR WORKDIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: test_hostile_input.sh RLROUTE EXAMPLES_DIR WORKDIR" >&2; exit 2; }  # a missing WORKDIR must not become /
rlroute=$(realpath "$1") examples=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
cfg=$examples/torus4x4_dor.toml
long=(--cycles 1073741824 --quiet)  # minutes of simulation: every refusal must come first


# gen onto its own earlier output keeps what the user put there.
"$rlroute" gen "$cfg" -o "$work/g2" > /dev/null
mkdir "$work/udata" && ln -s ../udata "$work/g2/my_results" && mkdir "$work/g2/e"
refused_run "gen onto its output holding the user's symlink" "-o $work/g2: holds (my_results \\(a symbolic link\\)|e/), which rlroute did not write; not overwriting" \
  gen "$cfg" -o "$work/g2"
check "gen: the user's symlink survives" test -L "$work/g2/my_results"
check "gen: the user's empty folder survives" test -d "$work/g2/e"
rm "$work/g2/my_results"
refused_run "gen onto its output holding the user's empty folder" "-o $work/g2: holds e/, which rlroute did not write" \
  gen "$cfg" -o "$work/g2"
check "gen: the empty folder survives" test -d "$work/g2/e"

# Two outputs of one run on one file, or an output on an input.
cp "$cfg" "$work/cfg.toml"
refused_run "sim --json on the config" "--json $work/cfg.toml: is the config, an input; not overwriting it" \
  sim "$work/cfg.toml" "${long[@]}" --json "$work/cfg.toml"
check "sim --json on the config: the config is intact" cmp -s "$cfg" "$work/cfg.toml"
refused_run "sim --json and --series on one file" "--series $work/none.json: is also the output of --json" \
  sim "$cfg" "${long[@]}" --json "$work/none.json" --series "$work/none.json"
refused_run "train -o and --curve on one file" "--curve $work/none.json: is also the output of -o" \
  train "$examples/torus4x4_dqn.toml" -o "$work/none.json" --curve "$work/none.json" --cycles 1073741824
refused_run "train -o and --json on one file" "--json $work/none.json: is also the output of -o" \
  train "$examples/torus4x4_dqn.toml" -o "$work/none.json" --json "$work/none.json" --cycles 1073741824
ln "$work/cfg.toml" "$work/hardlink.toml"
refused_run "sim --json on a hard link of the config" "--json $work/hardlink.toml: is the config, an input" \
  sim "$work/cfg.toml" "${long[@]}" --json "$work/hardlink.toml"

# Empty values are refused, not read as "not given".
for flag in --load --json --series --links --trace --pattern --phases; do
  refused_run "sim $flag ''" "$flag \"\": an empty value; give one, or leave the option out" sim "$cfg" "${long[@]}" $flag ''
done
refused_run "synth --block ''" '--block "": an empty value' synth "$cfg" --block '' -o "$work/none_synth"
refused_run "--load with a trailing comma" '--load 0.3,: every load must be a number in \(0, 1\]' sim "$cfg" "${long[@]}" --load 0.3,
refused_run "--phases with a trailing comma" '--phases 0:uniform@0.1,: must be CYCLE:PATTERN@LOAD.*ends with a comma' \
  sim "$cfg" "${long[@]}" --phases 0:uniform@0.1,
for cycle in -5 +5 0x10; do
  esc=${cycle//+/\\+}
  refused_run "--phases with a later cycle $cycle" "--phases 0:uniform@0\\.1,$esc:uniform@0\\.2: phase 2: the cycle \"$esc\" must be a decimal integer >= 0" \
    sim "$cfg" "${long[@]}" --phases "0:uniform@0.1,$cycle:uniform@0.2"
done
refused_run "--phases after the measurement" '--phases 0:uniform@0.1,5000:uniform@0.2: the phase at cycle 5000 starts after the measurement ends \(cycle 1100 = warmup 100 \+ cycles 1000\)' \
  sim "$cfg" --quiet --warmup 100 --cycles 1000 --phases "0:uniform@0.1,5000:uniform@0.2"

# Errors that keep their context.
printf '[topology]\nkind = "torus"\ndims = [4, 4]\n[sim]\npattern = "adv+1"\n' > "$work/adv.toml"
refused_run "a dragonfly pattern in a torus config" "$work/adv.toml:5:1: sim.pattern = \"adv\\+1\": traffic pattern \"adv\\+1\": needs a dragonfly" \
  sim "$work/adv.toml" "${long[@]}"
printf '[topology]\nkind = "torus"\ndims = [4, 4]\n[sim]\npattern = "uni\\u0000form"\n' > "$work/nul.toml"
refused_run "a NUL in a config string" '.*: unknown traffic pattern "uni\\x00form"' sim "$work/nul.toml" "${long[@]}"
refused_run "invalid UTF-8 in a flag" '--pattern a\\xffb: unknown traffic pattern "a\\xffb"' sim "$cfg" "${long[@]}" --pattern $'a\xffb'
huge=$(head -c 100000 /dev/zero | tr '\0' x)
refused_run "a 100,000-character flag value" '--pattern x+\.\.\.\([0-9]+ bytes\)\.\.\.x+: unknown traffic pattern' sim "$cfg" "${long[@]}" --pattern "$huge"
check "a 100,000-character flag value: the line is short" test "$(wc -c < "$work/err.txt")" -lt 2000
python3 - "$work/big.json" "$work/twice.json" <<'PY'
import json, sys
layers = [{"inputs": i, "outputs": o, "shift": 0, "weights": [[0] * i for _ in range(o)], "biases": [0] * o}
          for i, o in zip([13, 32, 32], [32, 32, 4])]
text = json.dumps({"rlroute_dqn_weights": 1, "weight_bits": 8, "activation_bits": 8, "provenance": {}, "layers": layers})
open(sys.argv[1], "w").write(text.replace('"biases": [0', '"biases": [1e400', 1))
open(sys.argv[2], "w").write(text.replace('"weight_bits": 8', '"weight_bits": 8, "weight_bits": 4', 1))
PY
refused_run "a weight of 1e400" "$work/big.json: not JSON: .*1e400" sim "$examples/torus4x4_dqn.toml" "${long[@]}" --weights "$work/big.json"
refused_run "a key twice in a weights file" "$work/twice.json: the key \"weight_bits\" appears twice in one object" \
  sim "$examples/torus4x4_dqn.toml" "${long[@]}" --weights "$work/twice.json"

# Output paths that are not plain files.
refused_run "--json DIR/" "--json $work/nonedir/: names a directory; name a file" sim "$cfg" "${long[@]}" --json "$work/nonedir/"
echo first > "$work/res.txt"
"$rlroute" sim "$cfg" --load 0.1 --cycles 200 --warmup 50 --quiet --json /dev/stdout >> "$work/res.txt"
check "--json /dev/stdout: exits 0" test $? -eq 0
check "--json /dev/stdout: the redirection target is written, not replaced" test "$(head -1 "$work/res.txt")" = first
check "--json /dev/stdout: the results are there" grep -q '"accepted_load"' "$work/res.txt"
truncate -s 300M "$work/huge.lib"
refused_run "synth --liberty of 300 MiB" "--liberty $work/huge.lib: the file is 300 MiB; the limit is 256 MiB" \
  synth "$cfg" --liberty "$work/huge.lib" -o "$work/none_synth"
rm "$work/huge.lib"

# --threads beyond the routers and the CPUs: the run says what it uses.
start=$SECONDS
"$rlroute" sim "$cfg" --load 0.1 --cycles 300 --warmup 50 --threads 256 --json "$work/t.json" > /dev/null 2> "$work/err.txt"
check "--threads 256: exits 0" test $? -eq 0
check "--threads 256: says how many it runs" grep -qE '^rlroute: --threads 256: running [0-9]+ \(one thread per router at most, 16 routers; one per CPU at most' "$work/err.txt"
check "--threads 256: the JSON has the threads it ran" grep -qE '"threads": ([1-9]|1[0-6]),' "$work/t.json"
check "--threads 256: quick" test $((SECONDS - start)) -lt 60

# A write that fails (here a file-size limit; a full disk the same): the
# error names the file the user asked for and the system's reason.
(trap '' XFSZ; ulimit -f 8; exec "$rlroute" gen "$cfg" -o "$work/none_gen") > /dev/null 2> "$work/err.txt"
check "gen over a file-size limit: exits non-zero" test $? -ne 0
check "gen over a file-size limit: names the output and the reason" grep -qE "^rlroute: error: -o $work/none_gen/.*: cannot write: File too large" "$work/err.txt"
check "gen over a file-size limit: nothing left" test -z "$(find "$work" -name 'none_gen*' -print)"

# Ctrl-C (SIGINT to the whole process group, as a terminal sends it) during a
# model build: rlroute ends by SIGINT, says nothing about a failed build, and
# leaves no staging directory and no .failed entry in the cache.
cache=$work/cache
mkdir -p "$cache"
RLROUTE_CACHE=$cache setsid "$rlroute" sim "$work/cfg.toml" --cycles 100 --quiet > /dev/null 2> "$work/err.txt" &
pid=$!
for _ in $(seq 1 600); do
  [ -n "$(find "$cache" -name build.log -size +0 -print 2>/dev/null)" ] && break
  sleep 0.1
done
check "Ctrl-C during a model build: the build had started" test -n "$(find "$cache" -name build.log -print)"
kill -INT -- "-$pid"
wait "$pid"
rc=$?
check "Ctrl-C during a model build: ends by SIGINT" test $rc -eq 130
check "Ctrl-C during a model build: no false build failure" test -z "$(grep -i fail "$work/err.txt")"
check "Ctrl-C during a model build: no .failed entry" test -z "$(find "$cache" -name '*.failed' -print)"
check "Ctrl-C during a model build: no staging directory" test -z "$(find "$cache" -name '*.tmp-*' -print)"

finish
