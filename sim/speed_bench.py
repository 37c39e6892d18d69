#!/usr/bin/python3
"""Simulation speed benchmark (docs/results.md, "Simulation speed"):
router-cycles per second (`router_cycles_per_second` of the results JSON: the
simulation loop's wall time) of the runs below, for one or more rlroute
binaries and thread counts, into a CSV and a bar chart.

    /usr/bin/python3 sim/speed_bench.py --out out/speed \\
        --binary before=/path/to/old/build/rlroute --binary after=build/rlroute \\
        --threads 1,2 --repeat 3

Runs: the 4x4 and 8x8 tori (DOR, uniform random) at loads 0.1, 0.5 and 1.0,
dfly(2,4,2,9) and dfly(4,8,4,33) (MIN, uniform random, 0.3), and
dfly(2,4,2,9) under Q-adaptive (0.5). `--only NAME`
(repeatable) picks runs by name. Each (run, binary, threads) is repeated
`--repeat` times and the median kept. A binary's models are built from its
own source tree (first run of each config); the JSON results of all threads
of one binary are checked to be the same (all keys but the speed).
Writes OUT/speed.csv (run,binary,threads,router_cycles_per_second,runs) and
OUT/speed.png.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

RUNS = [
    ("torus4x4 0.1", "examples/torus4x4_dor.toml", ["--load", "0.1", "--cycles", "40000", "--warmup", "2000"]),
    ("torus4x4 0.5", "examples/torus4x4_dor.toml", ["--load", "0.5", "--cycles", "40000", "--warmup", "2000"]),
    ("torus4x4 1.0", "examples/torus4x4_dor.toml", ["--load", "1.0", "--cycles", "40000", "--warmup", "2000"]),
    ("torus8x8 0.1", "examples/torus8x8_dor.toml", ["--load", "0.1", "--cycles", "10000", "--warmup", "1000"]),
    ("torus8x8 0.5", "examples/torus8x8_dor.toml", ["--load", "0.5", "--cycles", "10000", "--warmup", "1000"]),
    ("torus8x8 1.0", "examples/torus8x8_dor.toml", ["--load", "1.0", "--cycles", "10000", "--warmup", "1000"]),
    ("dfly(2,4,2,9) MIN 0.3", "examples/dfly_2_4_2_9_min.toml", ["--load", "0.3", "--cycles", "20000",
                                                                 "--warmup", "2000"]),
    ("dfly(2,4,2,9) Q 0.5", "examples/dfly_2_4_2_9_q_adaptive.toml", ["--load", "0.5", "--cycles", "5000",
                                                                      "--warmup", "500"]),
    ("dfly(4,8,4,33) MIN 0.3", "sim/configs/dfly_4_8_4_33_kang2021.toml", ["--load", "0.3", "--cycles", "2000",
                                                                           "--warmup", "500"]),
]
SPEED_KEYS = ("router_cycles_per_second", "wall_seconds", "threads")


def run_once(binary, config, args, threads):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [binary, "sim", os.path.join(ROOT, config)] + args + ["--json", out, "--quiet"]
        if threads is not None:
            cmd += ["--threads", str(threads)]
        subprocess.run(cmd, check=True)
        with open(out) as f:
            r = json.load(f)
    return r[0] if isinstance(r, list) else r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--binary", action="append", required=True, help="LABEL=PATH of an rlroute binary")
    ap.add_argument("--threads", default="1,2", help="thread counts (a binary without --threads runs once, as 1)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", action="append", help="run names to keep (default: all)")
    ap.add_argument("--no-threads-for", action="append", default=[],
                    help="LABEL of a binary that has no --threads flag")
    a = ap.parse_args()
    binaries = []
    for b in a.binary:
        label, sep, path = b.partition("=")
        if not sep or not os.access(path, os.X_OK):
            sys.exit(f"speed_bench.py: --binary {b}: must be LABEL=PATH of an executable")
        binaries.append((label, path))
    threads = [int(t) for t in a.threads.split(",")]
    runs = [r for r in RUNS if not a.only or r[0] in a.only]
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for name, config, args in runs:
        # Every (binary, threads) once per round, the rounds one after the
        # other: a machine that slows down for a while (other load, memory
        # reclaim) then weighs on every variant alike, not on one.
        variants = [(label, path, t) for label, path in binaries
                    for t in ([None] if label in a.no_threads_for else threads)]
        speeds = {v: [] for v in variants}
        reference = {}
        for _ in range(a.repeat):
            for label, path, t in variants:
                r = run_once(path, config, args, t)
                speeds[(label, path, t)].append(r["router_cycles_per_second"])
                same = {k: v for k, v in r.items() if k not in SPEED_KEYS}
                if reference.setdefault(label, same) != same:
                    sys.exit(f"speed_bench.py: {name}, {label}, {t} threads: results differ from the first run")
        for label, path, t in variants:
            got = speeds[(label, path, t)]
            row = {"run": name, "binary": label, "threads": t or 1,
                   "router_cycles_per_second": round(statistics.median(got)),
                   "runs": " ".join(str(round(s)) for s in got)}
            rows.append(row)
            print(f"{name:24} {label:8} {row['threads']} threads: {row['router_cycles_per_second']:>9,} "
                  f"router-cycles/s ({row['runs']})", flush=True)
    with open(os.path.join(a.out, "speed.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    plot(rows, os.path.join(a.out, "speed.png"))


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(dict.fromkeys(r["run"] for r in rows))
    series = list(dict.fromkeys((r["binary"], r["threads"]) for r in rows))
    fig, ax = plt.subplots(figsize=(11, 4.5))
    width = 0.8 / len(series)
    for k, (label, t) in enumerate(series):
        ys = [next((r["router_cycles_per_second"] for r in rows
                    if r["run"] == n and r["binary"] == label and r["threads"] == t), 0) for n in names]
        ax.bar([i + k * width for i in range(len(names))], ys, width, label=f"{label}, {t} thread{'s' * (t > 1)}")
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(names))])
    ax.set_xticklabels(names, rotation=20, ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("router-cycles per second")
    ax.set_title("rlroute sim speed (median of repeats; whole simulation loop)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
