#!/usr/bin/python3
"""Table 4.1 of the DQN-routing thesis [Lonardo 2019] on rlroute: the 4x4 torus
under DPSNN traffic (bursty all-to-all, docs/traffic.md "dpsnn") at the
thesis's firing rates, DOR against star-channel and DQN-routing
(docs/results.md, "DPSNN traffic").

The routers are the examples with the thesis's packets: 128-bit flits, packets
of up to 256 flits and 256-flit VC buffers (sim/variants.py writes them into
OUT). For each rate: DOR (2 VCs) and star (3 VCs); DQN-routing trained at that
rate (`rlroute train --pattern dpsnn:rate=R`, on a run with another seed: the
thesis's "pre-training"), then simulated with the quantized network on the
agent port (answering at once, the thesis's timing) and in the routers'
inference blocks (the example's block: 8 x 4 multipliers per layer, a decision
every 32 cycles).
With --init every rate's training starts from that weights file's network
(for instance one trained under uniform traffic) instead of random weights.
Each run covers about --steps steps after two of warmup. Writes OUT/dpsnn.csv
(a row per router and rate), OUT/dpsnn.md (the table in the thesis's form,
in cycles and in microseconds) and OUT/dpsnn.png.

    /usr/bin/python3 sim/dpsnn_table.py --out out/dpsnn
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The thesis's link [Lonardo 2019]: 1.92e8 flits/node/s of 128 bits, one flit
# per cycle.
NS_PER_CYCLE = 1e9 / 1.92e8
THESIS = {  # [Lonardo 2019, Table 4.1], microseconds: (mean, stdev, max) for DOR and DQN
    21: ((1.010, 0.508, 3.801), (1.006, 0.491, 4.729)),
    47: ((1.900, 1.487, 7.369), (1.861, 1.421, 8.101)),
    71: ((2.682, 2.429, 10.411), (2.618, 2.333, 11.270)),
    89: ((2.883, 2.678, 11.791), (2.832, 2.597, 12.270)),
    268: ((9.755, 10.511, 45.799), (9.672, 10.368, 41.810)),
    556: ((33.667, 25.985, 110.301), (31.290, 23.670, 124.154)),
}


def run(cmd):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True)


def burst_flits(rate, neurons, spike_bytes, flit_bits, max_packet, nodes):
    """Flits one node sends in a step of mean spike count (the model's message cut)."""
    spikes = neurons * rate * 1e-3
    payload = math.ceil(spikes * spike_bytes * 8 / flit_bits)
    packets = math.ceil(payload / (max_packet - 2))
    return (nodes - 1) * (payload + 2 * packets), (nodes - 1) * packets


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rlroute", default=os.path.join(ROOT, "build", "rlroute"))
    ap.add_argument("--out", default="out/dpsnn")
    ap.add_argument("--rates", default="21,47,71,89,268,556")
    ap.add_argument("--steps", type=int, default=20, help="steps measured per run (about)")
    ap.add_argument("--compute", type=int, default=1000, help="compute phase of a step, cycles")
    ap.add_argument("--train-decisions", type=int, default=60000,
                    help="train on at least about this many decisions per rate")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--init", help="a weights file every rate's training starts from (rlroute train --init), "
                                   "e.g. a network pre-trained under uniform traffic")
    ap.add_argument("--no-block", action="store_true", help="skip the runs with the inference block")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    p256 = ["--set", "router.flit_bits=128", "--set", "router.max_packet_flits=256",
            "--set", "router.buffer_flits=256"]
    for example in ("dor", "star", "dqn"):
        run([sys.executable, os.path.join(ROOT, "sim", "variants.py"), "--suffix", "p256", "--out", a.out]
            + p256 + [os.path.join(ROOT, "examples", f"torus4x4_{example}.toml")])
    run([sys.executable, os.path.join(ROOT, "sim", "variants.py"), "--suffix", "p256_ext", "--out", a.out]
        + p256 + ["--set", 'routing.dqn_agent="external"', os.path.join(ROOT, "examples", "torus4x4_dqn.toml")])
    config = {name: os.path.join(a.out, f"torus4x4_{name}.toml")
              for name in ("dor_p256", "star_p256", "dqn_p256", "dqn_p256_ext")}
    rows = []

    def simulate(router, cfg, rate, pattern, warmup, cycles, extra):
        out = os.path.join(a.out, f"sim_{router}_{rate}.json")
        start = time.time()
        run([a.rlroute, "sim", cfg, "--pattern", pattern, "--warmup", str(warmup), "--cycles", str(cycles),
             "--seed", str(a.seed), "--quiet", "--json", out] + extra)
        r = json.load(open(out))
        r = r[0] if isinstance(r, list) else r
        lat = r["latency"]
        rows.append({"router": router, "rate_hz": rate, "steps": r["app"]["steps_completed"],
                     "step_cycles": round(r["app"]["mean_step_cycles"], 1), "packets": r["measured_packets"],
                     "accepted_load": round(r["accepted_load"], 4), "avg_hops": round(r["avg_hops"], 3),
                     "latency_avg": round(lat["avg"], 2), "latency_stdev": round(lat["stdev"], 2),
                     "latency_max": lat["max"], "avg_us": round(lat["avg"] * NS_PER_CYCLE / 1e3, 3),
                     "stdev_us": round(lat["stdev"] * NS_PER_CYCLE / 1e3, 3),
                     "max_us": round(lat["max"] * NS_PER_CYCLE / 1e3, 3),
                     "wall_seconds": round(time.time() - start, 1)})

    for rate in [int(x) if float(x).is_integer() else float(x) for x in a.rates.split(",")]:
        pattern = f"dpsnn:rate={rate},compute={a.compute}"
        flits, packets = burst_flits(rate, 2500, 12, 128, 256, 16)
        step = a.compute + int(flits / 0.33)  # the step's length at about 0.33 flits/node/cycle accepted
        warmup, cycles = 2 * step, a.steps * step
        simulate("dor", config["dor_p256"], rate, pattern, warmup, cycles, [])
        simulate("star", config["star_p256"], rate, pattern, warmup, cycles, [])
        weights = os.path.join(a.out, f"weights_{rate}.json")
        decisions_per_step = 16 * packets * 2.2
        train_cycles = max(warmup + cycles, step * math.ceil(a.train_decisions / decisions_per_step))
        start = time.time()
        run([a.rlroute, "train", config["dqn_p256_ext"], "-o", weights, "--pattern", pattern,
             "--cycles", str(train_cycles), "--seed", str(a.seed + 100), "--quiet",
             "--curve", os.path.join(a.out, f"curve_{rate}.csv")] + (["--init", a.init] if a.init else []))
        train_seconds = round(time.time() - start, 1)
        provenance = json.load(open(weights))["provenance"]
        simulate("dqn_agent", config["dqn_p256_ext"], rate, pattern, warmup, cycles, ["--weights", weights])
        rows[-1].update({"train_seconds": train_seconds, "train_cycles": train_cycles,
                         "train_steps": provenance.get("steps"),
                         "agreement": provenance.get("quantized_action_agreement")})
        if not a.no_block:
            simulate("dqn_block", config["dqn_p256"], rate, pattern, warmup, cycles, ["--weights", weights])

    fields = ["router", "rate_hz", "steps", "step_cycles", "packets", "accepted_load", "avg_hops", "latency_avg",
              "latency_stdev", "latency_max", "avg_us", "stdev_us", "max_us", "wall_seconds", "train_seconds",
              "train_cycles", "train_steps", "agreement"]
    with open(os.path.join(a.out, "dpsnn.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)

    routers = list(dict.fromkeys(r["router"] for r in rows))
    by = {(r["router"], r["rate_hz"]): r for r in rows}
    rates = list(dict.fromkeys(r["rate_hz"] for r in rows))
    lines = ["| rate Hz | " + " | ".join(f"{x} mean / stdev / max us" for x in routers)
             + " | Lonardo 2019 DOR | Lonardo 2019 DQN |", "|---" * (len(routers) + 3) + "|"]
    for rate in rates:
        cells = [f"{by[(x, rate)]['avg_us']:.3f} / {by[(x, rate)]['stdev_us']:.3f} / {by[(x, rate)]['max_us']:.3f}"
                 for x in routers]
        thesis = THESIS.get(rate)
        ref = [" / ".join(f"{v:.3f}" for v in t) for t in thesis] if thesis else ["", ""]
        lines.append(f"| {rate} | " + " | ".join(cells) + f" | {ref[0]} | {ref[1]} |")
    open(os.path.join(a.out, "dpsnn.md"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for x in routers:
        pts = [by[(x, rate)] for rate in rates]
        ax[0].plot(rates, [p["avg_us"] for p in pts], marker="o", label=x)
        ax[1].plot(rates, [p["stdev_us"] for p in pts], marker="o", label=x)
    for i, label in enumerate(("mean", "stdev")):
        ax[i].plot([r for r in rates if r in THESIS], [THESIS[r][0][i] for r in rates if r in THESIS], "k--",
                   marker="x", label="Lonardo 2019 DOR")
        ax[i].set_xlabel("mean firing rate (Hz)")
        ax[i].set_ylabel(f"{label} network latency (us, 5.2 ns cycles)")
        ax[i].set_xscale("log")
        ax[i].set_yscale("log")
        ax[i].legend(fontsize=7)
    fig.suptitle("4x4 torus, DPSNN bursty all-to-all (128-bit flits, packets up to 256 flits)")
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "dpsnn.png"), dpi=120)


if __name__ == "__main__":
    main()
