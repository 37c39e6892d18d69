#!/usr/bin/env bash
# End-to-end checks of `rlroute train`: a short training run writes a weights
# file (with its provenance) that `rlroute sim --weights` and `rlroute gen
# --weights` take, and a training curve; bad input is refused with one line
# and nothing written; a file rlroute did not write is never replaced.
# usage: test_train.sh RLROUTE EXAMPLES_DIR WORKDIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: test_train.sh RLROUTE EXAMPLES_DIR WORKDIR" >&2; exit 2; }  # a missing WORKDIR must not become /
rlroute=$(realpath "$1") examples=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
cfg="$examples/torus4x4_dqn.toml"

"$rlroute" train "$cfg" -o "$work/w.json" --curve "$work/c.csv" --warmup 300 --cycles 500 --load 0.3 --seed 3 \
  --json "$work/online.json" 2> "$work/err.txt"
check "train exits 0" test $? -eq 0
check "train: trains through the warmup and the window" grep -q "for 800 cycles" "$work/err.txt"
check "train --json: the results of the window after the warmup" \
  grep -q '"offered_load": 0.3' "$work/online.json"
check "train --json: every check passed" grep -q '"failure": ""' "$work/online.json"
check "train: shows progress" grep -q '^rlroute: step     1000  epsilon 0.910' "$work/err.txt"
check "train: reports the quantization" grep -qE 'the same action as the quantization-aware network on [0-9.]+% of [0-9]+ calibration observations' "$work/err.txt"
check "train: a weights file" grep -q '"rlroute_dqn_weights"' "$work/w.json"
check "train: its provenance" grep -q '"quantized_action_agreement"' "$work/w.json"
check "train: quantization-aware by default" grep -q '"quantization":"aware"' "$work/w.json"
"$rlroute" train "$cfg" -o "$work/post.json" --cycles 500 --load 0.3 --seed 3 --post-quantization --quiet
check "train --post-quantization exits 0" test $? -eq 0
check "train --post-quantization: named in the provenance" grep -q '"quantization":"post-training"' "$work/post.json"
check "train: the curve's header" grep -q '^step,epsilon,rewards,mean_reward,loss,updates$' "$work/c.csv"
check "train: a curve row per 1000 decisions" test "$(grep -c '^[0-9]*000,' "$work/c.csv")" -ge 2
"$rlroute" sim "$cfg" --load 0.1 --cycles 300 --warmup 50 --weights "$work/w.json" --quiet
check "sim --weights takes the trained file" test $? -eq 0
"$rlroute" gen "$cfg" -o "$work/gen" --weights "$work/w.json" > /dev/null
check "gen --weights takes the trained file" test -f "$work/gen/torus4x4_dqn_dqn_program.memh"
# Constant weights: the trained network built into the package, named with
# its file's hash; no programming image and no programming port.
mkdir -p "$work/const"
sed 's/^algorithm = "dqn"/algorithm = "dqn"\ndqn_weights_mode = "constant"/; /^dqn_weights_mode = "programmable"/d' "$cfg" \
  > "$work/const/torus4x4_dqn.toml"
"$rlroute" gen "$work/const/torus4x4_dqn.toml" -o "$work/genc" --weights "$work/w.json" > /dev/null
check "gen --weights with constant weights exits 0" test $? -eq 0
check "constant weights: the network in the package" grep -q "localparam logic \[12544-1:0\] DQN_WEIGHTS = {" \
  "$work/genc/torus4x4_dqn_pkg.sv"
check "constant weights: the file and its hash named" grep -qE "$work/w.json \(hash [0-9a-f]{16}\)" "$work/genc/torus4x4_dqn_pkg.sv"
check "constant weights: no programming image" test ! -e "$work/genc/torus4x4_dqn_dqn_program.memh"
check "constant weights: no programming port" bash -c "! grep -qE 'input +logic.* prog_we_i' '$work/genc/torus4x4_dqn_router.sv'"
check "programmable weights: the programming port" grep -qE 'input +logic.* prog_we_i' "$work/gen/torus4x4_dqn_router.sv"
check "train: keeps the floating-point network" grep -q '"float_layers"' "$work/w.json"
# The agent outside, under the example's file name: the same RTL as the
# network `train` ran, so its model is the cached one.
mkdir -p "$work/ext"
sed 's/^algorithm = "dqn"/algorithm = "dqn"\ndqn_agent = "external"/' "$cfg" > "$work/ext/torus4x4_dqn.toml"
"$rlroute" sim "$work/ext/torus4x4_dqn.toml" --load 0.1 --cycles 300 --warmup 50 --weights "$work/w.json" --float-agent \
  --json "$work/float.json" --quiet
check "sim --float-agent runs the floating-point network" grep -q "\"dqn_network\": \"$work/w.json, its floating-point network\"" "$work/float.json"
"$rlroute" sim "$cfg" --load 0.1 --cycles 300 --weights "$work/w.json" --float-agent --quiet 2> "$work/err.txt"
check "sim --float-agent with the block: exits non-zero" test $? -ne 0
check "sim --float-agent with the block: message" grep -qx 'rlroute: error: --float-agent: only for routing.dqn_agent = "external" (the inference block runs the quantized network)' "$work/err.txt"
"$rlroute" sim "$work/ext/torus4x4_dqn.toml" --load 0.1 --cycles 300 --float-agent --quiet 2> "$work/err.txt"
check "sim --float-agent without a file: message" grep -q 'holds no floating-point network (float_layers; rlroute train writes it)$' "$work/err.txt"
"$rlroute" train "$cfg" -o "$work/w.json" --cycles 300 --load 0.3 --quiet
check "train replaces its own weights file" test $? -eq 0
# --init: training starts from the file's floating-point network. A run too
# short for a gradient step gives that network back, so it routes as the
# original does.
"$rlroute" train "$cfg" -o "$work/w_init.json" --init "$work/w.json" --cycles 200 --load 0.1 --seed 4 \
  2> "$work/err.txt"
check "train --init exits 0" test $? -eq 0
check "train --init: no gradient step in a short run" grep -q ' 0 gradient steps' "$work/err.txt"
check "train --init: provenance names the file" grep -qF "\"init\":\"$work/w.json\"" "$work/w_init.json"
for w in w w_init; do
  "$rlroute" sim "$work/ext/torus4x4_dqn.toml" --load 0.3 --cycles 400 --warmup 50 --weights "$work/$w.json" \
    --float-agent --json "$work/float_$w.json" --quiet
done
check "train --init: the network comes back and routes the same" \
  diff <(grep -vE '"(dqn_network|router_cycles_per_second|wall_seconds)"' "$work/float_w.json") \
       <(grep -vE '"(dqn_network|router_cycles_per_second|wall_seconds)"' "$work/float_w_init.json")
"$rlroute" train "$cfg" -o "$work/w_more.json" --init "$work/w.json" --cycles 600 --load 0.3 --seed 4 2> "$work/err.txt"
check "train --init: explores at epsilon 0.1 from the start" grep -q '^rlroute: step     1000  epsilon 0.100' "$work/err.txt"

refused() {  # refused NAME EXPECTED_MESSAGE ARGS...
  local name=$1 want=$2; shift 2
  rm -f "$work/none.json"
  "$rlroute" train "$@" 2> "$work/err.txt" > /dev/null
  local rc=$?
  check "$name: exits non-zero" test $rc -ne 0
  check "$name: one line" test "$(wc -l < "$work/err.txt")" -eq 1
  check "$name: message" grep -qF -- "$want" "$work/err.txt"
}
refused "a dor config" 'routing.algorithm = "dor": rlroute train trains DQN-routing'"'"'s agent' \
  "$examples/torus4x4_dor.toml" -o "$work/none.json"
check "a dor config: nothing written" test ! -e "$work/none.json"
sed 's/^algorithm = "dqn"/algorithm = "dqn"\ndqn_ack_ratio = 0/' "$cfg" > "$work/noack.toml"
refused "no acks" 'routing.dqn_ack_ratio = 0: no packet asks for an ack, so no reward comes; training needs 1 or more' \
  "$work/noack.toml" -o "$work/none.json"
sed 's/^algorithm = "dqn"/algorithm = "dqn"\ndqn_episodes = 0/' "$cfg" > "$work/notable.toml"
refused "no episode table" 'routing.dqn_episodes = 0: no pending-episode table, so no ack and no reward comes; training needs 1 or more entries' \
  "$work/notable.toml" -o "$work/none.json"
echo "my notes" > "$work/mine.json"
refused "a file rlroute did not write" "$work/mine.json" "$cfg" -o "$work/mine.json" --cycles 300 --load 0.3
check "a file rlroute did not write: kept" grep -qx "my notes" "$work/mine.json"
refused "a missing directory" "-o $work/nodir/w.json: directory $work/nodir does not exist" \
  "$cfg" -o "$work/nodir/w.json"
refused "dpsnn with --load" "--load 0.5: conflicts with the dpsnn pattern, whose rate sets the load" \
  "$cfg" -o "$work/none.json" --pattern dpsnn --load 0.5
refused "a bad load" "--load 1.5" "$cfg" -o "$work/none.json" --load 1.5
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); del j["float_layers"]; json.dump(j, open(sys.argv[2], "w"))' \
  "$work/w.json" "$work/nofloat.json"
refused "--init without a float network" \
  "--init $work/nofloat.json: holds no floating-point network (float_layers; rlroute train writes it)" \
  "$cfg" -o "$work/none.json" --init "$work/nofloat.json"
sed "s/^dqn_hidden = .*/dqn_hidden = [16, 32]/" "$cfg" > "$work/h16.toml"
refused "--init of another shape" "$work/w.json: layers[0].outputs = 32: must be 16 (routing.dqn_hidden[0])" \
  "$work/h16.toml" -o "$work/none.json" --init "$work/w.json"
refused "--init of a missing file" "$work/missing.json" "$cfg" -o "$work/none.json" --init "$work/missing.json"
check "--init refused: nothing written" test ! -e "$work/none.json"

finish
