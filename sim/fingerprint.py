#!/usr/bin/python3
"""Results fingerprint: every example on a fixed seed, on both fabrics.

A refactoring of the generator, the RTL or the harness must not change what a
network does. This runs `rlroute sim` for every config given (default: every
examples/*.toml) on the harness fabric and on the network-top fabric, at a
low and a high offered load, on one seed, and writes one CSV row per run with
the results that must not move: accepted load, packets injected and
delivered, latency (avg, p50, p99, max), total latency avg, average hops and
simulated cycles. Two fingerprints of the same runs are compared with
`diff`; any difference in any digit is a changed result.

  /usr/bin/python3 sim/fingerprint.py --out before.csv
  ... change the code, rebuild ...
  /usr/bin/python3 sim/fingerprint.py --out after.csv
  diff before.csv after.csv && echo identical

Models are cached by a hash of the emitted RTL (README), so a change that
leaves the emitted SV byte-identical reruns without Verilator builds.
"""

import argparse
import csv
import glob
import json
import os
import subprocess
import sys
import tempfile

KEYS = ["accepted_load", "packets_injected", "packets_delivered", "packets_lost", "packets_corrupted",
        "deadlock", "latency.avg", "latency.p50", "latency.p99", "latency.max", "total_latency.avg",
        "avg_hops", "cycles"]


def value(result, key):
    for part in key.split("."):
        result = result[part]
    return repr(result)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("configs", nargs="*", help="configs (default: examples/*.toml)")
    ap.add_argument("--rlroute", default="build/rlroute", help="the rlroute binary (default build/rlroute)")
    ap.add_argument("--fabrics", default="harness,network", help="comma-separated (default harness,network)")
    ap.add_argument("--loads", default="0.1,0.5", help="offered loads, comma-separated (default 0.1,0.5)")
    ap.add_argument("--cycles", type=int, default=2000, help="measurement cycles (default 2000)")
    ap.add_argument("--warmup", type=int, default=500, help="warmup cycles (default 500)")
    ap.add_argument("--seed", type=int, default=1, help="traffic seed (default 1)")
    ap.add_argument("--out", required=True, help="the CSV to write (must not exist)")
    a = ap.parse_args()
    configs = a.configs or sorted(glob.glob("examples/*.toml"))
    if not configs:
        sys.exit("fingerprint: no configs (none given, and no examples/*.toml here)")
    if os.path.exists(a.out):
        sys.exit(f"fingerprint: --out {a.out}: exists; rlroute writes only new files")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for config in configs:
            for fabric in a.fabrics.split(","):
                name = os.path.splitext(os.path.basename(config))[0]
                out = os.path.join(tmp, f"{name}_{fabric}.json")
                cmd = [a.rlroute, "sim", config, "--quiet", "--fabric", fabric, "--load", a.loads,
                       "--cycles", str(a.cycles), "--warmup", str(a.warmup), "--seed", str(a.seed), "--json", out]
                print(" ".join(cmd), file=sys.stderr, flush=True)
                done = subprocess.run(cmd)
                if done.returncode != 0:
                    sys.exit(f"fingerprint: {config} on the {fabric} fabric: rlroute sim exited {done.returncode}")
                with open(out) as f:
                    results = json.load(f)
                for r in results if isinstance(results, list) else [results]:
                    rows.append([name, fabric, repr(r["offered_load"])] + [value(r, k) for k in KEYS])
    with open(a.out, "x", newline="") as f:
        w = csv.writer(f)
        w.writerow(["config", "fabric", "offered_load"] + KEYS)
        w.writerows(rows)
    print(f"fingerprint: {len(rows)} runs -> {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
