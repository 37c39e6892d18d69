#!/usr/bin/env bash
# Builds BookSim 2 [Jiang 2013] from its public source, for the side-by-side
# runs of docs/reference_simulators.md.
#   bash sim/reference/build_booksim.sh BOOKSIM_SRC OUT [LOCAL_CYCLES GLOBAL_CYCLES]
# BOOKSIM_SRC: a checkout of booksim/booksim2 (read only: its src/ is copied,
# since its Makefile builds in place). OUT: a new or empty directory (or one
# this script made); the binary is OUT/booksim. LOCAL_CYCLES GLOBAL_CYCLES:
# the dragonfly's channel latencies, which BookSim fixes in its code at 10
# and 100 (dragonflynew's SetLatency calls), set in the copy; e.g. 10 15 for
# the UGAL-LE paper's setup [Chaulagain 2024].
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
usage="build_booksim.sh BOOKSIM_SRC OUT [LOCAL_CYCLES GLOBAL_CYCLES]"
[ $# -eq 4 ] || args_or_usage 2 "$usage" "$@"
src=$(realpath "$1") out=$(realpath -m "$2")
if [ ! -f "$src/src/Makefile" ] || [ ! -f "$src/src/networks/dragonfly.cpp" ]; then
  echo "BOOKSIM_SRC $1: not a BookSim 2 checkout (no src/Makefile and src/networks/dragonfly.cpp)" >&2
  exit 2
fi
if [ $# -eq 4 ]; then
  for v in "$3" "$4"; do
    [[ "$v" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "channel latency $v: must be a whole number of cycles in 1..9999" >&2; exit 2; }
  done
  # BookSim's dragonflynew sets each channel and its credit channel: two
  # calls of 10 cycles (local) and two of 100 (global).
  for fixed in 10 100; do
    if [ "$(grep -c "SetLatency($fixed);" "$src/src/networks/dragonfly.cpp")" -ne 2 ]; then
      echo "BOOKSIM_SRC $1: src/networks/dragonfly.cpp does not set two channels to SetLatency($fixed); (another BookSim version?)" >&2
      exit 2
    fi
  done
fi
claim_dir "$out"
apt_needs g++ make flex bison
start=$(date +%s)
rm -rf "$out/src"
cp -a "$src/src" "$out/src"
if [ $# -eq 4 ]; then
  sed -i -e "s/SetLatency(10);/SetLatency($3);/" -e "s/SetLatency(100);/SetLatency($4);/" "$out/src/networks/dragonfly.cpp"
  echo "channel latencies set to $3 (local) and $4 (global) in $out/src/networks/dragonfly.cpp"
fi
make -C "$out/src" -j "$(nproc)" > "$out/build.log" 2>&1 || { tail -20 "$out/build.log" >&2; echo "BookSim build failed: $out/build.log" >&2; exit 1; }
cp "$out/src/booksim" "$out/booksim"
echo "built $out/booksim in $(( $(date +%s) - start )) s (from $src, $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo "not a git checkout"))"
