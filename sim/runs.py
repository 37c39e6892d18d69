#!/usr/bin/python3
"""A table of named runs from its spec: `sim/runs.py sim/runs/NAME.toml` runs
each run the spec lists and writes, under OUT (default out/runs/NAME):

  runs/RUN.json    the run's result JSON (rlroute sim --json);
  series/RUN.csv   its time series (rlroute sim --series);
  links/RUN.csv    its links' utilisation, for a run with `links = true`;
  PLOT.png         each plot the spec lists, once its runs have series;
  NAME.csv         a row per run: run, pattern, offered_load, warmup,
                   accepted_load, lat_avg, lat_p99, minimal_share, avg_hops,
                   drained, packets_lost, wall_seconds,
                   router_cycles_per_second.

For tables whose rows are different experiments (another parameter, another
learning time, a load that changes during the run) rather than a grid of
configs, patterns and seeds (that is sim/bench.py). A spec (TOML):

  title = "..."
  config = "path/to/config.toml"       # every run's config
  args = ["--cycles", "3125", ...]      # every run's rlroute sim arguments (a
                                        # run's own flag replaces the spec's)
  [[run]]
  name = "adv4_1.0_t2_0.1"
  args = ["--pattern", "adv+4", "--load", "1.0", "--warmup", "16000"]
  set = { "routing.q_thld2" = 0.1 }     # optional: keys for this run's config
  links = true                          # optional: also links/RUN.csv (rlroute sim --links)
  [[plot]]                              # optional: series drawn together
  name = "q1056_adv4"                   # OUT/q1056_adv4.png (sim/q_series_plot.py)
  title = "..."
  runs = ["adv4_1.0", "adv4_1.0_t2_0.1"]

Resumable: a run whose JSON is already there is not run again (--fresh
runs it again); --only NAME,... runs a subset. Every run's config is
generated (rlroute gen) before the first run starts, so a config rlroute
refuses stops the table at once; a run that fails stops the table with its
log.
"""
import argparse
import csv
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

from spec_file import SpecError, make_variants, read_toml

SPEC_KEYS = {"title", "config", "args", "run", "plot"}
RUN_KEYS = {"name", "args", "set", "links"}
PLOT_KEYS = {"name", "title", "runs"}
SERIES_PLOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "q_series_plot.py")
COLUMNS = ["run", "pattern", "offered_load", "warmup", "accepted_load", "lat_avg", "lat_p99", "minimal_share",
           "avg_hops", "drained", "packets_lost", "wall_seconds", "router_cycles_per_second"]


def valid_name(name):
    """A run's or a plot's name: it names files."""
    return bool(name) and all(c.isalnum() or c in "._-" for c in name)


def read_spec(path):
    spec = read_toml(path, SPEC_KEYS, ("title", "config", "run"))
    names = set()
    for i, run in enumerate(spec["run"]):
        for key in run:
            if key not in RUN_KEYS:
                raise SpecError(f"{path}: run {i + 1}: {key}: unknown key (known: {', '.join(sorted(RUN_KEYS))})")
        name = run.get("name", "")
        if not valid_name(name):
            raise SpecError(f"{path}: run {i + 1}: name = {name!r}: must be letters, digits, '.', '_' or '-'")
        if name in names:
            raise SpecError(f"{path}: run {i + 1}: name = {name!r}: given twice")
        names.add(name)
        if not isinstance(run.get("links", False), bool):
            raise SpecError(f"{path}: run {name}: links = {run['links']!r}: must be true or false")
        for flag in ("--json", "--series", "--quiet", "--links"):
            if flag in run.get("args", []) + spec.get("args", []):
                raise SpecError(f"{path}: run {name}: args: {flag} is set by runs.py")
    plots = set()
    for i, plot in enumerate(spec.get("plot", [])):
        for key in plot:
            if key not in PLOT_KEYS:
                raise SpecError(f"{path}: plot {i + 1}: {key}: unknown key (known: {', '.join(sorted(PLOT_KEYS))})")
        name = plot.get("name", "")
        if not valid_name(name) or name in plots:
            raise SpecError(f"{path}: plot {i + 1}: name = {name!r}: must be letters, digits, '.', '_' or '-', "
                            "and not given twice")
        plots.add(name)
        if not plot.get("runs"):
            raise SpecError(f"{path}: plot {name}: runs: give the runs whose series it draws")
        for r in plot["runs"]:
            if r not in names:
                raise SpecError(f"{path}: plot {name}: runs: {r}: no such run")
    return spec


def draw_plots(spec, out):
    """Each plot of the spec whose runs all have a series (sim/q_series_plot.py),
    as OUT/NAME.png; returns the plots drawn."""
    drawn = []
    for plot in spec.get("plot", []):
        series = [os.path.join(out, "series", r + ".csv") for r in plot["runs"]]
        if not all(os.path.exists(s) for s in series):
            continue
        png = os.path.join(out, plot["name"] + ".png")
        r = subprocess.run([sys.executable, SERIES_PLOT, "--out", png, "--title", plot.get("title", ""), *series],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise SpecError(f"plot {plot['name']} failed:\n{(r.stderr or r.stdout).strip()[-2000:]}")
        drawn.append(png)
    return drawn


def config_of(spec, run, out):
    """The run's config: the spec's, or a variant with the run's keys."""
    if not run.get("set"):
        return spec["config"]
    suffix = "".join(c if c.isalnum() else "_" for c in run["name"])  # variants.py takes [A-Za-z0-9_]
    return make_variants([spec["config"]], suffix, run["set"], os.path.join(out, "configs"))[0]


def check_configs(spec, runs, out, rlroute):
    """Has rlroute generate every run's config before anything runs (a
    second each), so that a config it refuses (a key's value, a variant's
    design name too long) stops the table at once, not hours in."""
    with tempfile.TemporaryDirectory(prefix="runs-check-") as scratch:
        for run in runs:
            config = config_of(spec, run, out)
            r = subprocess.run([rlroute, "gen", config, "-o", os.path.join(scratch, run["name"])],
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise SpecError(f"run {run['name']}: its config is refused: {(r.stderr or r.stdout).strip()[-1000:]}")


def arg(args, flag):
    """The value of `flag` in an argument list (the last one), or None."""
    value = None
    for i, a in enumerate(args[:-1]):
        if a == flag:
            value = args[i + 1]
    return value


def merged_args(common, own):
    """The spec's arguments with each flag the run gives itself replaced by
    the run's (rlroute takes a flag once)."""
    own_flags = {a for a in own if a.startswith("--")}
    merged, i = [], 0
    while i < len(common):
        if common[i] in own_flags:
            i += 2 if i + 1 < len(common) and not common[i + 1].startswith("--") else 1
            continue
        merged.append(common[i])
        i += 1
    return merged + own


def row_of(run, args, path):
    with open(path) as f:
        data = json.load(f)
    r = data[0] if isinstance(data, list) else data
    phases = arg(args, "--phases")
    pattern, load = r["pattern"], r["offered_load"]
    if phases:  # "0:uniform@0.4,8000:uniform@0.8" -> "uniform phases", "0.4/0.8"
        pattern = f"{r['pattern']} phases"
        load = "/".join(p.split("@")[1] for p in phases.split(","))
    return [run["name"], pattern, load, arg(args, "--warmup") or "", r["accepted_load"], r["latency"]["avg"],
            r["latency"]["p99"], r["minimal_share"], r["avg_hops"], r["drained"], r["packets_lost"],
            r["wall_seconds"], r["router_cycles_per_second"]]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spec", help="a table's spec, sim/runs/NAME.toml")
    ap.add_argument("--rlroute", default="build/rlroute")
    ap.add_argument("--out", help="output directory (default out/runs/NAME)")
    ap.add_argument("--only", help="run only these runs (names, comma-separated); the table has the runs with a JSON")
    ap.add_argument("--fresh", action="store_true", help="run again the runs that have a JSON")
    args = ap.parse_args(argv)
    name = os.path.splitext(os.path.basename(args.spec))[0]
    out = args.out or os.path.join("out", "runs", name)
    try:
        spec = read_spec(args.spec)
        if not os.access(args.rlroute, os.X_OK):
            raise SpecError(f"--rlroute {args.rlroute}: not an executable (build it: cmake --build build)")
        known = [r["name"] for r in spec["run"]]
        only = args.only.split(",") if args.only else known
        for n in only:
            if n not in known:
                raise SpecError(f"--only {args.only}: {n}: no such run in {args.spec} (runs: {', '.join(known)})")
        for sub in ("runs", "series"):
            os.makedirs(os.path.join(out, sub), exist_ok=True)
        rows, ran, t0 = [], 0, time.monotonic()
        todo = [r for r in spec["run"] if r["name"] in only]
        check_configs(spec, todo, out, args.rlroute)
        for i, run in enumerate(spec["run"]):
            run_args = merged_args(spec.get("args", []), run.get("args", []))
            path = os.path.join(out, "runs", run["name"] + ".json")
            if run in todo and (args.fresh or not os.path.exists(path)):
                cmd = [args.rlroute, "sim", config_of(spec, run, out), *run_args, "--quiet", "--json", path,
                       "--series", os.path.join(out, "series", run["name"] + ".csv")]
                if run.get("links"):
                    os.makedirs(os.path.join(out, "links"), exist_ok=True)
                    cmd += ["--links", os.path.join(out, "links", run["name"] + ".csv")]
                left = f", {time.monotonic() - t0:.0f} s so far" if ran else ""
                print(f"  [{todo.index(run) + 1}/{len(todo)}{left}] {run['name']}: {shlex.join(cmd)}", flush=True)
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode != 0:
                    raise SpecError(f"run {run['name']} failed ({shlex.join(cmd)}):\n"
                                    f"{(r.stderr or r.stdout).strip()[-3000:]}")
                ran += 1
            if os.path.exists(path):
                rows.append(row_of(run, run_args, path))
        with open(os.path.join(out, f"{name}.csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(COLUMNS)
            w.writerows(rows)
        drawn = draw_plots(spec, out)
        plots = f" and {len(drawn)} plot{'s' if len(drawn) != 1 else ''}" if spec.get("plot") else ""
        print(f"wrote {out}/{name}.csv{plots} ({len(rows)} of {len(known)} runs, {ran} run now)")
    except SpecError as e:
        print(f"runs.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
