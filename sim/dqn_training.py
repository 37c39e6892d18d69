#!/usr/bin/python3
"""DQN-routing's agent: train networks of several sizes in the loop and compare
what they route like (docs/dqn.md, "Packets of 3 to 256 flits, trained once").

For each hidden-layer shape: `rlroute train` on the 4x4 torus (the agent
outside the routers, uniform traffic at --train-load for --train-cycles), then
`rlroute sim --weights` with the quantized network answering on the agent port
at every --loads value, beside the same network in floating point
(`--float-agent`: what quantization costs), the untrained random network of
the same shape and the baselines (DOR with 2 VCs, star-channel); with
--block also in the routers' inference blocks. `--set
section.key=value` changes every config (DOR, star and the DQN router: sim/variants.py),
`--dqn-set` the DQN router's alone (e.g. routing.dqn_fallback="hop"),
and `--sim-args` adds flags to every train and sim run, e.g. the packets of
[Lonardo 2019]:

    /usr/bin/python3 sim/dqn_training.py --out out/dqn_training_p256 --set router.flit_bits=128 \
        --set router.max_packet_flits=256 --set router.buffer_flits=256 \
        --sim-args "--packet-flits-min 3 --packet-flits-max 256"

Writes OUT/training.csv (a row per network and load), OUT/curves.csv (every
training curve), and OUT/training.png / OUT/curves.png.

    /usr/bin/python3 sim/dqn_training.py --out out/dqn_training
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rlroute", default=os.path.join(ROOT, "build", "rlroute"))
    ap.add_argument("--out", default="out/dqn_training")
    ap.add_argument("--shapes", default="16;32,32;64,64;256,256",
                    help="hidden layer sizes per network, ';' between networks")
    ap.add_argument("--train-load", type=float, default=0.3)
    ap.add_argument("--train-cycles", type=int, default=30000)
    ap.add_argument("--loads", default="0.05,0.3,0.5,0.6")
    ap.add_argument("--cycles", type=int, default=5000)
    ap.add_argument("--warmup", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], help="section.key=value for every config")
    ap.add_argument("--dqn-set", action="append", default=[],
                    help="section.key=value for the DQN router only (e.g. routing.dqn_fallback=\"hop\")")
    ap.add_argument("--sim-args", default="", help="more flags for every train and sim run")
    ap.add_argument("--no-float", action="store_true", help="skip the floating-point runs")
    ap.add_argument("--block", action="store_true",
                    help="also run the trained weights in the routers' inference blocks (the config's block)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    extra_args = a.sim_args.split()
    sets = [x for kv in a.set for x in ("--set", kv)]

    def example(name):
        """The example config, or its variant with --set applied (in OUT)."""
        path = os.path.join(ROOT, "examples", f"{name}.toml")
        if not sets:
            return path
        run([sys.executable, os.path.join(ROOT, "sim", "variants.py"), path, "--suffix", "set", "--out", a.out]
            + sets)
        return os.path.join(a.out, f"{name}_set.toml")

    base = example("torus4x4_dqn")
    rows, curves = [], []

    def simulate(config, label, hidden, extra):
        out = os.path.join(a.out, f"sim_{label}.json")
        run([a.rlroute, "sim", config, "--load", a.loads, "--cycles", str(a.cycles), "--warmup", str(a.warmup),
             "--seed", str(a.seed + 1), "--quiet", "--json", out] + extra + extra_args)
        results = json.load(open(out))
        for r in results if isinstance(results, list) else [results]:
            rows.append({"network": label, "hidden": hidden, "offered_load": r["offered_load"],
                         "accepted_load": r["accepted_load"], "latency_avg": r["latency"]["avg"],
                         "latency_p99": r["latency"]["p99"], "avg_hops": r["avg_hops"],
                         "dqn_pdor_share": r.get("dqn_pdor_share", "")})

    for shape in a.shapes.split(";"):
        name = "h" + shape.replace(",", "x")
        config = os.path.join(a.out, f"{os.path.splitext(os.path.basename(base))[0]}_{name}.toml")
        run([sys.executable, os.path.join(ROOT, "sim", "variants.py"), base, "--suffix", name, "--out", a.out,
             "--set", f"routing.dqn_hidden=[{shape}]", "--set", 'routing.dqn_agent="external"']
            + [x for kv in a.dqn_set for x in ("--set", kv)])
        weights = os.path.join(a.out, f"weights_{name}.json")
        curve = os.path.join(a.out, f"curve_{name}.csv")
        start = time.time()
        run([a.rlroute, "train", config, "-o", weights, "--curve", curve, "--cycles", str(a.train_cycles),
             "--load", str(a.train_load), "--seed", str(a.seed), "--quiet"] + extra_args)
        seconds = time.time() - start
        provenance = json.load(open(weights))["provenance"]
        for c in csv.DictReader(open(curve)):
            c["network"] = name
            curves.append(c)
        simulate(config, f"{name}_trained", shape, ["--weights", weights])
        if not a.no_float:
            simulate(config, f"{name}_float", shape, ["--weights", weights, "--float-agent"])
        if a.block:
            block_config = os.path.join(a.out, f"{os.path.splitext(os.path.basename(base))[0]}_{name}_block.toml")
            run([sys.executable, os.path.join(ROOT, "sim", "variants.py"), base, "--suffix", f"{name}_block",
                 "--out", a.out, "--set", f"routing.dqn_hidden=[{shape}]"] + [x for kv in a.dqn_set for x in ("--set", kv)])
            simulate(block_config, f"{name}_block", shape, ["--weights", weights])
        simulate(config, f"{name}_untrained", shape, [])
        for r in rows:
            if r["network"] == f"{name}_trained":
                r["train_seconds"] = round(seconds, 1)
                r["agreement"] = provenance.get("quantized_action_agreement")
                r["steps"] = provenance.get("steps")
    for name, label in (("torus4x4_dor", "dor"), ("torus4x4_star", "star")):
        simulate(example(name), label, "", [])

    fields = ["network", "hidden", "offered_load", "accepted_load", "latency_avg", "latency_p99", "avg_hops",
              "dqn_pdor_share", "steps", "agreement", "train_seconds"]
    with open(os.path.join(a.out, "training.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(a.out, "curves.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["network", "step", "epsilon", "rewards", "mean_reward", "loss", "updates"])
        w.writeheader()
        w.writerows(curves)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for label in dict.fromkeys(r["network"] for r in rows):
        pts = [r for r in rows if r["network"] == label]
        ax[0].plot([p["offered_load"] for p in pts], [p["latency_avg"] for p in pts], marker="o", label=label)
        ax[1].plot([p["offered_load"] for p in pts], [p["avg_hops"] for p in pts], marker="o", label=label)
    ax[0].set_xlabel("offered load (flits/node/cycle)")
    ax[0].set_ylabel("average latency (cycles)")
    ax[0].set_yscale("log")
    ax[1].set_xlabel("offered load (flits/node/cycle)")
    ax[1].set_ylabel("average hops")
    ax[0].legend(fontsize=7)
    fig.suptitle("4x4 torus, uniform: DQN-routing trained vs untrained (agent on the agent port), DOR, star")
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "training.png"), dpi=120)
    fig, ax = plt.subplots(figsize=(6, 4))
    for name in dict.fromkeys(c["network"] for c in curves):
        pts = [c for c in curves if c["network"] == name]
        ax.plot([int(c["step"]) for c in pts], [float(c["mean_reward"]) for c in pts], label=name)
    ax.set_xlabel("decisions (steps)")
    ax.set_ylabel("mean reward per 1000 steps (distance / latency)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "curves.png"), dpi=120)
    print(os.path.join(a.out, "training.csv"))


if __name__ == "__main__":
    main()
