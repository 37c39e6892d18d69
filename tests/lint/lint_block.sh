#!/usr/bin/env bash
# Lints one hand-written RTL block that no generated design uses yet with
# Verilator -Wall and synthesizes it with Yosys (../shared/DESIGN.md section
# 3: both tools must accept it), for one set of parameters.
# Usage: lint_block.sh RTL_DIR TOP "NAME=VALUE ..." FILE...   (rr_pkg.sv is added)
set -euo pipefail
rtl=$1 top=$2 params=$3
shift 3
files=("$rtl/rr_pkg.sv")
for f in "$@"; do files+=("$rtl/$f"); done
gflags=() chparams=""
for p in $params; do
  gflags+=("-G$p")
  chparams+=" -set ${p%%=*} ${p#*=}"
done
verilator --lint-only -Wall --top-module "$top" "${gflags[@]}" "${files[@]}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! yosys -q -p "read_verilog -sv ${files[*]}; chparam$chparams $top; synth -top $top; check -assert" > "$log" 2>&1; then
  cat "$log"
  echo "lint_block.sh: Yosys rejected $top ($params)" >&2
  exit 1
fi
echo "$top ($params): Verilator -Wall and Yosys synth clean"
