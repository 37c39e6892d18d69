#!/usr/bin/env bash
# The main job: set up, generate the 4x4 torus DOR example, simulate it in
# Verilator under uniform random traffic at a few loads and print the table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --demo
./build/rlroute gen examples/torus4x4_dor.toml -o out/torus4x4_dor
./build/rlroute sim examples/torus4x4_dor.toml --pattern uniform --load 0.05,0.15,0.25,0.35,0.45,0.6 \
  --cycles 10000 --warmup 2000 --json out/torus4x4_dor_uniform.json
