#!/usr/bin/python3
"""What DQN-routing's parallel inference block costs for each network shape
and weight width of a bench spec (sim/bench/dqn_shapes_4x4.toml): the block
alone (`rlroute synth --block rr_dqn_infer_parallel`, with the router's
parameters) on every synthesis path, with constant weights (the network the
bench trained with seed --seed built in; run the bench first) and with
programmable weights.

    /usr/bin/python3 synth/dqn_blocks.py sim/bench/dqn_shapes_4x4.toml

Writes, under OUT (default out/synth_dqn_blocks):

  runs/<variant>_<mode>/   each run's report (synth.json, synth.md), RTL, tool logs
  dqn_blocks.csv           a row per variant and weight mode
  dqn_blocks.md            the same as a Markdown table

Columns: generic cells and flip-flops (Yosys), standard-cell area (um^2,
synth/rlroute45.lib) and Fmax through the block (OpenSTA, --clock-ns), LUT,
FF and DSP (synth_xilinx -family xcup), and the wall time of the run.
Resumable: a run whose synth.json is there is not run again; the table also
shows the runs of a mode not asked for that are already there.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time
import tomllib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "sim"))
import bench  # noqa: E402  (the spec's variants, as the bench made them)
from spec_file import SpecError, make_variants  # noqa: E402

MODES = ("constant", "programmable")
FIELDS = ["variant", "hidden", "weight_bits", "mode", "weights", "cells", "flops", "area_um2", "fmax_mhz", "lut",
          "ff", "dsp", "seconds"]


def hidden_and_bits(config):
    with open(config, "rb") as f:
        routing = tomllib.load(f)["routing"]
    return routing.get("dqn_hidden", [32, 32]), routing.get("dqn_weight_bits", 8)


def synth(rlroute, config, out, clock_ns):
    report = os.path.join(out, "synth.json")
    if not os.path.exists(report):
        cmd = [rlroute, "synth", config, "--block", "rr_dqn_infer_parallel", "-o", out, "--clock-ns", str(clock_ns),
               "--quiet"]
        print(f"  {os.path.basename(out)}", flush=True)
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise SpecError(f"synthesis failed ({' '.join(cmd)}):\n{(r.stderr or r.stdout).strip()[-3000:]}")
    with open(report) as f:
        return json.load(f)


def row_of(variant, config, mode, weights, r):
    hidden, bits = hidden_and_bits(config)
    g, lib, fpga = r["generic"]["router"], r["liberty"]["router"], r["fpga"]["router"]
    return {"variant": variant, "hidden": "-".join(map(str, hidden)), "weight_bits": bits, "mode": mode,
            "weights": weights or "", "cells": g["cells"], "flops": g["flops"], "area_um2": round(lib["area_um2"], 1),
            "fmax_mhz": round(r["summary"]["fmax_mhz"], 1), "lut": fpga["lut"], "ff": fpga["ff"], "dsp": fpga["dsp"],
            "seconds": round(r["seconds"], 1)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spec", help="the bench spec whose variants to cost (its runs hold the trained weights)")
    ap.add_argument("--rlroute", default=os.path.join(REPO, "build", "rlroute"))
    ap.add_argument("--bench-out", help="the bench's output directory (default out/bench/NAME)")
    ap.add_argument("--out", default=os.path.join("out", "synth_dqn_blocks"))
    ap.add_argument("--seed", type=int, default=1, help="whose trained weights the constant block builds in")
    ap.add_argument("--modes", default="constant,programmable")
    ap.add_argument("--clock-ns", type=float, default=2.0)
    ap.add_argument("--only", help="comma-separated variants to cost (default: every variant of the spec)")
    args = ap.parse_args()
    name = os.path.splitext(os.path.basename(args.spec))[0]
    bench_out = args.bench_out or os.path.join("out", "bench", name)
    try:
        spec = bench.read_spec(args.spec)
        configs = bench.configs_of(spec, bench_out)
        modes = args.modes.split(",")
        for mode in modes:
            if mode not in MODES:
                raise SpecError(f"--modes {args.modes}: {mode!r} is not constant or programmable")
        names = [bench.variant_of(spec, c)[0] or bench.stem_of(c) for c in configs]
        only = args.only.split(",") if args.only else names
        for name in only:
            if name not in names:
                raise SpecError(f"--only {args.only}: {name!r} is not a variant of {args.spec} "
                                f"(its variants: {', '.join(names)})")
        rows = []
        for config, variant in zip(configs, names):
            if variant not in only:
                continue
            for mode in MODES:
                run_dir = os.path.join(args.out, "runs", f"{variant}_{mode}")
                if mode not in modes and not os.path.exists(os.path.join(run_dir, "synth.json")):
                    continue  # the table also shows the other mode's runs already made
                sets = {"routing.dqn_weights_mode": mode}
                weights = None
                if mode == "constant":
                    weights = os.path.abspath(os.path.join(bench_out, "runs",
                                                           f"{bench.stem_of(config)}__train_s{args.seed}.json"))
                    if not os.path.exists(weights):
                        raise SpecError(f"{weights}: no trained weights (run sim/bench.py {args.spec} first)")
                    sets["routing.dqn_weights"] = weights
                made = make_variants([config], mode, sets, os.path.join(args.out, "configs"))[0]
                r = synth(args.rlroute, made, run_dir, args.clock_ns)
                rows.append(row_of(variant, config, mode, weights and os.path.relpath(weights), r))
        with open(os.path.join(args.out, "dqn_blocks.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
        lines = [f"The parallel inference block alone (`rlroute synth --block rr_dqn_infer_parallel`, clock "
                 f"{args.clock_ns} ns), the variants of `{args.spec}`; constant weights: the network trained with "
                 f"seed {args.seed}. Regenerate: `synth/dqn_blocks.py {args.spec}`.", "",
                 "| network | weights | mode | generic cells / FF | area um^2 | Fmax MHz | LUT / FF / DSP |",
                 "|---|--:|---|--:|--:|--:|---|"]
        for r in rows:
            lines.append(f"| {r['hidden']} | {r['weight_bits']}-bit | {r['mode']} | {r['cells']:,} / {r['flops']:,} "
                         f"| {r['area_um2']:,.0f} | {r['fmax_mhz']:.0f} | {r['lut']:,} / {r['ff']:,} / {r['dsp']} |")
        with open(os.path.join(args.out, "dqn_blocks.md"), "w") as f:
            f.write("\n".join(lines) + "\n")
        print("\n".join(lines))
    except SpecError as e:
        print(f"dqn_blocks.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
