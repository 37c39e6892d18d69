#!/usr/bin/env bash
# Builds BookSim 2 [Jiang 2013] from its public source, for the side-by-side
# runs of docs/reference_simulators.md.
#   bash sim/reference/build_booksim.sh BOOKSIM_SRC OUT
# BOOKSIM_SRC: a checkout of booksim/booksim2 (read only: its src/ is copied,
# since its Makefile builds in place). OUT: a new or empty directory (or one
# this script made); the binary is OUT/booksim.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
args_or_usage 2 "build_booksim.sh BOOKSIM_SRC OUT" "$@"
src=$(realpath "$1") out=$(realpath -m "$2")
if [ ! -f "$src/src/Makefile" ] || [ ! -f "$src/src/networks/dragonfly.cpp" ]; then
  echo "BOOKSIM_SRC $1: not a BookSim 2 checkout (no src/Makefile and src/networks/dragonfly.cpp)" >&2
  exit 2
fi
claim_dir "$out"
apt_needs g++ make flex bison
start=$(date +%s)
rm -rf "$out/src"
cp -a "$src/src" "$out/src"
make -C "$out/src" -j "$(nproc)" > "$out/build.log" 2>&1 || { tail -20 "$out/build.log" >&2; echo "BookSim build failed: $out/build.log" >&2; exit 1; }
cp "$out/src/booksim" "$out/booksim"
echo "built $out/booksim in $(( $(date +%s) - start )) s (from $src, $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo "not a git checkout"))"
