#!/usr/bin/env bash
# Proves with Yosys that an RTL block reads as the same circuit with and
# without its simulation-speed guards (docs/architecture.md, "RTL written for
# simulation speed"): the block's SKIP_IDLE is 1 under Verilator (the
# VERILATOR macro) and 0 for synthesis, and the guards may only skip work
# whose results are zero anyway. Both readings are elaborated with the same
# parameters, matched by their ports and registers (equiv_make), and every
# output and register input is proven equal (equiv_simple, equiv_induct).
#
# Usage: sim_guards_equiv.sh [--broken SED] RTL_DIR TOP "NAME=VALUE ..." FILE...
#   (rr_pkg.sv is added). With --broken, the guarded reading of the last FILE
#   is first edited by the sed expression SED, and the check must fail: the
#   test that shows the proof can tell two different circuits apart.
set -euo pipefail
broken=""
if [[ ${1:-} == --broken ]]; then
  broken=$2
  shift 2
fi
rtl=$1 top=$2 params=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gold=("$rtl/rr_pkg.sv") gate=("$rtl/rr_pkg.sv")
for f in "$@"; do
  gold+=("$rtl/$f")
  gate+=("$rtl/$f")
done
if [[ -n $broken ]]; then
  last=${gate[-1]}
  sed -e "$broken" "$last" > "$work/$(basename "$last")"
  if cmp -s "$last" "$work/$(basename "$last")"; then
    echo "sim_guards_equiv.sh: --broken '$broken' changes nothing in $last" >&2
    exit 1
  fi
  gate[-1]="$work/$(basename "$last")"
fi
chparams=""
for p in $params; do chparams+=" -set ${p%%=*} ${p#*=}"; done

# One reading per design, flattened (submodules would clash by name):
# registers kept, every other internal name dropped, the ports of flattened
# submodules included (the guards leave temporaries unset where they skip
# work, and a reading may drive a submodule input differently where the
# submodule ignores it: only ports and state count).
elaborate() {  # name, defines, files...
  local name=$1 defines=$2
  shift 2
  yosys -q -p "read_verilog $defines -sv $*; chparam$chparams $top; hierarchy -top $top; proc; flatten;
               hierarchy -top $top; rename -hide w:* x:* %d t:\$*dff* %co:+[Q] w:* %i %d;
               async2sync; opt_clean -purge; rename $top $name;
               write_rtlil $work/$name.il" > "$work/$name.log" 2>&1 ||
    { cat "$work/$name.log"; echo "sim_guards_equiv.sh: Yosys could not read $top ($name)" >&2; exit 1; }
}
elaborate synthesis "" "${gold[@]}"
elaborate simulation -DVERILATOR "${gate[@]}"

proved=0
yosys -q -p "read_rtlil $work/synthesis.il; read_rtlil $work/simulation.il;
             equiv_make synthesis simulation equiv; hierarchy -top equiv;
             equiv_simple; equiv_induct; equiv_status -assert" > "$work/equiv.log" 2>&1 && proved=1
if [[ -z $broken ]]; then
  if ((proved)); then
    echo "$top ($params): the simulation and synthesis readings are equivalent"
    exit 0
  fi
  cat "$work/equiv.log"
  echo "sim_guards_equiv.sh: $top ($params) is not the same circuit with its simulation guards" >&2
  exit 1
fi
if ((proved)); then
  echo "sim_guards_equiv.sh: $top ($params) edited by '$broken' was proven equivalent: the check cannot fire" >&2
  exit 1
fi
grep -m1 "unproven" "$work/equiv.log" || true
echo "$top ($params), edited by '$broken': told apart, as it must be"
