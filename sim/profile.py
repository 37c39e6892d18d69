#!/usr/bin/python3
"""Where a simulation's time goes (docs/architecture.md, "Where the simulation's time goes"):
runs one `rlroute sim` under `perf record` (CPU-clock
samples of the whole process, startup included) and sorts the samples into
buckets: the Verilated models' evaluation, the harness's port access
(tb/adapter), the rest of the harness (checkers, scoreboard, NICs, links,
statistics), memory allocation, the dynamic linker, libtorch, the rest.

    /usr/bin/python3 sim/profile.py --out out/profile/dor_05 -- \\
        sim examples/torus4x4_dor.toml --load 0.5 --cycles 40000 --warmup 2000

Writes OUT/perf.data, OUT/buckets.csv (bucket,share) and OUT/top.txt (the 25
hottest symbols), and prints the buckets. Needs Debian's linux-perf.
"""
import argparse
import csv
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUCKETS = ["verilated eval", "harness: port access", "harness: the rest", "allocation", "dynamic linker",
           "libtorch", "other"]


def bucket(dso, symbol):
    if "rlroute::adapter::" in symbol:  # compiled into the model's library
        return "harness: port access"
    if re.match(r"V(router|network)", dso) or symbol.startswith(("V", "VL_", "Verilated")):
        return "verilated eval"
    if dso.startswith("ld-linux") or symbol.startswith(("do_lookup", "_dl_")):
        return "dynamic linker"
    if dso.startswith(("libtorch", "libc10")):
        return "libtorch"
    if re.search(r"malloc|free|operator new|operator delete|_int_|cfree|tcache", symbol):
        return "allocation"
    if dso == "rlroute" or "rlroute::" in symbol:
        return "harness: the rest"
    return "other"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rlroute", default=os.path.join(ROOT, "build", "rlroute"))
    ap.add_argument("--out", required=True)
    ap.add_argument("args", nargs=argparse.REMAINDER, help="-- then the rlroute arguments (sim CONFIG ...)")
    a = ap.parse_args()
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    if not args:
        sys.exit("profile.py: give the rlroute arguments after --")
    os.makedirs(a.out, exist_ok=True)
    data = os.path.join(a.out, "perf.data")
    subprocess.run(["perf", "record", "-q", "-o", data, a.rlroute] + args + ["--quiet"], check=True)
    report = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "--sort", "dso,sym",
                             "--percent-limit", "0"], check=True, capture_output=True, text=True).stdout
    shares = dict.fromkeys(BUCKETS, 0.0)
    top = []
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*)$", line)
        if not m:
            continue
        share, dso, symbol = float(m.group(1)), m.group(2), m.group(3).strip()
        shares[bucket(dso, symbol)] += share
        if len(top) < 25:
            top.append(f"{share:6.2f}%  {dso:24s} {symbol[:110]}")
    with open(os.path.join(a.out, "buckets.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["bucket", "share"])
        for b in BUCKETS:
            w.writerow([b, round(shares[b], 2)])
    open(os.path.join(a.out, "top.txt"), "w").write("\n".join(top) + "\n")
    for b in BUCKETS:
        print(f"{b:24s} {shares[b]:6.2f} %")


if __name__ == "__main__":
    main()
