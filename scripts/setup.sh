#!/usr/bin/env bash
# Installs what rlroute needs from Debian (when missing) and builds it in build/.
#   bash scripts/setup.sh          everything: the rlroute command, rlroute-train and the test suite
#   bash scripts/setup.sh --demo   the rlroute command alone, with only the packages it needs (scripts/demo.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
demo=0
case "${1:-}" in
  "") ;;
  --demo) demo=1 ;;
  *) echo "setup.sh: unknown argument \"$1\"; use no argument (everything) or --demo" >&2; exit 2 ;;
esac
# The rlroute command: generation, simulation (Verilator), synthesis (Yosys and OpenSTA, run as tools).
packages=(verilator cmake g++ make libtomlplusplus-dev libcli11-dev libfmt-dev nlohmann-json3-dev zlib1g-dev)
if [ $demo -eq 0 ]; then
  # The rest: synthesis, Clang for the network models, the SystemC host layer (found by pkg-config),
  # tests, training, plots (rlroute report) and the browser its test loads the page in.
  packages+=(yosys opensta libsystemc-dev pkg-config clang libgtest-dev python3-matplotlib libtorch-dev chromium)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi
if [ $demo -eq 1 ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRLROUTE_TRAIN=OFF -DRLROUTE_HOST=OFF -DRLROUTE_TESTS=OFF > /dev/null
  echo "setup: building the rlroute command"
  cmake --build build -j "$(nproc)" --target rlroute
else
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRLROUTE_TRAIN=ON -DRLROUTE_HOST=ON -DRLROUTE_TESTS=ON > /dev/null
  cmake --build build -j "$(nproc)"
fi
