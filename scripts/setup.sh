#!/usr/bin/env bash
# Installs what rlroute needs from Debian (when missing) and builds it in build/.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(verilator yosys opensta libsystemc-dev cmake g++ clang make libgtest-dev libtomlplusplus-dev libcli11-dev libfmt-dev
          nlohmann-json3-dev zlib1g-dev python3-matplotlib libtorch-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" > /dev/null
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build -j "$(nproc)"
