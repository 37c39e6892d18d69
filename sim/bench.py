#!/usr/bin/python3
"""One results table from nothing: `sim/bench.py sim/bench/NAME.toml` runs the
table's spec and writes, under OUT (default out/bench/NAME):

  runs/*.json   every run's result JSON (rlroute sim --json), one per
                config, pattern and seed, all loads in one file;
  runs.csv      a row per run and load;
  NAME.csv      a row per config, pattern and load: the mean over the seeds,
                the lowest and highest, and the number of seeds;
  NAME.md       the table as docs/results.md shows it, differences inside
                the seed spread marked;
  NAME.png      accepted load per config and pattern, bars from min to max.

A spec (TOML) names the configs (paths or globs, from the repository root),
the keys every config gets (`[set]`, as sim/variants.py writes them), the
patterns, loads, seeds, run lengths and threads; a new table is a new spec. Several
variants of one base config: a `[variant.NAME]` table of keys per variant
(for example each algorithm with its VC count), each config run once per
variant. The
table shows the metric at the highest load, or with `table = "peak"` each
seed's highest value over the loads (a saturation throughput where the
accepted load falls past the peak). A run
that fails (a lost packet, a deadlock) stops the bench with its log.
Resumable: a run whose JSON is already there is not run again (delete it,
or give --fresh, to run it again).
"""
import argparse
import csv
import glob
import json
import os
import shlex
import subprocess
import sys
import time

from spec_file import SpecError, make_variants, read_toml

KEYS = {"title", "configs", "set", "variant", "patterns", "loads", "seeds", "cycles", "warmup", "drain", "threads",
        "metric", "doc", "table"}


def read_spec(path):
    spec = read_toml(path, KEYS, ("title", "configs", "patterns", "loads", "seeds"))
    if spec.get("table", "top") not in ("top", "peak"):
        raise SpecError(f"{path}: table = {spec['table']!r}: must be \"top\" (the highest load) or \"peak\"")
    if len(spec["seeds"]) < 3:
        raise SpecError(f"{path}: seeds = {spec['seeds']}: give at least 3 (a difference is read against the spread)")
    return spec


def configs_of(spec, out):
    """The config files to run: the spec's, or their variants with [set]
    applied, or with [variant.NAME] tables one variant per NAME of each
    (its keys over [set]'s)."""
    files = sorted({f for pattern in spec["configs"] for f in glob.glob(pattern)})
    if not files:
        raise SpecError(f"configs = {spec['configs']}: no file matches")
    sets = spec.get("set", {})
    variants = spec.get("variant", {})
    if not variants:
        return sorted(make_variants(files, "bench", sets, os.path.join(out, "configs"))) if sets else files
    made = []
    for name, keys in variants.items():
        if not isinstance(keys, dict) or not name.replace("_", "").isalnum():
            raise SpecError(f"variant.{name}: must be a table of keys named by letters, digits and _")
        made += make_variants(files, name, {**sets, **keys}, os.path.join(out, "configs"))
    return sorted(made)


def run(rlroute, spec, config, pattern, seed, out, progress):
    stem = os.path.splitext(os.path.basename(config))[0]
    name = f"{stem}__{pattern.replace(':', '_').replace('=', '_')}__s{seed}"
    path = os.path.join(out, "runs", name + ".json")
    if os.path.exists(path):
        return path, False
    cmd = [rlroute, "sim", config, "--pattern", pattern, "--seed", str(seed), "--quiet",
           "--load", ",".join(f"{x:g}" for x in spec["loads"]), "--json", path]
    for key in ("cycles", "warmup", "drain", "threads"):  # threads: the same results at every count
        if key in spec:
            cmd += [f"--{key}", str(spec[key])]
    print(f"  {progress} {stem} {pattern} seed {seed}", flush=True)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SpecError(f"run failed ({shlex.join(cmd)}):\n{(r.stderr or r.stdout).strip()[-3000:]}")
    return path, True


def rows_of(path):
    with open(path) as f:
        data = json.load(f)
    return data if isinstance(data, list) else [data]


def summarize(runs, metric):
    """{(config, pattern, load): [value per seed]}"""
    by = {}
    for r in runs:
        by.setdefault((r["config"], r["pattern"], r["offered_load"]), []).append(r[metric])
    return by


def cells_of(runs, metric, spec):
    """{(config, pattern): [value per seed]} as the table shows them: at the
    highest load, or each seed's peak over the loads."""
    top = max(spec["loads"])
    per_seed = {}
    for r in runs:
        if spec.get("table") != "peak" and r["offered_load"] != top:
            continue
        key = (r["config"], r["pattern"], r["seed"])
        per_seed[key] = max(per_seed.get(key, r[metric]), r[metric])
    cells = {}
    for (config, pattern, _), v in sorted(per_seed.items()):
        cells.setdefault((config, pattern), []).append(v)
    return cells


def overlap(a, b):
    return min(a) <= max(b) and min(b) <= max(a)


def write_outputs(name, spec, out, runs):
    metric = spec.get("metric", "accepted_load")
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["config", "pattern", "seed", "offered_load", "accepted_load", "latency_avg", "latency_p99",
                    "avg_hops", "minimal_share", "packets_delivered", "drained"])
        for r in runs:
            w.writerow([r["config"], r["pattern"], r["seed"], r["offered_load"], r["accepted_load"],
                        r["latency"]["avg"], r["latency"]["p99"], r["avg_hops"], r["minimal_share"],
                        r["packets_delivered"], r["drained"]])
    by = summarize(runs, metric)
    with open(os.path.join(out, f"{name}.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["config", "pattern", "offered_load", f"{metric}_mean", f"{metric}_min", f"{metric}_max", "seeds"])
        for (config, pattern, load), v in sorted(by.items()):
            w.writerow([config, pattern, load, f"{sum(v) / len(v):.6f}", f"{min(v):.6f}", f"{max(v):.6f}", len(v)])
        cells = cells_of(runs, metric, spec)
        if spec.get("table") == "peak":
            for (config, pattern), v in cells.items():
                w.writerow([config, pattern, "peak", f"{sum(v) / len(v):.6f}", f"{min(v):.6f}", f"{max(v):.6f}", len(v)])
    # The table: a row per config, a column per pattern.
    configs = sorted({k[0] for k in by})
    patterns = list(dict.fromkeys(r["pattern"] for r in runs))
    top = max(spec["loads"])
    where = "the peak over the offered loads" if spec.get("table") == "peak" else f"offered load {top:g}"
    lines = [f"{spec['title']}: {metric} at {where}, mean over seeds "
             f"{', '.join(map(str, spec['seeds']))} (min-max). Regenerate: `sim/bench.py {spec['_path']}`; data "
             f"`{name}.csv`.", "", "| config | " + " | ".join(patterns) + " |", "|---|" + "---|" * len(patterns)]
    for c in configs:
        row = []
        for p in patterns:
            v = cells.get((c, p))
            row.append(f"{sum(v) / len(v):.3f} ({min(v):.3f}-{max(v):.3f})" if v else "-")
        lines.append(f"| {c} | " + " | ".join(row) + " |")
    lines += ["", "Per pattern, the best config and every config whose seed range overlaps its (no difference):", ""]
    for p in patterns:
        vals = {c: cells[(c, p)] for c in configs if (c, p) in cells}
        best = max(vals, key=lambda c: sum(vals[c]) / len(vals[c]))
        tied = [c for c in vals if c != best and overlap(vals[c], vals[best])]
        lines.append(f"- {p}: {best}" + (f"; no difference from {', '.join(tied)}" if tied else ""))
    with open(os.path.join(out, f"{name}.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, axes = plt.subplots(1, len(patterns), figsize=(4 * len(patterns), 3.6), squeeze=False)
    for ax, p in zip(axes[0], patterns):
        vals = [cells.get((c, p), [0]) for c in configs]
        mean = [sum(v) / len(v) for v in vals]
        ax.bar(range(len(configs)), mean, yerr=[[m - min(v) for m, v in zip(mean, vals)],
                                                [max(v) - m for m, v in zip(mean, vals)]], capsize=3)
        ax.set_xticks(range(len(configs)), [c.replace("dfly_2_4_2_9_", "") for c in configs], rotation=60,
                      fontsize=7)
        ax.set_title(p, fontsize=9)
        ax.set_ylabel(metric)
    fig.suptitle(spec["title"], fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"{name}.png"), dpi=120)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spec", help="a table's spec, sim/bench/NAME.toml")
    ap.add_argument("--rlroute", default="build/rlroute")
    ap.add_argument("--out", help="output directory (default out/bench/NAME)")
    ap.add_argument("--fresh", action="store_true", help="run every run again, even those with a JSON")
    args = ap.parse_args(argv)
    name = os.path.splitext(os.path.basename(args.spec))[0]
    out = args.out or os.path.join("out", "bench", name)
    try:
        spec = read_spec(args.spec)
        spec["_path"] = args.spec
        if not os.access(args.rlroute, os.X_OK):
            raise SpecError(f"--rlroute {args.rlroute}: not an executable (build it: cmake --build build)")
        os.makedirs(os.path.join(out, "runs"), exist_ok=True)
        configs = configs_of(spec, out)
        todo = [(c, p, s) for c in configs for p in spec["patterns"] for s in spec["seeds"]]
        t0, done, runs = time.monotonic(), 0, []
        for i, (c, p, s) in enumerate(todo):
            if args.fresh:
                stale = os.path.join(out, "runs", f"{os.path.splitext(os.path.basename(c))[0]}__"
                                     f"{p.replace(':', '_').replace('=', '_')}__s{s}.json")
                if os.path.exists(stale):
                    os.remove(stale)
            left = ""
            if done:
                per = (time.monotonic() - t0) / done
                left = f", about {per * (len(todo) - i) / 60:.0f} min left"
            path, ran = run(args.rlroute, spec, c, p, s, out, f"[{i + 1}/{len(todo)}{left}]")
            done += ran
            for r in rows_of(path):
                r["seed"] = s
                r["pattern"] = p
                runs.append(r)
        write_outputs(name, spec, out, runs)
        print(f"wrote {out}/{name}.csv, {name}.md, {name}.png, runs.csv and runs/ ({len(todo)} runs, {done} run now)")
    except SpecError as e:
        print(f"bench.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
