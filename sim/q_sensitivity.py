#!/usr/bin/python3
"""Q-adaptive's sensitivity to its parameters (docs/results.md).

Runs Q-adaptive on one network (default sim/configs/dfly_2_4_2_9_kang2021.toml,
the Q-adaptive paper's router [Kang 2021] on 72 nodes, 5 VCs) once per parameter
variant and traffic point, from an empty network, and writes one row per run:
the accepted load, latency, p99, minimal share and hops of the measurement
window (after the warmup, which includes the learning transient), the table mean
at the end, and how long learning took: the first series window whose accepted
load reaches 95 % of the measurement window's (cycles; [Kang 2021], section 5.5,
calls this the convergence time).

    /usr/bin/python3 sim/q_sensitivity.py --out out/q_sensitivity [--jobs 2]

Each variant changes some [routing] keys; the keys are router parameters, so
each variant builds its own Verilator model (about a minute for dfly(2,4,2,9)).
Writes OUT/configs/*.toml, OUT/runs/<variant>_<point>.{json,series.csv},
OUT/sensitivity.csv and OUT/sensitivity.md (printed too).
"""
import argparse
import concurrent.futures
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (name, {routing key: TOML value}): the paper's parameters [Kang 2021] first,
# then one key changed at a time. Value widths: 8 bits need q_fraction_bits <= 2
# (at least 6 integer bits), so 8 bits are tried with 2 and 0 fraction bits.
VARIANTS = [
    ("paper", {}),
    ("no_learning", {"alpha": "0.0", "beta": "0.0"}),
    ("alpha_0.05", {"alpha": "0.05"}),
    ("alpha_0.1", {"alpha": "0.1"}),
    ("alpha_0.4", {"alpha": "0.4"}),
    ("beta_0.01", {"beta": "0.01"}),
    ("beta_0.1", {"beta": "0.1"}),
    ("beta_0.2", {"beta": "0.2"}),
    ("thld1_0.05", {"q_thld1": "0.05"}),
    ("thld1_0.1", {"q_thld1": "0.1"}),
    ("thld1_0.35", {"q_thld1": "0.35"}),
    ("thld2_0.1", {"q_thld2": "0.1"}),
    ("thld2_0.2", {"q_thld2": "0.2"}),
    ("thld2_0.5", {"q_thld2": "0.5"}),
    ("epsilon_0", {"epsilon": "0.0"}),
    ("epsilon_0.01", {"epsilon": "0.01"}),
    ("w16_f0", {"q_fraction_bits": "0"}),
    ("w16_f8", {"q_fraction_bits": "8"}),
    ("w12_f4", {"q_value_bits": "12"}),
    ("w12_f2", {"q_value_bits": "12", "q_fraction_bits": "2"}),
    ("w8_f2", {"q_value_bits": "8", "q_fraction_bits": "2"}),
    ("w8_f0", {"q_value_bits": "8", "q_fraction_bits": "0"}),
    # Fewer copies of the table (a head waits for its read port).
    ("read_ports_1", {"q_read_ports": "1"}),
    ("read_ports_2", {"q_read_ports": "2"}),
    ("read_ports_4", {"q_read_ports": "4"}),
    # The decision over two cycles (a faster clock, a cycle more per decision).
    ("decision_2", {"q_decision_cycles": "2"}),
]

# (name, pattern, offered load): the two overload points measure what the
# network carries (the "maximum load" of [Kang 2021], section 5.3), ADV+1 at 0.4
# what the learning does below saturation.
POINTS = [
    ("ur_1.0", "uniform", "1.0"),
    ("adv1_1.0", "adv+1", "1.0"),
    ("adv1_0.4", "adv+1", "0.4"),
]

SERIES_WINDOW = 250


def make_configs(base, out, variants):
    configs = {}
    for name, keys in variants:
        sets = ["--set", 'routing.algorithm="q_adaptive"', "--set", "router.vcs=5"]
        for key, value in keys.items():
            sets += ["--set", f"routing.{key}={value}"]
        folder = os.path.join(out, "configs")
        suffix = "q_" + name.replace(".", "p")  # variants.py takes letters, digits and _
        subprocess.run([sys.executable, os.path.join(HERE, "variants.py"), "--suffix", suffix, "--out", folder, *sets,
                        base], check=True, stdout=subprocess.DEVNULL)
        stem = os.path.splitext(os.path.basename(base))[0]
        configs[name] = os.path.join(folder, f"{stem}_{suffix}.toml")
    return configs


def run(rlroute, config, point, out, warmup, cycles, variant):
    name, pattern, load = point
    stem = os.path.join(out, "runs", f"{variant}_{name}")
    cmd = [rlroute, "sim", config, "--pattern", pattern, "--load", load, "--warmup", str(warmup), "--cycles",
           str(cycles), "--drain", "1000", "--seed", "1", "--quiet", "--json", stem + ".json", "--series",
           stem + ".series.csv", "--series-window", str(SERIES_WINDOW)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    with open(stem + ".json") as f:
        result = json.load(f)
    result = result[0] if isinstance(result, list) else result
    with open(stem + ".series.csv") as f:
        series = list(csv.DictReader(f))
    accepted = result["accepted_load"]
    converged = next((int(s["end"]) for s in series if float(s["accepted_load"]) >= 0.95 * accepted), None)
    end_q = next((s["mean_q"] for s in reversed(series) if s["mean_q"]), "")
    return {
        "variant": variant, "point": name, "pattern": pattern, "offered_load": float(load),
        "accepted_load": accepted, "lat_avg": result["latency"]["avg"], "lat_p99": result["latency"]["p99"],
        "minimal_share": result["minimal_share"], "avg_hops": result["avg_hops"],
        "mean_q_end": float(end_q) if end_q else float("nan"), "converged_cycle": converged,
        "wall_seconds": result["wall_seconds"],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default=os.path.join(HERE, "configs", "dfly_2_4_2_9_kang2021.toml"))
    ap.add_argument("--rlroute", default=os.path.join(ROOT, "build", "rlroute"))
    ap.add_argument("--out", default="out/q_sensitivity")
    ap.add_argument("--warmup", type=int, default=5000, help="cycles before the measurement window (default 5000)")
    ap.add_argument("--cycles", type=int, default=5000, help="measured cycles (default 5000)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--variants", default="", help="comma-separated variant names (default: all)")
    a = ap.parse_args()
    variants = VARIANTS
    if a.variants:
        wanted = a.variants.split(",")
        unknown = [w for w in wanted if w not in dict(VARIANTS)]
        if unknown:
            sys.exit(f"q_sensitivity: --variants: {', '.join(unknown)}: not one of {', '.join(n for n, _ in VARIANTS)}")
        variants = [v for v in VARIANTS if v[0] in wanted]
    os.makedirs(os.path.join(a.out, "runs"), exist_ok=True)
    configs = make_configs(a.base, a.out, variants)
    rows = []
    # The first point of each variant runs alone per variant (it builds the
    # model), then the rest.
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for wave in (POINTS[:1], POINTS[1:]):
            futures = [pool.submit(run, a.rlroute, configs[v], p, a.out, a.warmup, a.cycles, v)
                       for v, _ in variants for p in wave]
            for f in futures:
                r = f.result()
                rows.append(r)
                print(f"{r['variant']:>12} {r['point']:>9}: accepted {r['accepted_load']:.3f}, "
                      f"minimal {r['minimal_share']:.2f}, converged {r['converged_cycle']}", file=sys.stderr)
    order = {n: i for i, (n, _) in enumerate(variants)}
    rows.sort(key=lambda r: (order[r["variant"]], [p[0] for p in POINTS].index(r["point"])))
    with open(os.path.join(a.out, "sensitivity.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    lines = ["| variant | keys | " + " | ".join(f"{p[0]} accepted / p99 / minimal / converged" for p in POINTS) + " |",
             "|---|---|" + "---|" * len(POINTS)]
    for name, keys in variants:
        cells = []
        for p in POINTS:
            r = next(r for r in rows if r["variant"] == name and r["point"] == p[0])
            conv = r["converged_cycle"] if r["converged_cycle"] is not None else "-"
            cells.append(f"{r['accepted_load']:.3f} / {r['lat_p99']:.0f} / {r['minimal_share']:.2f} / {conv}")
        desc = ", ".join(f"{k} = {v}" for k, v in keys.items()) or "[Kang 2021]'s (alpha 0.2, beta 0.04, ...)"
        lines.append(f"| {name} | {desc} | " + " | ".join(cells) + " |")
    table = "\n".join(lines) + "\n"
    with open(os.path.join(a.out, "sensitivity.md"), "w") as f:
        f.write(table)
    print(table, end="")


if __name__ == "__main__":
    main()
