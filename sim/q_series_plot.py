#!/usr/bin/env python3
"""Plots `rlroute sim --series` CSVs: accepted load, average latency, minimal
share and the Q-tables' estimates per window (through the minimal port,
solid, and the best through another port, dashed), against cycles (bottom axis) and
microseconds at 32 ns per cycle (top axis: one flit time of the Q-adaptive
paper's links [Kang 2021]).
Usage: q_series_plot.py --out PNG [--title T] SERIES.csv..."""
import argparse
import csv
import os
import sys

NS_PER_CYCLE = 32.0


def read(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"q_series_plot: {path}: no windows")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--title", default="")
    ap.add_argument("series", nargs="+")
    a = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(4, 1, figsize=(8, 10), sharex=True)
    keys = [("accepted_load", "accepted (flits/node/cycle)"), ("latency_avg", "latency avg (cycles)"),
            ("minimal_share", "minimal share"), ("q_minimal", "Q estimate (cycles):\nminimal port, best other (--)")]

    def column(rows, key):
        return [float(r[key]) if r.get(key) not in ("", None) else float("nan") for r in rows]

    for path in a.series:
        rows = read(path)
        label = os.path.splitext(os.path.basename(path))[0]
        x = [(int(r["begin"]) + int(r["end"])) / 2 for r in rows]
        for ax, (key, _) in zip(axes, keys):
            line, = ax.plot(x, column(rows, key), label=label, linewidth=1)
        axes[-1].plot(x, column(rows, "q_best_other"), linewidth=1, linestyle="--", color=line.get_color())
    for ax, (_, name) in zip(axes, keys):
        ax.set_ylabel(name)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    axes[-1].set_xlabel("cycle")
    top = axes[0].secondary_xaxis("top", functions=(lambda c: c * NS_PER_CYCLE / 1000,
                                                    lambda us: us * 1000 / NS_PER_CYCLE))
    top.set_xlabel("us (32 ns per cycle)")
    if a.title:
        fig.suptitle(a.title)
    fig.tight_layout()
    fig.savefig(a.out, dpi=110)
    print(f"q_series_plot: wrote {a.out}")


if __name__ == "__main__":
    main()
