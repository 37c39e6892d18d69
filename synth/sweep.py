#!/usr/bin/python3
"""Synthesis sweep: `rlroute synth` over router parameters of one config.

For every combination of router.vcs x router.buffer_flits x router.flit_bits
(the full product, or one factor at a time around the config's own values
with --one-factor; or, with --as-is, every given config unchanged) this
writes a variant of the config, runs

    rlroute synth VARIANT -o OUT/runs/<variant> --clock-ns T --quiet

(generic, standard-cell + OpenSTA, FPGA paths) and collects:

  OUT/runs/<variant>/        each run's report (synth.json, synth.md), RTL, tool logs
  OUT/sweep.csv              one row per variant
  OUT/sweep.md               the same as a Markdown table, plus the block that
                             dominates area and the block that sets the critical path
  OUT/sweep.png              area and Fmax versus buffer depth (needs matplotlib)

Columns: cells = Yosys generic cells; transistors = `stat -tech cmos`
estimate; area = standard cells (synth/rlroute45.lib, um^2); Fmax from
OpenSTA's worst slack at the target clock; LUT / LUTRAM (LUTs used as memory)
/ FF / BRAM (RAMB36 equivalents) from synth_xilinx -family xcup; time = wall
seconds of the whole `rlroute synth` run and of each path. With --jobs > 1
the runs share the machine, so their times include that contention.

Run from the repository root with /usr/bin/python3 (matplotlib for the plot):

  /usr/bin/python3 synth/sweep.py --config examples/torus4x4_dor.toml \\
      --vcs 2,3,4 --buffers 4,8,16 --flits 64,128 --jobs 2
  /usr/bin/python3 synth/sweep.py --as-is --config examples/dfly_*.toml --out out/synth_dfly
"""

import argparse
import concurrent.futures
import csv
import itertools
import json
import os
import re
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FIELDS = [
    "config", "vcs", "buffer_flits", "flit_bits", "cells", "flops", "transistors", "depth", "area_um2", "std_cells",
    "worst_slack_ns", "critical_path_ns", "fmax_mhz", "lut", "lutram", "ff", "bram", "dsp",
    "area_block", "area_block_share", "area_module", "critical_block", "critical_block_ns",
    "seconds", "generic_s", "liberty_s", "fpga_s",
]


def ints(text):
    return [int(v) for v in text.split(",") if v]


def variant_text(base_text, vcs, buffers, flits):
    text = base_text
    for key, value in (("vcs", vcs), ("buffer_flits", buffers), ("flit_bits", flits)):
        text, n = re.subn(rf"(?m)^{key}\s*=.*$", f"{key} = {value}", text)
        if n != 1:
            sys.exit(f"sweep: the config has no [router] {key} line to vary")
    return text


def base_values(base_text):
    out = {}
    for key in ("vcs", "buffer_flits", "flit_bits"):
        m = re.search(rf"(?m)^{key}\s*=\s*(\d+)", base_text)
        if not m:
            sys.exit(f"sweep: the config has no [router] {key} line")
        out[key] = int(m.group(1))
    return out


def run_one(rlroute, config_path, out_dir, clock_ns):
    cmd = [rlroute, "synth", config_path, "-o", out_dir, "--clock-ns", str(clock_ns), "--quiet"]
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - start
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {p.stderr.strip()}")
    with open(os.path.join(out_dir, "synth.json")) as f:
        return json.load(f), wall


def share(report, block):
    for b in report["top_blocks"]:
        if b["name"] == block:
            return b["liberty"]["area_um2"] / report["liberty"]["router"]["area_um2"]
    return 0.0


def row_of(config, vcs, buffers, flits, r):
    g, l, f = r["generic"]["router"], r["liberty"]["router"], r["fpga"]["router"]
    t = r["liberty"]["timing"]
    s = r["summary"]
    return {
        "config": config, "vcs": vcs, "buffer_flits": buffers, "flit_bits": flits,
        "cells": g["cells"], "flops": g["flops"], "transistors": g["transistors"], "depth": g.get("depth", 0),
        "area_um2": round(l["area_um2"], 1), "std_cells": l["cells"],
        "worst_slack_ns": round(t["worst_slack_ns"], 4), "critical_path_ns": round(t["critical_path_ns"], 4),
        "fmax_mhz": round(t["fmax_mhz"], 1),
        "lut": f["lut"], "lutram": f["lutram"], "ff": f["ff"], "bram": f["bram"], "dsp": f["dsp"],
        "area_block": s["area_dominant_block"], "area_block_share": round(share(r, s["area_dominant_block"]), 3),
        "area_module": s["area_dominant_module"],
        "critical_block": s["critical_path_block"],
        "critical_block_ns": round(t["delay_by_block"][0]["delay_ns"], 3) if t["delay_by_block"] else 0,
        "seconds": round(r["seconds"], 1), "generic_s": round(r["generic"]["seconds"], 1),
        "liberty_s": round(r["liberty"]["seconds"], 1), "fpga_s": round(r["fpga"]["seconds"], 1),
    }


def markdown(rows, args, base_name, elapsed):
    lead = "| config " if args.as_is else ""
    lines = [
        f"Synthesis sweep of `{base_name}` ({len(rows)} routers, clock target {args.clock_ns} ns, "
        f"{args.jobs} run(s) at a time, {elapsed:.0f} s in all).",
        "",
        lead + "| VCs | buffer | flit | cells | transistors | area um^2 | Fmax MHz | LUT | LUTRAM | FF | BRAM "
        "| largest area block (share) | critical path block (ns of path) | time s (gen/lib/fpga) |",
        ("|---" if args.as_is else "") + "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|--:|",
    ]
    for r in rows:
        lines.append(
            (f"| {r['config']} " if args.as_is else "") +
            f"| {r['vcs']} | {r['buffer_flits']} | {r['flit_bits']} | {r['cells']} | {r['transistors']} "
            f"| {r['area_um2']:.0f} | {r['fmax_mhz']:.0f} | {r['lut']} | {r['lutram']} | {r['ff']} | {r['bram']:g} "
            f"| {r['area_block']} ({100 * r['area_block_share']:.0f}%) "
            f"| {r['critical_block']} ({r['critical_block_ns']:.2f}) "
            f"| {r['seconds']:.0f} ({r['generic_s']:.0f}/{r['liberty_s']:.0f}/{r['fpga_s']:.0f}) |")
    return "\n".join(lines) + "\n"


def plot(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("sweep: matplotlib not available, no plot", file=sys.stderr)
        return
    fig, (ax_area, ax_fmax) = plt.subplots(1, 2, figsize=(11, 4.2))
    series = sorted({(r["vcs"], r["flit_bits"]) for r in rows})
    for vcs, flits in series:
        pts = sorted((r["buffer_flits"], r["area_um2"], r["fmax_mhz"]) for r in rows
                     if r["vcs"] == vcs and r["flit_bits"] == flits)
        if not pts:
            continue
        style = "-" if flits == min(f for _, f in series) else "--"
        label = f"{vcs} VCs, {flits}-bit flits"
        ax_area.plot([p[0] for p in pts], [p[1] / 1000 for p in pts], style, marker="o", label=label)
        ax_fmax.plot([p[0] for p in pts], [p[2] for p in pts], style, marker="o", label=label)
    for ax in (ax_area, ax_fmax):
        ax.set_xlabel("buffer depth per VC (flits)")
        ax.set_xscale("log", base=2)
        ax.set_xticks(sorted({r["buffer_flits"] for r in rows}))
        ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.grid(True, alpha=0.3)
    ax_area.set_ylabel("standard-cell area (1000 um^2)")
    ax_fmax.set_ylabel("Fmax (MHz, OpenSTA)")
    ax_area.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", nargs="+", default=[os.path.join(REPO, "examples", "torus4x4_dor.toml")],
                    help="config to vary (or, with --as-is, configs to synthesize unchanged)")
    ap.add_argument("--as-is", action="store_true", help="synthesize every --config unchanged, no variation")
    ap.add_argument("--vcs", default="2,3,4")
    ap.add_argument("--buffers", default="4,8,16")
    ap.add_argument("--flits", default="64,128")
    ap.add_argument("--one-factor", action="store_true",
                    help="vary one parameter at a time around the config's own values instead of the full product")
    ap.add_argument("--clock-ns", type=float, default=2.0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=os.path.join("out", "synth_sweep"))
    ap.add_argument("--rlroute", default=os.path.join(REPO, "build", "gen", "rlroute"))
    args = ap.parse_args()

    if len(args.config) > 1 and not args.as_is:
        sys.exit("sweep: several --config need --as-is")
    with open(args.config[0]) as f:
        base_text = f.read()
    base = base_values(base_text)
    vcs_list, buf_list, flit_list = ints(args.vcs), ints(args.buffers), ints(args.flits)
    if args.as_is:
        points = []
    elif args.one_factor:
        points = {(base["vcs"], base["buffer_flits"], base["flit_bits"])}
        points |= {(v, base["buffer_flits"], base["flit_bits"]) for v in vcs_list}
        points |= {(base["vcs"], b, base["flit_bits"]) for b in buf_list}
        points |= {(base["vcs"], base["buffer_flits"], w) for w in flit_list}
        points = sorted(points)
    else:
        points = list(itertools.product(vcs_list, buf_list, flit_list))

    names = [os.path.splitext(os.path.basename(c))[0] for c in args.config]
    base_name = ", ".join(names)
    os.makedirs(os.path.join(args.out, "configs"), exist_ok=True)
    jobs = []
    if args.as_is:
        for name, cfg in zip(names, args.config):
            with open(cfg) as f:
                v = base_values(f.read())
            jobs.append(((name, v["vcs"], v["buffer_flits"], v["flit_bits"]), cfg, os.path.join(args.out, "runs", name)))
    for vcs, buffers, flits in points:
        tag = f"{base_name}_v{vcs}_b{buffers}_w{flits}"
        cfg = os.path.join(args.out, "configs", tag + ".toml")
        with open(cfg, "w") as f:
            f.write(variant_text(base_text, vcs, buffers, flits))
        jobs.append(((base_name, vcs, buffers, flits), cfg, os.path.join(args.out, "runs", tag)))

    start = time.monotonic()
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_one, args.rlroute, cfg, out, args.clock_ns): key for key, cfg, out in jobs}
        for fut in concurrent.futures.as_completed(futures):
            key = futures[fut]
            report, wall = fut.result()
            results[key] = row_of(*key, report)
            print(f"sweep: {key[0]} vcs={key[1]} buffer={key[2]} flit={key[3]}: {results[key]['area_um2']:.0f} um^2, "
                  f"{results[key]['fmax_mhz']:.0f} MHz, {wall:.0f} s", file=sys.stderr)
    elapsed = time.monotonic() - start
    rows = [results[k] for k in sorted(results)]

    with open(os.path.join(args.out, "sweep.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
    md = markdown(rows, args, base_name, elapsed)
    with open(os.path.join(args.out, "sweep.md"), "w") as f:
        f.write(md)
    if not args.as_is:
        plot(rows, os.path.join(args.out, "sweep.png"))
    print(md)


if __name__ == "__main__":
    main()
