#!/usr/bin/env bash
# Sets up (if needed), builds and runs the test suite through CTest, all but
# the long labels that CI runs in its second step (.ci/run, README).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cd build
ctest --output-on-failure -j 2 --timeout 1200 --label-exclude "synth_long|net_long|synth_full"
