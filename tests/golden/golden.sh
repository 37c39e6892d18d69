#!/usr/bin/env bash
# The emitted SystemVerilog of a few examples, committed so that every
# emitter change shows its SV diff in review (docs/architecture.md, "Golden
# files").
#
#   tests/golden/golden.sh check RLROUTE [GOLDEN_DIR]   compare, byte for byte
#   tests/golden/golden.sh refresh RLROUTE              rewrite tests/golden/<example>/
#
# Each directory tests/golden/<example>/ holds what `rlroute gen
# examples/<example>.toml` writes, less the copies of the hand-written rtl/
# blocks and the output marker. `check` fails on any difference: a file
# changed, missing or new. `refresh` writes only into those directories.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
examples=(torus4x4_dor torus4x4_dqn dfly_2_4_2_9_ugal_le dfly_2_4_2_9_q_adaptive)

usage() { echo "usage: $0 check|refresh RLROUTE [GOLDEN_DIR]" >&2; exit 2; }
[ $# -ge 2 ] || usage
mode=$1 rlroute=$2 golden=${3:-$here}
case $mode in check | refresh) ;; *) usage ;; esac
[ "$mode" = check ] || [ "$golden" = "$here" ] || { echo "golden: refresh writes only $here" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
for ex in "${examples[@]}"; do
  "$rlroute" gen "$root/examples/$ex.toml" -o "$work/$ex" > /dev/null
  rm -rf "$work/$ex/rtl" "$work/$ex/.rlroute-output"
  if [ "$mode" = refresh ]; then
    mkdir -p "$golden/$ex"
    find "$golden/$ex" -maxdepth 1 -type f -delete
    cp "$work/$ex"/* "$golden/$ex/"
    echo "golden: refreshed $golden/$ex ($(ls "$golden/$ex" | wc -l) files)"
  elif ! diff -r -u "$golden/$ex" "$work/$ex" > "$work/$ex.diff"; then
    echo "golden: $ex: the emitted files differ from $golden/$ex (first lines of the diff):"
    head -40 "$work/$ex.diff"
    fails=$((fails + 1))
  else
    echo "golden: $ex: identical ($(ls "$golden/$ex" | wc -l) files)"
  fi
done
if [ "$fails" -gt 0 ]; then
  echo "golden: $fails of ${#examples[@]} examples differ; if the change is meant, run" \
       "'tests/golden/golden.sh refresh build/rlroute' and review the diff"
  exit 1
fi
