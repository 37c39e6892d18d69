#!/usr/bin/env bash
# The router-capacity benchmark of docs/results.md: every dragonfly
# algorithm of examples/dfly_2_4_2_9_*.toml under uniform random, ADV+1, ADV+4
# and the 50% router-level mix of [Chaulagain 2024], with one router variant:
#   s2    speedup 2, 32-flit output buffers, 4-flit packets, 24-flit VC buffers
#   s2sf  speedup 2, 32-flit output buffers, single-flit packets (128-bit
#         flits), 256-flit VC buffers with registered reads
#   s1    the examples as they are (speedup 1, 4-flit packets, 24-flit buffers)
#   s2v5  s2 with 5 VCs per port for every algorithm (PAR's count), so that
#         no algorithm wins or loses by its VC count alone
#   s2spec  s2 with speculative switch allocation (router.switch_allocation)
# Usage: sim/capacity_sweeps.sh VARIANT [OUT]   (OUT defaults to out/capacity)
# PATTERNS="uniform adv+1" limits the patterns (default: all four); RLROUTE=PATH
# runs another binary (default build/rlroute; a copy lets you rebuild meanwhile).
# Writes OUT/configs/VARIANT/*.toml, OUT/VARIANT/<pattern>/ (sweep.py output)
# and prints the saturation table. Run from the repository root after
# building build/rlroute; about 20 minutes per variant on 2 cores.
set -euo pipefail
variant=${1:?usage: sim/capacity_sweeps.sh s1|s2|s2sf|s2v5|s2spec [OUT]}
out=${2:-out/capacity}
case "$variant" in
  s1) sets=() ;;
  s2) sets=(--set router.speedup=2 --set router.output_buffer_flits=32) ;;
  s2sf) sets=(--set router.speedup=2 --set router.output_buffer_flits=32
              --set router.min_packet_flits=1 --set router.max_packet_flits=1
              --set router.buffer_flits=256 --set 'router.buffer_read="registered"'
              --set router.flit_bits=128 --set sim.packet_flits=1) ;;
  s2v5) sets=(--set router.speedup=2 --set router.output_buffer_flits=32 --set router.vcs=5) ;;
  s2spec) sets=(--set router.speedup=2 --set router.output_buffer_flits=32
                --set 'router.switch_allocation="speculative"') ;;
  *) echo "capacity_sweeps: VARIANT = $variant: must be one of s1, s2, s2sf, s2v5, s2spec" >&2; exit 2 ;;
esac
/usr/bin/python3 sim/variants.py --suffix "$variant" --out "$out/configs/$variant" "${sets[@]}" \
  examples/dfly_2_4_2_9_*.toml > /dev/null
mkdir -p "$out/$variant"
dirs=()
for pattern in ${PATTERNS:-uniform adv+1 adv+4 mixed:share=0.5}; do
  dir="$out/$variant/${pattern//[:=]/_}"
  /usr/bin/python3 sim/sweep.py --rlroute "${RLROUTE:-build/rlroute}" --configs "$out/configs/$variant"/*.toml --pattern "$pattern" \
    --loads 0.02,0.1:1.0:0.1 --warmup 2000 --cycles 5000 --drain 3000 --seed 1 --jobs 2 --out "$dir" > "$dir.log" 2>&1 \
    || { echo "capacity_sweeps: sweep $pattern failed, see $dir.log" >&2; exit 1; }
  dirs+=("$dir")
done
/usr/bin/python3 sim/saturation_table.py --latency "${dirs[@]}"
