#!/usr/bin/python3
"""Runs the Q-adaptive authors' simulator (SST with their element fork, built
by sim/reference/build_sst.sh) on their dragonfly setup
(sim/reference/sst_dragonfly.py) for every algorithm, pattern and offered
load asked for, and tabulates what the paper measures: the accepted load
(the system's receiving rate over the window, as a share of the injection
bandwidth), the packet latency and the hops of the packets that arrive in
the window, and the share of them that the routers sent off their minimal
path.

    /usr/bin/python3 sim/reference/run_sst.py --sst OUT/install/bin/sst --out out/reference/sst \\
        --algorithms minimal,ugal-g,ugal-n,par,VALn,q-adaptive --patterns uniform,adv+1,adv+4 --loads 0.5,1.0

Writes, under --out: runs/<algorithm>__<pattern>__<load>.json (one per run,
with the SST command and its wall time) and sst.csv (a row per run of this
call, rewritten after each run).
Resumable: a run whose JSON is there is not run again. The fork seeds each
endpoint's destinations with the endpoint's id and each router's choices
with the router's id, so a run is one deterministic sample.
"""
import argparse
import csv
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import time

from reference_table import parse_loads, write_csv

HERE = os.path.dirname(os.path.abspath(__file__))
PACKET_NS = 32  # sst_dragonfly.py: a 128 B packet on a 4 GB/s link
FIELDS = ["algorithm", "pattern", "offered_load", "accepted_load", "latency_avg_ns", "latency_p99_ns", "avg_hops",
          "nonminimal_share", "packets", "nodes", "window_us", "wall_seconds"]


def receptions(directory):
    """(source, destination, hops, latency ns, injected ns, arrived ns) per
    packet, from the fork's per-endpoint logs."""
    for path in glob.glob(os.path.join(directory, "linkcontrol_job*")):
        with open(path) as f:
            for line in f:
                fields = line.split(",")
                if len(fields) < 8 or not fields[0].strip().isdigit():
                    continue
                yield tuple(int(x) for x in fields[2:8])


def measure(directory, nodes, start_ns, end_ns):
    latencies, hops = [], 0
    for _, _, h, lat, _, arrived in receptions(directory):
        if start_ns <= arrived < end_ns:
            latencies.append(lat)
            hops += h
    if not latencies:
        raise RuntimeError(f"{directory}: no packet arrived between {start_ns} and {end_ns} ns")
    latencies.sort()
    window = end_ns - start_ns
    return {"accepted_load": len(latencies) * PACKET_NS / (nodes * window),
            "latency_avg_ns": sum(latencies) / len(latencies),
            "latency_p99_ns": latencies[min(len(latencies) - 1, math.ceil(0.99 * len(latencies)) - 1)],
            "avg_hops": hops / len(latencies), "packets": len(latencies)}


def nonminimal_share(stats_csv, start_ns, end_ns):
    """The share of the packets received in (start, end] that the fork's
    adaptive algorithms (UGAL, PAR, Q-adaptive) sent through an intermediate
    group (its routers mark them "adaptively routed"), from the endpoints'
    running sums (sst_dragonfly.py --stats-every-us)."""
    totals = {}  # (statistic, time in ps) -> (sum, count) over the endpoints
    with open(stats_csv) as f:
        for row in csv.DictReader(f):
            key = (row["StatisticName"], int(row["SimTime"]))
            s, n = totals.get(key, (0, 0))
            totals[key] = (s + int(row["Sum.u64"]), n + int(row["Count.u64"]))

    def at(stat, ns):
        if ns == 0:
            return 0, 0
        if (stat, ns * 1000) not in totals:
            raise RuntimeError(f"{stats_csv}: no {stat} row at {ns} ns")
        return totals[(stat, ns * 1000)]

    received = at("packet_hops", end_ns)[1] - at("packet_hops", start_ns)[1]
    nonminimal = at("packet_adp", end_ns)[1] - at("packet_adp", start_ns)[1]
    if received <= 0 or not 0 <= nonminimal <= received:
        raise RuntimeError(f"{stats_csv}: {nonminimal} non-minimal of {received} packets received in the window")
    return nonminimal / received


def run(args, algorithm, pattern, load):
    name = f"{algorithm}__{pattern}__{load:g}"
    result = os.path.join(args.out, "runs", name + ".json")
    if os.path.exists(result):
        with open(result) as f:
            return json.load(f)
    work = os.path.join(args.out, "work", name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "link_control_data"))
    options = (f"--algorithm {algorithm} --pattern {pattern} --load {load} --time-us {args.time_us} "
               f"--hosts-per-router {args.hosts_per_router} --routers-per-group {args.routers_per_group} "
               f"--groups {args.groups} --q-threshold2 {args.q_threshold2} "
               f"--stats-every-us {math.gcd(round(args.warmup_us * 1000), round(args.time_us * 1000)) / 1000:g}")
    # Ends at --time-us: an endpoint whose interface is full sends later, so
    # its last packets would otherwise run the simulation on past the window.
    cmd = [args.sst, "--stop-at", f"{args.time_us:g}us", "--model-options", options,
           os.path.join(HERE, "sst_dragonfly.py")]
    t0 = time.monotonic()
    with open(os.path.join(work, "sst.log"), "w") as log:
        r = subprocess.run(cmd, cwd=work, stdout=log, stderr=subprocess.STDOUT)
    wall = time.monotonic() - t0
    if r.returncode != 0:
        with open(os.path.join(work, "sst.log")) as f:
            raise RuntimeError(f"sst failed ({' '.join(cmd)}, in {work}):\n{f.read()[-3000:]}")
    nodes = args.hosts_per_router * args.routers_per_group * args.groups
    data = {"algorithm": algorithm, "pattern": pattern, "offered_load": load, "nodes": nodes,
            "window_us": args.time_us - args.warmup_us, "wall_seconds": round(wall, 1), "command": cmd,
            **measure(os.path.join(work, "link_control_data"), nodes, args.warmup_us * 1000, args.time_us * 1000),
            # MIN and VALn take no decision to mark: none.
            "nonminimal_share": None if algorithm in ("minimal", "VALn") else nonminimal_share(
                os.path.join(work, "stats.csv"), round(args.warmup_us * 1000), round(args.time_us * 1000))}
    with open(result + ".tmp", "w") as f:
        json.dump(data, f, indent=1)
    os.replace(result + ".tmp", result)
    shutil.rmtree(work)  # the per-packet logs: a 1,056-node run writes hundreds of MB
    return data


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sst", required=True, help="the sst binary of build_sst.sh's OUT/install/bin")
    ap.add_argument("--out", required=True)
    ap.add_argument("--algorithms", default="minimal,VALn,ugal-g,ugal-n,par,q-adaptive")
    ap.add_argument("--patterns", default="uniform,adv+1,adv+4")
    ap.add_argument("--loads", default="1.0")
    ap.add_argument("--time-us", type=float, default=300.0, help="injection time of every endpoint")
    ap.add_argument("--warmup-us", type=float, default=200.0, help="the window starts here (the paper: "
                    "100 us after the system is stable)")
    ap.add_argument("--hosts-per-router", type=int, default=4)
    ap.add_argument("--routers-per-group", type=int, default=8)
    ap.add_argument("--groups", type=int, default=33)
    ap.add_argument("--q-threshold2", type=float, default=0.35)
    args = ap.parse_args()
    if not (os.path.isfile(args.sst) and os.access(args.sst, os.X_OK)):
        ap.error(f"--sst {args.sst}: not an executable (build it: sim/reference/build_sst.sh)")
    args.sst = os.path.abspath(args.sst)  # SST runs in each run's own directory
    if not 0 <= args.warmup_us < args.time_us:
        ap.error(f"--warmup-us {args.warmup_us}: must be at least 0 and below --time-us {args.time_us}")
    loads = parse_loads(ap, args.loads)
    os.makedirs(os.path.join(args.out, "runs"), exist_ok=True)
    todo = [(a, p, x) for a in args.algorithms.split(",") for p in args.patterns.split(",") for x in loads]
    rows = []
    for i, (a, p, x) in enumerate(todo):
        print(f"  [{i + 1}/{len(todo)}] {a} {p} {x:g}", flush=True)
        try:
            data = run(args, a, p, x)
        except RuntimeError as e:
            print(f"run_sst.py: {e}", file=sys.stderr)
            return 1
        rows.append(data)
        write_csv(os.path.join(args.out, "sst.csv"), rows, FIELDS)  # after every run: a stopped sweep keeps its rows
    print(f"wrote {args.out}/sst.csv ({len(rows)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
