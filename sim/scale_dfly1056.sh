#!/usr/bin/env bash
# The 1,056-node benchmark of docs/results.md: every dragonfly algorithm,
# Q-adaptive included, on sim/configs/dfly_4_8_4_33_kang2021.toml (the
# Q-adaptive paper's network and packet format [Kang 2021]) at the loads its
# section 5.3 discusses: uniform random at 0.8 and 1.0, ADV+1 and ADV+4 at 0.45
# and 1.0.
# Usage: sim/scale_dfly1056.sh [OUT]   (OUT defaults to out/scale_dfly1056)
# RLROUTE=PATH runs another binary (default build/rlroute). Writes
# OUT/configs/*.toml, OUT/uniform/, OUT/adv_1/ and OUT/adv_4/ (sweep.py output) and
# prints a Markdown table of every run. The measured window is 3125 cycles,
# 100 us at the paper's 32 ns flit time (it averages over 100 us). About 3.5
# hours on 2 cores (Q-adaptive's results in docs/results.md are taken
# after WARMUP=16000: ALGORITHMS="q_adaptive:5").
# The same comparison on another network: BASE=CONFIG (default
# sim/configs/dfly_4_8_4_33_kang2021.toml), RUNS="PATTERN@LOADS ..." (sweep.py
# loads; default "uniform@0.8,1.0 adv+1@0.45,1.0 adv+4@0.45,1.0"), WARMUP, CYCLES, DRAIN
# (default 2000, 3125, 1000). It also prints the saturation table
# (sim/saturation_table.py).
set -euo pipefail
out=${1:-out/scale_dfly1056}
base=${BASE:-sim/configs/dfly_4_8_4_33_kang2021.toml}
# Each algorithm with the VC levels it needs (docs/routing_dragonfly.md).
# ALGORITHMS="q_adaptive:5 min:2" limits the runs to those algorithms.
for spec in ${ALGORITHMS:-min:2 valg:3 valn:4 ugal_g:3 ugal_n:4 ugal_le:4 par:5 q_adaptive:5}; do
  algorithm=${spec%:*}
  extra=()
  # UGAL-g/n and PAR as [Kang 2021] ran them (the authors' code:
  # adaptive_threshold = 2, zero bias); UGAL-LE with the rule of
  # [Chaulagain 2024] and its window.
  case "$algorithm" in
    ugal_g|ugal_n|par) extra=(--set 'routing.ugal_rule="double_nonminimal"') ;;
    ugal_le) extra=(--set routing.contention_window=500 --set routing.contention_threshold=5) ;;
  esac
  /usr/bin/python3 sim/variants.py --suffix "$algorithm" --out "$out/configs" \
    --set "routing.algorithm=\"$algorithm\"" --set "router.vcs=${spec#*:}" "${extra[@]}" "$base" > /dev/null
done
dirs=()
for run in ${RUNS:-uniform@0.8,1.0 adv+1@0.45,1.0 adv+4@0.45,1.0}; do
  pattern=${run%@*}
  dir="$out/${pattern//+/_}"
  mkdir -p "$out"
  /usr/bin/python3 sim/sweep.py --rlroute "${RLROUTE:-build/rlroute}" --configs "$out/configs"/*.toml \
    --pattern "$pattern" --loads "${run#*@}" --warmup "${WARMUP:-2000}" --cycles "${CYCLES:-3125}" --drain "${DRAIN:-1000}" --seed 1 --jobs 2 \
    --out "$dir" > "$dir.log" 2>&1 || { echo "scale_dfly1056: sweep $pattern failed, see $dir.log" >&2; exit 1; }
  dirs+=("$dir")
done
# One row per config and run: accepted load, network latency, hops.
/usr/bin/python3 - "${dirs[@]}" <<'PY'
import csv, os, sys
print("| config | pattern | offered | accepted | latency avg | p99 | hops | drained |")
print("|---|---|---|---|---|---|---|---|")
for folder in sys.argv[1:]:
    with open(os.path.join(folder, "sweep.csv")) as f:
        for r in csv.DictReader(f):
            print(f"| {r['config']} | {r['pattern']} | {float(r['offered_load']):g} | {float(r['accepted_load']):.4f} | "
                  f"{float(r['lat_avg']):.1f} | {float(r['lat_p99']):.0f} | {float(r['avg_hops']):.2f} | {r['drained']} |")
PY
/usr/bin/python3 sim/saturation_table.py --latency "${dirs[@]}"
