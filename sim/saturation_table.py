#!/usr/bin/env python3
"""Saturation-throughput table (Markdown) from several sweep.py output folders.

Each folder is one `sim/sweep.py --out DIR` run (one traffic pattern, several
configs); the table has one row per config and one column per pattern:
the saturation throughput (maximum accepted load, flits/node/cycle) and the
zero-load latency.

    /usr/bin/python3 sim/saturation_table.py out/dfly_uniform out/dfly_adv_1 ...
"""
import argparse
import json
import os
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sweeps", nargs="+", help="sweep.py output folders (each holds summary.json)")
    ap.add_argument("--latency", action="store_true", help="also give the zero-load latency per pattern")
    args = ap.parse_args()

    patterns, table = [], {}
    for folder in args.sweeps:
        path = os.path.join(folder, "summary.json")
        try:
            with open(path) as f:
                summary = json.load(f)
        except (OSError, ValueError) as e:
            sys.exit(f"saturation_table: {path}: {e}")
        pattern = summary["pattern"]
        patterns.append(pattern)
        for c in summary["configs"]:
            table.setdefault(c["config"], {})[pattern] = c

    cols = []
    for p in patterns:
        cols.append(f"{p} saturation")
        if args.latency:
            cols.append(f"{p} zero-load latency")
    print("| config | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for config in table:
        cells = []
        for p in patterns:
            c = table[config].get(p)
            cells.append(f"{c['saturation_throughput']:.3f}" if c else "-")
            if args.latency:
                cells.append(f"{c['zero_load_latency']:.1f}" if c else "-")
        print(f"| {config} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
