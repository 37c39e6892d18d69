#!/usr/bin/env bash
# Generates an example config and checks its RTL with both tools of DESIGN.md
# section 3: `verilator --lint-only -Wall` with zero warnings on the router
# top and the network top, and Yosys `synth` of the router top.
# usage: lint_and_synth.sh RLROUTE CONFIG WORKDIR [lint|synth|both]
# (default both). CTest runs the two halves as separate tests so the slow
# Yosys runs of the dragonfly examples can carry their own label.
set -euo pipefail
rlroute=$1 config=$2 work=$3 mode=${4:-both}
name=$(basename "$config" .toml)
out="$work/$name-$mode"
rm -rf "$out"
"$rlroute" gen "$config" -o "$out" > /dev/null
filelist=$(ls "$out"/*.f)
router=$(sed -n 's/.*"router": "\(.*\)".*/\1/p' "$out/manifest.json")
network=$(sed -n 's/.*"network": "\(.*\)".*/\1/p' "$out/manifest.json")
if [ "$mode" != synth ]; then
  for top in "$router" "$network"; do
    if ! verilator --lint-only -Wall -F "$filelist" --top-module "$top" > "$out/lint_$top.log" 2>&1; then
      echo "FAIL: verilator -Wall on $top:"; cat "$out/lint_$top.log"; exit 1
    fi
    if [ -s "$out/lint_$top.log" ]; then
      echo "FAIL: verilator printed warnings for $top:"; cat "$out/lint_$top.log"; exit 1
    fi
  done
  echo "ok: $name lints clean ($router, $network)"
fi
if [ "$mode" != lint ]; then
  sources=$(grep -v '^//' "$filelist" | sed "s#^#$out/#" | tr '\n' ' ')
  if ! yosys -q -l "$out/yosys.log" -p "read_verilog -sv $sources; synth -top $router; stat" > /dev/null 2>&1; then
    echo "FAIL: yosys synth of $router:"; grep -iE "error" "$out/yosys.log" | head; exit 1
  fi
  cells=$(grep -E "Number of cells" "$out/yosys.log" | tail -1 | awk '{print $4}')
  if [ -z "$cells" ] || [ "$cells" -le 0 ]; then echo "FAIL: yosys reported no cells for $router"; exit 1; fi
  echo "ok: $name synthesizes ($router: $cells cells)"
fi
