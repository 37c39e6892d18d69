#!/usr/bin/env bash
# Sets up (if needed), builds and runs the whole test suite through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cd build
ctest --output-on-failure -j 2 --timeout 1200 --label-exclude "synth_long|synth_full"
