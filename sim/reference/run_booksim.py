#!/usr/bin/python3
"""Runs BookSim 2 (built by sim/reference/build_booksim.sh) on its own
dragonfly, `dragonflynew`, for every routing function, pattern, offered load
and seed asked for, and tabulates the accepted load, the average packet
network latency (injection to ejection, as rlroute measures it) and hops
(router-to-router links, as rlroute counts them: BookSim's count of routers
crossed less one) over the measured window.

    /usr/bin/python3 sim/reference/run_booksim.py --booksim out/reference/booksim-build/booksim \\
        --out out/reference/booksim --routings min,ugal --patterns uniform,adv+1 --loads 1.0 --seeds 1,2,3

The network is dfly(k, 2k, k, 2k^2 + 1) (k = 4: dfly(4,8,4,33), 1,056 nodes)
with BookSim's fixed 10-cycle local and 100-cycle global channels; the
router is its input-queued VC router with the options below (its
examples/dragonflyconfig, single-flit packets). BookSim runs `--warmup`
cycles, clears its statistics, and measures `--cycles` more
(`sim_type = throughput`: no drain, the accepted load of an overloaded
network is its throughput). Patterns by rlroute's names: uniform, and
adv+1 (BookSim's `bad_dragon`: every node to a random node of the next
group). VCs are BookSim's: 2 for min, 3 for ugal (its routing functions
assert them).

Writes, under --out: runs/<routing>__<pattern>__<load>__s<seed>.json (one
per run, with the config, the command and its wall time) and booksim.csv (a
row per run of this call, rewritten after each run). Resumable: a run whose
JSON is there is not run again. BookSim's exit status is 255 when its
simulation succeeds (its main returns -1 then); anything else is a failure.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

from reference_table import parse_loads, write_csv

FIELDS = ["routing", "pattern", "offered_load", "seed", "accepted_load", "latency_avg", "avg_hops", "vcs",
          "warmup", "cycles", "wall_seconds"]
PATTERNS = {"uniform": "uniform", "adv+1": "bad_dragon"}
VCS = {"min": 2, "ugal": 3}  # fixed by BookSim's dragonfly routing functions


def config_text(args, routing, pattern, load, seed):
    """A BookSim config: examples/dragonflyconfig's router with the run's
    routing, pattern, load, seed and lengths."""
    options = {
        "topology": "dragonflynew", "k": args.k, "n": 1,
        "routing_function": routing, "num_vcs": VCS[routing],
        "vc_buf_size": args.buffer, "wait_for_tail_credit": 0,
        "vc_allocator": "separable_input_first", "sw_allocator": "separable_input_first", "alloc_iters": 1,
        "credit_delay": 2, "routing_delay": 0, "vc_alloc_delay": 1, "sw_alloc_delay": 1, "st_final_delay": 1,
        "input_speedup": 1, "output_speedup": 1, "internal_speedup": args.speedup,
        "priority": "none", "traffic": PATTERNS[pattern], "packet_size": 1,
        "injection_rate": load, "injection_rate_uses_flits": 1,
        "sim_type": "throughput", "sim_count": 1,
        # One sample period of warmup per --cycles, then exactly one measured
        # period: max_samples ends the loop whatever the convergence.
        "sample_period": args.cycles, "warmup_periods": args.warmup // args.cycles,
        "max_samples": args.warmup // args.cycles + 1,
        "seed": seed, "watch_out": "-",
    }
    return "".join(f"{k} = {v};\n" for k, v in options.items())


def overall(text, label):
    """A figure of BookSim's "Overall Traffic Statistics" block."""
    block = text.split("====== Overall Traffic Statistics ======")
    if len(block) < 2:
        raise RuntimeError("no \"Overall Traffic Statistics\" in BookSim's output")
    m = re.search(rf"^{re.escape(label)} = ([-0-9.e+]+)", block[-1], re.M)
    if not m:
        raise RuntimeError(f"no \"{label}\" in BookSim's overall statistics")
    return float(m.group(1))


def run(args, routing, pattern, load, seed):
    name = f"{routing}__{pattern}__{load:g}__s{seed}"
    result = os.path.join(args.out, "runs", name + ".json")
    if os.path.exists(result):
        with open(result) as f:
            return json.load(f)
    work = os.path.join(args.out, "work")
    os.makedirs(work, exist_ok=True)
    config = config_text(args, routing, pattern, load, seed)
    config_path = os.path.join(work, name + ".cfg")
    with open(config_path, "w") as f:
        f.write(config)
    cmd = [args.booksim, config_path]
    t0 = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.monotonic() - t0
    log = os.path.join(work, name + ".log")
    with open(log, "w") as f:
        f.write(r.stdout)
    if r.returncode != 255:
        raise RuntimeError(f"booksim failed, exit {r.returncode} ({' '.join(cmd)}; log {log}):\n{r.stdout[-3000:]}")
    data = {"routing": routing, "pattern": pattern, "offered_load": load, "seed": seed, "vcs": VCS[routing],
            "warmup": args.warmup, "cycles": args.cycles, "wall_seconds": round(wall, 1),
            "accepted_load": overall(r.stdout, "Accepted flit rate average"),
            "latency_avg": overall(r.stdout, "Network latency average"),
            # BookSim counts the routers a packet crosses; rlroute the links between them.
            "avg_hops": overall(r.stdout, "Hops average") - 1, "command": cmd, "config": config}
    with open(result + ".tmp", "w") as f:
        json.dump(data, f, indent=1)
    os.replace(result + ".tmp", result)
    os.remove(config_path)
    os.remove(log)
    return data


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--booksim", required=True, help="the booksim binary of build_booksim.sh's OUT")
    ap.add_argument("--out", required=True)
    ap.add_argument("--routings", default="min,ugal", help=f"comma-separated: {', '.join(VCS)}")
    ap.add_argument("--patterns", default="uniform,adv+1", help=f"comma-separated: {', '.join(PATTERNS)}")
    ap.add_argument("--loads", default="1.0")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--k", type=int, default=4, help="dragonflynew's k: k hosts and k global links per router")
    ap.add_argument("--warmup", type=int, default=30000, help="cycles before the measured window")
    ap.add_argument("--cycles", type=int, default=10000, help="the measured window, in cycles")
    ap.add_argument("--buffer", type=int, default=256, help="flits per VC (vc_buf_size)")
    ap.add_argument("--speedup", type=float, default=2.0, help="internal_speedup")
    args = ap.parse_args()
    if not (os.path.isfile(args.booksim) and os.access(args.booksim, os.X_OK)):
        ap.error(f"--booksim {args.booksim}: not an executable (build it: sim/reference/build_booksim.sh)")
    args.booksim = os.path.abspath(args.booksim)
    loads = parse_loads(ap, args.loads)
    routings, patterns = args.routings.split(","), args.patterns.split(",")
    for flag, values, known in (("--routings", routings, VCS), ("--patterns", patterns, PATTERNS)):
        for v in values:
            if v not in known:
                ap.error(f"{flag} {v}: unknown (known: {', '.join(known)})")
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
    except ValueError:
        ap.error(f"--seeds {args.seeds}: not a comma-separated list of integers")
    if args.cycles <= 0 or args.warmup < 0 or args.warmup % args.cycles:
        ap.error(f"--warmup {args.warmup}: must be a multiple of --cycles {args.cycles} (BookSim warms up in "
                 "whole sample periods)")
    if args.k < 1 or args.buffer < 1 or args.speedup < 1:
        ap.error("--k and --buffer must be at least 1, --speedup at least 1.0")
    os.makedirs(os.path.join(args.out, "runs"), exist_ok=True)
    todo = [(r, p, x, s) for r in routings for p in patterns for x in loads for s in seeds]
    rows = []
    for i, (r, p, x, s) in enumerate(todo):
        print(f"  [{i + 1}/{len(todo)}] {r} {p} {x:g} seed {s}", flush=True)
        try:
            rows.append(run(args, r, p, x, s))
        except RuntimeError as e:
            print(f"run_booksim.py: {e}", file=sys.stderr)
            return 1
        write_csv(os.path.join(args.out, "booksim.csv"), rows, FIELDS)  # a stopped sweep keeps its rows
    print(f"wrote {args.out}/booksim.csv ({len(rows)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
