#!/usr/bin/env bash
# Q-adaptive's convergence and dynamic-load runs of docs/results.md
# ([Kang 2021], sections 5.5 and 5.6) on dfly(2,4,2,9) with the Q-adaptive
# paper's router and packets (sim/configs/dfly_2_4_2_9_kang2021.toml:
# single-flit packets, speedup 2, 40-flit VC buffers; 5 VCs, the paper's
# parameters): from an empty
# network under uniform random at 0.4 and 0.8, ADV+1 and ADV+4 at 0.4; then
# the load stepping 0.4 -> 0.8 -> 0.4 (uniform) and 0.2 -> 0.4 -> 0.2 (ADV+4)
# every 10,000 cycles. Windows of 250 cycles (8 us at 32 ns per cycle).
# Usage: sim/q_convergence.sh [OUT]   (OUT defaults to out/q_convergence)
# RLROUTE=PATH runs another binary (default build/rlroute). Writes OUT/*.csv
# (rlroute sim --series) and OUT/*.png; a few minutes on 2 cores.
set -euo pipefail
out=${1:-out/q_convergence}
rlroute=${RLROUTE:-build/rlroute}
mkdir -p "$out"
/usr/bin/python3 sim/variants.py --suffix q_adaptive --out "$out" --set 'routing.algorithm="q_adaptive"' \
  --set router.vcs=5 sim/configs/dfly_2_4_2_9_kang2021.toml > /dev/null
config="$out/dfly_2_4_2_9_kang2021_q_adaptive.toml"
run() {  # run NAME ARGS...
  local name=$1; shift
  "$rlroute" sim "$config" --warmup 0 --drain 0 --quiet --series "$out/$name.csv" --series-window 250 \
    --json "$out/$name.json" "$@"
}
run ur_0.4 --pattern uniform --load 0.4 --cycles 20000 &
run ur_0.8 --pattern uniform --load 0.8 --cycles 20000
wait
run adv1_0.4 --pattern adv+1 --load 0.4 --cycles 20000 &
run adv4_0.4 --pattern adv+4 --load 0.4 --cycles 20000
wait
run dyn_ur --phases "0:uniform@0.4,10000:uniform@0.8,20000:uniform@0.4" --cycles 30000 &
run dyn_adv4 --phases "0:adv+4@0.2,10000:adv+4@0.4,20000:adv+4@0.2" --cycles 30000
wait
/usr/bin/python3 sim/q_series_plot.py --out "$out/convergence.png" --title "Q-adaptive from an empty network" \
  "$out"/ur_0.4.csv "$out"/ur_0.8.csv "$out"/adv1_0.4.csv "$out"/adv4_0.4.csv
/usr/bin/python3 sim/q_series_plot.py --out "$out/dynamic.png" --title "Q-adaptive under changing load" \
  "$out"/dyn_ur.csv "$out"/dyn_adv4.csv
