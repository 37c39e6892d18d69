#!/usr/bin/env bash
# Generates a config and lints its RTL as DESIGN.md section 3 asks:
# `verilator --lint-only -Wall` with zero warnings on the router top or the
# network top (TOP). (Yosys runs in the synth.* tests, tests/synth/.)
# usage: lint.sh RLROUTE CONFIG WORKDIR router|network
set -euo pipefail
rlroute=$1 config=$2 work=$3 which=$4
name=$(basename "$config" .toml)
out="$work/$name"
rm -rf "$out"
"$rlroute" gen "$config" -o "$out" > /dev/null
filelist=$(ls "$out"/*.f)
router=$(sed -n 's/.*"router": "\(.*\)".*/\1/p' "$out/manifest.json")
network=$(sed -n 's/.*"network": "\(.*\)".*/\1/p' "$out/manifest.json")
case "$which" in
  router) top=$router ;;
  network) top=$network ;;
  *) echo "lint.sh: TOP must be router or network, not '$which'" >&2; exit 2 ;;
esac
if ! verilator --lint-only -Wall -F "$filelist" --top-module "$top" > "$out/lint_$top.log" 2>&1; then
  echo "FAIL: verilator -Wall on $top:"; cat "$out/lint_$top.log"; exit 1
fi
if [ -s "$out/lint_$top.log" ]; then
  echo "FAIL: verilator printed warnings for $top:"; cat "$out/lint_$top.log"; exit 1
fi
echo "ok: $name lints clean ($top)"
