#!/usr/bin/python3
"""DQN-routing measured while its agent learns, as its thesis [Lonardo 2019]
measured it (docs/dqn.md, "Measured while it learns").

For each --loads value: `rlroute train CONFIG --load L --warmup W --cycles C
--json`, a fresh agent learning (and exploring) behind every router's agent
port for W cycles and then measured over C more while it keeps learning,
beside DOR and star-channel (`rlroute sim`, the same warmup and window).
`--set section.key=value` changes every config (sim/variants.py) and
`--sim-args` adds flags to every run. Writes OUT/online.csv (a row per router
and load) and OUT/online.png.

    /usr/bin/python3 sim/dqn_online.py --out out/dqn_online
"""
import argparse
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True)


def variant(config, suffix, sets, out):
    """The config with --set applied (sim/variants.py), or the config itself."""
    if not sets:
        return config
    cmd = [sys.executable, os.path.join(ROOT, "sim", "variants.py"), config, "--suffix", suffix, "--out", out]
    for kv in sets:
        cmd += ["--set", kv]
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()


def row(router, load, result):
    return {"router": router, "offered_load": load, "accepted_load": result["accepted_load"],
            "latency_avg": result["latency"]["avg"], "latency_p99": result["latency"]["p99"],
            "avg_hops": result["avg_hops"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rlroute", default=os.path.join(ROOT, "build", "rlroute"))
    ap.add_argument("--out", default="out/dqn_online")
    ap.add_argument("--loads", default="0.6,0.7,0.8,0.9")
    ap.add_argument("--warmup", type=int, default=40000, help="cycles of learning before the window")
    ap.add_argument("--cycles", type=int, default=10000, help="the measured window, learning on")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], help="section.key=value for every config")
    ap.add_argument("--sim-args", default="", help="more flags for every run")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    extra = a.sim_args.split()
    window = ["--warmup", str(a.warmup), "--cycles", str(a.cycles), "--seed", str(a.seed)]
    examples = os.path.join(ROOT, "examples")
    rows = []
    for name in ("dor", "star"):
        cfg = variant(os.path.join(examples, f"torus4x4_{name}.toml"), "set", a.set, a.out)
        out = os.path.join(a.out, f"sim_{name}.json")
        run([a.rlroute, "sim", cfg, "--load", a.loads, "--quiet", "--json", out] + window + extra)
        results = json.load(open(out))
        for result in results if isinstance(results, list) else [results]:
            rows.append(row(name, result["offered_load"], result))
    dqn = variant(os.path.join(examples, "torus4x4_dqn.toml"), "set", a.set, a.out)
    for load in a.loads.split(","):
        out = os.path.join(a.out, f"online_{load}.json")
        run([a.rlroute, "train", dqn, "-o", os.path.join(a.out, f"weights_{load}.json"), "--load", load, "--quiet",
             "--json", out, "--curve", os.path.join(a.out, f"curve_{load}.csv")] + window + extra)
        rows.append(row("dqn_online", float(load), json.load(open(out))))
    with open(os.path.join(a.out, "online.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    for router in ("dor", "star", "dqn_online"):
        rs = sorted((r for r in rows if r["router"] == router), key=lambda r: r["offered_load"])
        loads = [r["offered_load"] for r in rs]
        ax1.plot(loads, [r["accepted_load"] for r in rs], marker="o", label=router)
        ax2.plot(loads, [r["latency_avg"] for r in rs], marker="o", label=router)
    ax1.set_xlabel("offered load (flits/node/cycle)")
    ax1.set_ylabel("accepted load")
    ax2.set_xlabel("offered load (flits/node/cycle)")
    ax2.set_ylabel("average latency (cycles)")
    ax1.legend()
    fig.suptitle("4x4 torus, uniform random: DQN-routing learning while measured")
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "online.png"), dpi=110)


if __name__ == "__main__":
    main()
