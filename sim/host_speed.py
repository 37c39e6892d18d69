#!/usr/bin/python3
"""What the SystemC host layer costs in simulation speed (docs/host.md,
"What it costs"): on the same networks, `rlroute sim` under uniform random
traffic at an offered load against `rlroute app` with the random workload
(each rank sends one-packet messages to uniformly drawn ranks) at the same
load, router-cycles per second of each (the simulation loop's wall time).

    /usr/bin/python3 sim/host_speed.py --rlroute build/rlroute --out out/host_speed --repeat 5

A rank's send blocks while its packet's flits enter the network (P cycles
for a P-flit packet), so the workload's mean interval between a rank's
sends, C + P, is set to P / load. Each pair runs `--repeat` times in
alternation (a machine that slows down for a while weighs on both alike);
the median is kept. Writes OUT/host_speed.csv and OUT/host_speed.png.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (name, config, cycles of the sim run); every config has 64-bit flits and
# 4-flit packets: a 16-byte message is one packet.
NETWORKS = [
    ("torus4x4", "examples/torus4x4_dor.toml", 40000),
    ("torus8x8", "examples/torus8x8_dor.toml", 10000),
    ("dfly(2,4,2,9) MIN", "examples/dfly_2_4_2_9_min.toml", 20000),
]
PACKET_FLITS, MESSAGE_BYTES = 4, 16


def run(cmd):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        subprocess.run(cmd + ["--json", out, "--quiet"], check=True)
        with open(out) as f:
            return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rlroute", default=os.path.join(ROOT, "build", "rlroute"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--loads", default="0.1,0.3")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for name, config, cycles in NETWORKS:
        config = os.path.join(ROOT, config)
        for load in [float(x) for x in a.loads.split(",")]:
            interval = round(PACKET_FLITS / load) - PACKET_FLITS
            messages = max(1, cycles // (interval + PACKET_FLITS))
            sim = [a.rlroute, "sim", config, "--pattern", "uniform", "--load", str(load), "--packet-flits",
                   str(PACKET_FLITS), "--cycles", str(cycles), "--warmup", "0", "--drain", "0"]
            app = [a.rlroute, "app", config, "--workload",
                   f"random:bytes={MESSAGE_BYTES},interval={interval},messages={messages}"]
            got = {"sim": [], "app": []}
            for _ in range(a.repeat):
                got["sim"].append(run(sim))
                got["app"].append(run(app))
            medians = {}
            for mode, results in got.items():
                speeds = [r["router_cycles_per_second"] for r in results]
                medians[mode] = statistics.median(speeds)
                r = results[0]
                rows.append({"network": name, "load": load, "mode": mode, "cycles": r["cycles"],
                             "accepted_load": round(r["accepted_load"], 4),
                             "router_cycles_per_second": round(medians[mode]),
                             "runs": " ".join(str(round(s)) for s in speeds)})
            print(f"{name:20} {load}: sim {medians['sim']:>10,.0f}  app {medians['app']:>10,.0f} router-cycles/s "
                  f"(app/sim {medians['app'] / medians['sim']:.3f})", flush=True)
    with open(os.path.join(a.out, "host_speed.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    plot(rows, os.path.join(a.out, "host_speed.png"))


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    points = list(dict.fromkeys((r["network"], r["load"]) for r in rows))
    fig, ax = plt.subplots(figsize=(9, 4))
    for k, mode in enumerate(("sim", "app")):
        ys = [next(r["router_cycles_per_second"] for r in rows if (r["network"], r["load"]) == p and r["mode"] == mode)
              for p in points]
        label = "rlroute sim, uniform random" if mode == "sim" else "rlroute app, random workload (SystemC)"
        ax.bar([i + k * 0.4 for i in range(len(points))], ys, 0.4, label=label)
    ax.set_xticks([i + 0.2 for i in range(len(points))])
    ax.set_xticklabels([f"{n}\n{load}" for n, load in points], fontsize=8)
    ax.set_ylabel("router-cycles per second")
    ax.set_title("The SystemC host layer's cost (median of repeats, one thread)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
