#!/usr/bin/python3
"""One results table from nothing: `sim/bench.py sim/bench/NAME.toml` runs the
table's spec and writes, under OUT (default out/bench/NAME):

  runs/*.json   every run's result JSON (rlroute sim --json), one per
                config, pattern and seed, all loads in one file;
  runs.csv      a row per run and load;
  NAME.csv      a row per config, pattern and load: the mean over the seeds,
                the lowest and highest, and the number of seeds, of the
                table's metric, the average and the p99 latency;
  NAME.md       the table as docs/results.md shows it, differences inside
                the seed spread marked;
  NAME.png      accepted load per config and pattern, bars from min to max.

A spec (TOML) names the configs (paths or globs, from the repository root),
the keys every config gets (`[set]`, as sim/variants.py writes them), the
patterns, loads, seeds, run lengths and threads; a new table is a new spec. Several
variants of one base config: a `[variant.NAME]` table of keys per variant
(for example each algorithm with its VC count), each config run once per
variant. Besides config keys (with a dot), a variant may name
`sim_args` (more flags for its runs, e.g. ["--float-agent"]) and
`weights_from` (another variant whose trained weights it runs).

DQN-routing trained per seed: with a `[train]` table (`load`, `cycles`, and
optionally `pattern` and `args`, a list of more flags), every config whose
routing.algorithm is "dqn" is trained once per seed (`rlroute train --seed
S`, the weights in runs/<config>__train_sS.json, its provenance a row of
trainings.csv) and runs with those weights. `latency_at = [loads]` adds the
average latency at those loads to the table. The
table shows the metric at the highest load, or with `table = "peak"` each
seed's highest value over the loads (a saturation throughput where the
accepted load falls past the peak), or with `table = "stable"` each seed's
highest offered load that the network still carries (accepted at least
1 - STABLE_SHORTFALL of generated: the saturation point that latency-curve
papers report, which under a mix of patterns lies below the peak, because
some sources saturate while the others still deliver). A run
that fails (a lost packet, a deadlock) stops the bench with its log.
Resumable: a run whose JSON is already there is not run again (delete it,
or give --fresh, to run it again). The runs go seed by seed (every config
and pattern at the first seed, then at the next), so a bench stopped part
way has all its points at its first seeds; --report writes the outputs from
the runs there, running nothing.
"""
import argparse
import csv
import glob
import json
import os
import shlex
import subprocess
import sys
import textwrap
import time
import tomllib

from spec_file import SpecError, make_variants, read_toml

KEYS = {"title", "configs", "set", "variant", "patterns", "loads", "seeds", "cycles", "warmup", "drain", "threads",
        "metric", "doc", "table", "train", "latency_at"}
TRAIN_KEYS = {"load", "cycles", "pattern", "args"}
VARIANT_OPTIONS = {"sim_args", "weights_from"}  # a variant's keys that are not config keys
TABLES = ("top", "peak", "stable")
# table = "stable": a load is carried when no more than this share of the
# generated flits is missing from the accepted ones (sources that saturate
# fall behind; measurement noise over a whole network is far below it).
STABLE_SHORTFALL = 0.01


def read_spec(path):
    spec = read_toml(path, KEYS, ("title", "configs", "patterns", "loads", "seeds"))
    if spec.get("table", "top") not in TABLES:
        raise SpecError(f"{path}: table = {spec['table']!r}: must be \"top\" (the highest load), \"peak\" or "
                        f"\"stable\"")
    if len(spec["seeds"]) < 3:
        raise SpecError(f"{path}: seeds = {spec['seeds']}: give at least 3 (a difference is read against the spread)")
    train = spec.get("train")
    if train is not None:
        if not isinstance(train, dict):
            raise SpecError(f"{path}: train: must be a table (load, cycles, pattern, args)")
        for key in train:
            if key not in TRAIN_KEYS:
                raise SpecError(f"{path}: train.{key}: unknown key (known: {', '.join(sorted(TRAIN_KEYS))})")
        for key in ("load", "cycles"):
            if key not in train:
                raise SpecError(f"{path}: train.{key}: missing")
    for load in spec.get("latency_at", []):
        if load not in spec["loads"]:
            raise SpecError(f"{path}: latency_at = {spec['latency_at']}: {load} is not one of loads = {spec['loads']}")
    for name, keys in spec.get("variant", {}).items():
        if not isinstance(keys, dict):
            continue  # configs_of names it
        for key, value in keys.items():
            if "." not in key and key not in VARIANT_OPTIONS:
                raise SpecError(f"{path}: variant.{name}.{key}: unknown option (a config key has a dot; options: "
                                f"{', '.join(sorted(VARIANT_OPTIONS))})")
        if "weights_from" in keys and keys["weights_from"] not in spec["variant"]:
            raise SpecError(f"{path}: variant.{name}.weights_from = {keys['weights_from']!r}: no such variant")
        if not all(isinstance(a, str) for a in keys.get("sim_args", [])):
            raise SpecError(f"{path}: variant.{name}.sim_args: must be a list of strings")
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
        config_keys = {k: v for k, v in keys.items() if k not in VARIANT_OPTIONS}
        made += make_variants(files, name, {**sets, **config_keys}, os.path.join(out, "configs"))
    return sorted(made)


def stem_of(config):
    return os.path.splitext(os.path.basename(config))[0]


def variant_of(spec, config):
    """(name, keys) of the variant a config file was made for (its suffix),
    or (None, {})."""
    names = [n for n in spec.get("variant", {}) if stem_of(config).endswith("_" + n)]
    if not names:
        return None, {}
    name = max(names, key=len)
    return name, spec["variant"][name]


def options_of(spec, config):
    """A config's variant options (sim_args, weights_from)."""
    return variant_of(spec, config)[1]


def is_dqn(config):
    with open(config, "rb") as f:
        return tomllib.load(f).get("routing", {}).get("algorithm") == "dqn"


def weights_for(rlroute, spec, config, seed, out):
    """The trained weights a run of `config` with `seed` uses: None without
    [train] or for an algorithm other than DQN-routing; trained now unless
    they are there already."""
    train = spec.get("train")
    name, keys = variant_of(spec, config)
    source = keys.get("weights_from")
    if source:
        config = config[: -len(f"_{name}.toml")] + f"_{source}.toml"
        if not os.path.exists(config):
            raise SpecError(f"weights_from = {source!r}: {config} is not among the configs")
    if train is None or not is_dqn(config):
        return None
    path = os.path.join(out, "runs", f"{stem_of(config)}__train_s{seed}.json")
    if os.path.exists(path):
        return path
    cmd = [rlroute, "train", config, "-o", path, "--seed", str(seed), "--load", f"{train['load']:g}",
           "--cycles", str(train["cycles"]), "--quiet"] + (["--pattern", train["pattern"]] if "pattern" in train else [])
    cmd += train.get("args", [])
    print(f"  training {stem_of(config)} seed {seed}", flush=True)
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SpecError(f"training failed ({shlex.join(cmd)}):\n{(r.stderr or r.stdout).strip()[-3000:]}")
    with open(path + ".seconds", "w") as f:
        f.write(f"{time.monotonic() - t0:.1f}\n")
    return path


def write_trainings(out):
    """trainings.csv: what each training reports about itself."""
    paths = glob.glob(os.path.join(out, "runs", "*__train_s*.json"))
    if not paths:
        return
    with open(os.path.join(out, "trainings.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["config", "seed", "decisions", "updates", "quantized_action_agreement", "mean_reward_last_window",
                    "seconds"])
        for path in sorted(set(paths)):
            with open(path) as g:
                prov = json.load(g)["provenance"]
            seconds = ""
            if os.path.exists(path + ".seconds"):
                with open(path + ".seconds") as g:
                    seconds = g.read().strip()
            w.writerow([stem_of(prov["config"]), prov["seed"], prov["steps"], prov["updates"],
                        prov["quantized_action_agreement"], f"{prov['mean_reward_last_window']:.6f}", seconds])


def run(rlroute, spec, config, pattern, seed, out, progress):
    stem = stem_of(config)
    name = f"{stem}__{pattern.replace(':', '_').replace('=', '_')}__s{seed}"
    path = os.path.join(out, "runs", name + ".json")
    if os.path.exists(path):
        return path, False
    weights = weights_for(rlroute, spec, config, seed, out)
    cmd = [rlroute, "sim", config, "--pattern", pattern, "--seed", str(seed), "--quiet",
           "--load", ",".join(f"{x:g}" for x in spec["loads"]), "--json", path]
    cmd += (["--weights", weights] if weights else []) + options_of(spec, config).get("sim_args", [])
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
    highest load, each seed's peak over the loads, or each seed's highest
    offered load carried."""
    top = max(spec["loads"])
    per_seed = {}
    if spec.get("table") == "stable":  # 0.0: not even the lowest load is carried
        for r in runs:
            key = (r["config"], r["pattern"], r["seed"])
            carried = r["accepted_load"] >= (1 - STABLE_SHORTFALL) * r["generated_load"]
            per_seed[key] = max(per_seed.get(key, 0.0), r["offered_load"] if carried else 0.0)
    else:
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
    latency_of = {"latency_avg": lambda r: r["latency"]["avg"], "latency_p99": lambda r: r["latency"]["p99"]}
    latencies = {k: {} for k in latency_of}
    for r in runs:
        for k, get in latency_of.items():
            latencies[k].setdefault((r["config"], r["pattern"], r["offered_load"]), []).append(get(r))

    def spread(v, digits):
        return [f"{sum(v) / len(v):.{digits}f}", f"{min(v):.{digits}f}", f"{max(v):.{digits}f}"]

    with open(os.path.join(out, f"{name}.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["config", "pattern", "offered_load", f"{metric}_mean", f"{metric}_min", f"{metric}_max", "seeds"] +
                   [f"{k}_{s}" for k in latency_of for s in ("mean", "min", "max")])
        for key, v in sorted(by.items()):
            w.writerow(list(key) + spread(v, 6) + [len(v)] + [x for k in latency_of for x in spread(latencies[k][key], 2)])
        cells = cells_of(runs, metric, spec)
        if spec.get("table") in ("peak", "stable"):
            for (config, pattern), v in cells.items():
                w.writerow([config, pattern, spec["table"]] + spread(v, 6) + [len(v)] + [""] * 3 * len(latency_of))
    # The table: a row per config, a column per pattern.
    configs = sorted({k[0] for k in by})
    patterns = list(dict.fromkeys(r["pattern"] for r in runs))
    top = max(spec["loads"])
    where = {"peak": f"{metric} at the peak over the offered loads",
             "stable": f"the highest offered load carried (accepted within {STABLE_SHORTFALL:.0%} of generated; "
                       f"0 where not even the lowest is)"}.get(spec.get("table"), f"{metric} at offered load {top:g}")
    # latency_at: the average latency at those loads, per pattern.
    latency = latencies["latency_avg"]
    latency_at = spec.get("latency_at", [])
    heads = [h for p in patterns for h in [p] + [f"{p}: latency at {x:g}" for x in latency_at]]
    seeds = [s for s in spec["seeds"] if any(r["seed"] == s for r in runs)]
    lines = [f"{spec['title']}: {where}, mean over seeds "
             f"{', '.join(map(str, seeds))} (min-max; a point with fewer seeds says how many). Regenerate: "
             f"`sim/bench.py {spec['_path']}`; data `{name}.csv`.", "",
             "| config | " + " | ".join(heads) + " |", "|---|" + "---|" * len(heads)]
    for c in configs:
        row = []
        for p in patterns:
            v = cells.get((c, p))
            few = f", {len(v)} seed{'s' if len(v) > 1 else ''}" if v and len(v) < len(seeds) else ""
            row.append(f"{sum(v) / len(v):.3f} ({min(v):.3f}-{max(v):.3f}{few})" if v else "-")
            for x in latency_at:
                v = latency.get((c, p, x))
                row.append(f"{sum(v) / len(v):.1f} ({min(v):.1f}-{max(v):.1f})" if v else "-")
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
    # Per pattern the table's metric per config and, with latency_at, the
    # average latency against the offered load (bars and band: min-max).
    rows_per = 2 if latency_at else 1
    fig, axes = plt.subplots(rows_per, len(patterns), figsize=(max(6, 4 * len(patterns)), 3.6 * rows_per + 0.4),
                             squeeze=False)
    for k, p in enumerate(patterns):
        ax = axes[0][k]
        vals = [cells.get((c, p), [0]) for c in configs]
        mean = [sum(v) / len(v) for v in vals]
        ax.bar(range(len(configs)), mean, yerr=[[m - min(v) for m, v in zip(mean, vals)],
                                                [max(v) - m for m, v in zip(mean, vals)]], capsize=3)
        ax.set_xticks(range(len(configs)), [c.replace("dfly_2_4_2_9_", "") for c in configs], rotation=60,
                      fontsize=7)
        ax.set_title(p, fontsize=9)
        ax.set_ylabel("highest offered load carried" if spec.get("table") == "stable" else metric)
        if latency_at:
            ax = axes[1][k]
            for c in configs:
                pts = sorted((x, v) for (cc, pp, x), v in latency.items() if cc == c and pp == p)
                xs = [x for x, _ in pts]
                ax.plot(xs, [sum(v) / len(v) for _, v in pts], marker="o", markersize=3, label=c)
                ax.fill_between(xs, [min(v) for _, v in pts], [max(v) for _, v in pts], alpha=0.2)
            ax.set_xlabel("offered load")
            ax.set_ylabel("average latency (cycles)")
            ax.set_yscale("log")
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=6)
    fig.suptitle("\n".join(textwrap.wrap(spec["title"], 90)), fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"{name}.png"), dpi=120)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spec", help="a table's spec, sim/bench/NAME.toml")
    ap.add_argument("--rlroute", default="build/rlroute")
    ap.add_argument("--out", help="output directory (default out/bench/NAME)")
    ap.add_argument("--fresh", action="store_true", help="run every run again, even those with a JSON")
    ap.add_argument("--report", action="store_true", help="run nothing: write the outputs from the runs already "
                    "there (a bench stopped part way, its points at the seeds it has)")
    ap.add_argument("--threads", type=int, help="threads per run instead of the spec's (the same results at every "
                    "count; 1 when other jobs share the cores, whose spinning threads would otherwise wait on them)")
    args = ap.parse_args(argv)
    if args.threads is not None and args.threads < 1:
        ap.error(f"--threads {args.threads}: must be 1 or more")
    if args.fresh and args.report:
        ap.error("--fresh and --report: --report runs nothing, --fresh runs everything again; give one")
    name = os.path.splitext(os.path.basename(args.spec))[0]
    out = args.out or os.path.join("out", "bench", name)
    try:
        spec = read_spec(args.spec)
        spec["_path"] = args.spec
        if args.threads is not None:
            spec["threads"] = args.threads
        if not os.access(args.rlroute, os.X_OK):
            raise SpecError(f"--rlroute {args.rlroute}: not an executable (build it: cmake --build build)")
        os.makedirs(os.path.join(out, "runs"), exist_ok=True)
        configs = configs_of(spec, out)
        # Seed by seed: a table stopped part way has every point at its first seeds.
        todo = [(c, p, s) for s in spec["seeds"] for c in configs for p in spec["patterns"]]
        t0, done, found = time.monotonic(), 0, {}
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
            if args.report and not os.path.exists(os.path.join(out, "runs", f"{stem_of(c)}__"
                                                                   f"{p.replace(':', '_').replace('=', '_')}__s{s}.json")):
                continue
            path, ran = run(args.rlroute, spec, c, p, s, out, f"[{i + 1}/{len(todo)}{left}]")
            done += ran
            found[(c, p, s)] = rows_of(path)
            for r in found[(c, p, s)]:
                r["seed"] = s
                r["pattern"] = p
        # The outputs list the runs config by config, as the spec reads.
        runs = [r for c in configs for p in spec["patterns"] for s in spec["seeds"] for r in found.get((c, p, s), [])]
        if not runs:
            raise SpecError(f"--report: no run of this spec in {out}/runs")
        write_outputs(name, spec, out, runs)
        write_trainings(out)
        print(f"wrote {out}/{name}.csv, {name}.md, {name}.png, runs.csv and runs/ ({len(found)} of {len(todo)} runs, "
              f"{done} run now)")
    except SpecError as e:
        print(f"bench.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
