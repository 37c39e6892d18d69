#!/usr/bin/python3
"""The HTML page of `rlroute report RESULTS... -o report.html` (cli/report.cpp
runs this script and writes its standard output atomically).

RESULTS are any mix of
  - run JSONs (`rlroute sim --json`: one result or an array, one per load),
  - sweep CSVs (sim/sweep.py's sweep.csv: a row per config and load),
  - series CSVs (`rlroute sim --series`: a row per window).
The page is one self-contained file (plots are inline SVG drawn with
matplotlib, no network access): latency and accepted load against offered
load per config (the mean over seeds, bars from the minimum to the maximum),
a heat map of link utilisation drawn on the topology for every run that has
per-link data, the series over time, and the configs and provenance of every
input. Errors are one line, "rlroute: error: ...", and exit 1.
"""
import argparse
import collections
import csv
import hashlib
import html
import io
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402

plt.rcParams["svg.fonttype"] = "path"  # text as outlines: no font needed to view the page
plt.rcParams["svg.hashsalt"] = "rlroute"  # the same input gives the same page

SERIES_FIELDS = ["offered_load", "begin", "end", "accepted_load", "latency_avg", "minimal_share"]
SWEEP_FIELDS = ["config", "offered_load", "accepted_load", "lat_avg"]
MAX_HEAT_MAPS = 24  # one per run with link data; beyond that the page says how many were left out


class ReportError(Exception):
    pass


def fail(msg):
    print(f"rlroute: error: {msg}", file=sys.stderr)
    sys.exit(1)


# ---- reading the inputs ----

def read_input(path):
    """(kind, data) of one RESULTS file: ("runs", [result...]),
    ("sweep", [row...]) or ("series", [row...])."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise ReportError(f"{path}: cannot read: {e.strerror}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ReportError(f"{path}: not UTF-8 text: neither a run JSON nor a CSV")
    if path.endswith(".json") or text.lstrip().startswith(("{", "[")):
        try:
            data = json.loads(text)
        except ValueError as e:
            raise ReportError(f"{path}: not JSON: {e}")
        runs = data if isinstance(data, list) else [data]
        for i, r in enumerate(runs):
            if not isinstance(r, dict) or "offered_load" not in r or "accepted_load" not in r:
                raise ReportError(f"{path}: result {i}: not an rlroute sim result (no offered_load/accepted_load)")
        return "runs", runs, raw
    rows = list(csv.DictReader(io.StringIO(text)))
    header = set(rows[0].keys()) if rows else set(text.splitlines()[0].split(",") if text else [])
    if set(SERIES_FIELDS) <= header:
        kind = "series"
    elif set(SWEEP_FIELDS) <= header:
        kind = "sweep"
    else:
        raise ReportError(f"{path}: a CSV with neither the sweep columns ({', '.join(SWEEP_FIELDS)}) nor the "
                          f"series columns ({', '.join(SERIES_FIELDS)})")
    if not rows:
        raise ReportError(f"{path}: the CSV has no rows")
    try:
        for i, row in enumerate(rows):
            for k in (SERIES_FIELDS if kind == "series" else SWEEP_FIELDS[1:]):
                row[k] = float(row[k])
    except (TypeError, ValueError):
        raise ReportError(f"{path}: row {i + 2}: {k} = {row.get(k)!r} is not a number")
    return kind, rows, raw


# ---- plots ----

def svg_of(fig):
    out = io.StringIO()
    fig.savefig(out, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = out.getvalue()
    return text[text.index("<svg"):]  # without the XML prolog: inline in HTML


def spread(values):
    return sum(values) / len(values), min(values), max(values)


def load_curves(points):
    """Accepted load and latency against offered load, a line per config and
    pattern: the mean over the runs at each load, bars from min to max."""
    by_curve = collections.defaultdict(lambda: collections.defaultdict(list))
    for p in points:
        by_curve[(p["config"], p["pattern"])][p["offered_load"]].append(p)
    fig, (ax_acc, ax_lat) = plt.subplots(1, 2, figsize=(11, 4.2))
    for (config, pattern), by_load in sorted(by_curve.items()):
        loads = sorted(by_load)
        label = f"{config} ({pattern})" if pattern else config
        for ax, key in ((ax_acc, "accepted_load"), (ax_lat, "latency")):
            stats = [spread([p[key] for p in by_load[x]]) for x in loads]
            mean = [s[0] for s in stats]
            err = [[s[0] - s[1] for s in stats], [s[2] - s[0] for s in stats]]
            ax.errorbar(loads, mean, yerr=err, marker="o", markersize=3, capsize=2, label=label)
    ax_acc.set(xlabel="offered load (flits/node/cycle)", ylabel="accepted load (flits/node/cycle)",
               title="Accepted load")
    ax_lat.set(xlabel="offered load (flits/node/cycle)", ylabel="latency (cycles)", title="Latency (mean)")
    ax_lat.set_yscale("log")
    for ax in (ax_acc, ax_lat):
        ax.grid(True, alpha=0.3)
    ax_acc.legend(fontsize=7)
    runs_per_point = max(len(v) for c in by_curve.values() for v in c.values())
    return svg_of(fig), runs_per_point


def link_segments(topo):
    """(segments, utilisations): each directed link drawn from its source
    router to halfway to its target, so both directions show."""
    routers = topo["routers"]
    if topo["kind"] == "dragonfly":
        groups = 1 + max(r["group"] for r in routers)
        per_group = 1 + max(r["index"] for r in routers)
        radius, small = 10.0, min(2.5, 10.0 * math.pi / groups * 0.6)

        def place(r):
            g, i = routers[r]["group"], routers[r]["index"]
            a = 2 * math.pi * g / groups
            b = a + 2 * math.pi * i / per_group
            return (radius * math.cos(a) + small * math.cos(b), radius * math.sin(a) + small * math.sin(b))
    else:
        dims = [1 + max(r["coords"][d] for r in routers) for d in range(len(routers[0]["coords"]))]

        def place(r):
            c = routers[r]["coords"] + [0, 0]
            # a third dimension's planes side by side
            return (c[0] + c[2] * (dims[0] + 1), -c[1])
    segs, util = [], []
    for link in topo["links"]:
        (x0, y0), (x1, y1) = place(link["router"]), place(link["to_router"])
        if topo["kind"] != "dragonfly" and math.hypot(x1 - x0, y1 - y0) > 1.5:
            # a torus's wrap-around link: a stub out of the edge
            dx, dy = x1 - x0, y1 - y0
            n = math.hypot(dx, dy)
            x1, y1 = x0 - dx / n * 0.8, y0 - dy / n * 0.8
        segs.append([(x0, y0), ((x0 + x1) / 2, (y0 + y1) / 2)])
        util.append(link["utilisation"])
    return segs, util, [place(r) for r in range(len(routers))]


def heat_map(run, title):
    topo = run["topology"]
    segs, util, places = link_segments(topo)
    fig, ax = plt.subplots(figsize=(6.5, 5.5) if topo["kind"] == "dragonfly" else (6, 5))
    lines = LineCollection(segs, array=util, cmap="viridis", linewidths=1.6 if len(segs) < 400 else 0.8)
    lines.set_clim(0, max(1e-9, max(util)))
    ax.add_collection(lines)
    ax.scatter([p[0] for p in places], [p[1] for p in places], s=8 if len(places) > 64 else 20, c="black", zorder=3)
    ax.set_aspect("equal")
    ax.autoscale()
    ax.axis("off")
    fig.colorbar(lines, ax=ax, shrink=0.8, label="link utilisation (flits/cycle)")
    ax.set_title(title, fontsize=9)
    return svg_of(fig)


def series_plot(series, title):
    """series: [(label, rows)], rows with begin, end, accepted_load,
    latency_avg, minimal_share, and where the algorithm has them the
    Q-table's estimates (mean_q, q_minimal, q_best_other) and UGAL-LE's
    mean contention factor (contention_mean)."""
    def has(key):
        return any(r.get(key) not in (None, "", -1) for _, rows in series for r in rows)
    panels = [("accepted_load", "accepted load"), ("latency_avg", "latency (cycles)"),
              ("minimal_share", "minimal share")]
    optional = [("mean_q", "Q-table mean (cycles)"), ("q_minimal", "Q via the minimal port (cycles)"),
                ("q_best_other", "best Q via another port (cycles)"),
                ("contention_mean", "mean contention factor C_j")]
    panels += [p for p in optional if has(p[0])]
    cols = min(4, len(panels))
    rows_of_panels = (len(panels) + cols - 1) // cols
    fig, grid = plt.subplots(rows_of_panels, cols, figsize=(3.2 * cols, 3 * rows_of_panels), squeeze=False)
    axes = list(grid.flat)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    for label, rows in series:
        mid = [(float(r["begin"]) + float(r["end"])) / 2 for r in rows]
        for ax, (key, name) in zip(axes, panels):
            ys = [float(r[key]) if r.get(key) not in (None, "") else math.nan for r in rows]
            ax.plot(mid, ys, label=label, linewidth=1)
            ax.set(xlabel="cycle", title=name)
            ax.grid(True, alpha=0.3)
    if len(series) > 1:
        axes[0].legend(fontsize=6)
    fig.suptitle(title, fontsize=9, y=1.04)
    return svg_of(fig), [name for _, name in panels]


# ---- the page ----

def figure(svg, caption):
    return f'<figure class="plot">{svg}<figcaption>{html.escape(caption)}</figcaption></figure>\n'


def table(header, rows):
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>\n" for row in rows)
    return f"<table><tr>{head}</tr>\n{body}</table>\n"


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>rlroute report</title>
<style>
body {{ font-family: sans-serif; margin: 1.5em; max-width: 1200px; }}
figure.plot {{ display: inline-block; margin: 0.5em; vertical-align: top; }}
figure.plot svg {{ max-width: 100%; height: auto; }}
figcaption {{ font-size: 0.85em; color: #444; }}
table {{ border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }}
td, th {{ border: 1px solid #ccc; padding: 2px 6px; text-align: left; }}
</style></head><body>
<h1>rlroute report</h1>
{body}
<script>
// The page checks itself: every plot must have drawn with a size. The title
// says how many did (the browser test reads it).
window.addEventListener("load", () => {{
  const plots = document.querySelectorAll("figure.plot svg");
  let drawn = 0;
  for (const svg of plots) {{
    const box = svg.getBoundingClientRect();
    if (box.width > 0 && box.height > 0) drawn++;
  }}
  document.title = `rlroute report: ${{drawn}} of ${{plots.length}} plots drawn`;
}});
</script>
</body></html>
"""


def build_page(inputs, command):
    runs, sweep_rows, series = [], [], []
    provenance = []
    for path, (kind, data, raw) in inputs:
        provenance.append([path, kind, len(data), len(raw), hashlib.sha256(raw).hexdigest()[:16]])
        if kind == "runs":
            runs += [(path, r) for r in data]
        elif kind == "sweep":
            sweep_rows += data
        else:
            series.append((os.path.basename(path), data))

    body = []
    points = [{"config": r.get("config", os.path.basename(p)), "pattern": r.get("pattern", ""),
               "offered_load": float(r["offered_load"]), "accepted_load": float(r["accepted_load"]),
               "latency": float(r.get("latency", {}).get("avg", math.nan))} for p, r in runs]
    points += [{"config": r["config"], "pattern": r.get("pattern", ""), "offered_load": r["offered_load"],
                "accepted_load": r["accepted_load"], "latency": r["lat_avg"]} for r in sweep_rows]
    body.append("<h2>Accepted load and latency against offered load</h2>\n")
    if points:
        svg, per_point = load_curves(points)
        body.append(figure(svg, f"{len(points)} runs; at most {per_point} run(s) per point (the line is their mean, "
                                "the bars span the lowest to the highest)"))
    else:
        body.append("<p>No run JSON or sweep CSV among the inputs.</p>\n")

    body.append("<h2>Link utilisation on the topology</h2>\n")
    with_links = [(p, r) for p, r in runs if r.get("topology", {}).get("links")]
    for p, r in with_links[:MAX_HEAT_MAPS]:
        title = (f"{r.get('config', '')}: {r['topology']['describe']}, {r.get('pattern', '')} at offered load "
                 f"{r['offered_load']:g} (seed {r.get('seed', '?')})")
        body.append(figure(heat_map(r, title), f"{os.path.basename(p)}: each link from its source router to "
                                               "halfway, coloured by its flits per cycle"))
    if len(with_links) > MAX_HEAT_MAPS:
        body.append(f"<p>{len(with_links) - MAX_HEAT_MAPS} more runs with link data are not drawn.</p>\n")
    if not with_links:
        body.append("<p>No run JSON with per-link utilisation (the harness fabric writes it) among the inputs.</p>\n")

    body.append("<h2>Over time</h2>\n")
    from_runs = [(f"{r.get('config', '')} @{r['offered_load']:g}", r["series"]) for _, r in runs if r.get("series")]
    groups = []
    for name, rows in series:  # a series CSV holds a run per offered load, one after the other
        by_load = collections.defaultdict(list)
        for r in rows:
            by_load[r["offered_load"]].append(r)
        groups.append((name, [(f"load {load:g}", by_load[load]) for load in sorted(by_load)]))
    if from_runs:
        groups.append(("series of the run JSONs", from_runs))
    for name, s in groups:
        svg, panels = series_plot(s, name)
        body.append(figure(svg, f"{name}: windows of "
                           f"{int(float(s[0][1][0]['end']) - float(s[0][1][0]['begin']))} cycles; "
                           f"{', '.join(panels)}"))
    if not groups:
        body.append("<p>No series (rlroute sim --series, or a run JSON with a series) among the inputs.</p>\n")

    body.append("<h2>Configs and provenance</h2>\n")
    body.append(table(["config", "pattern", "offered load", "seed", "fabric", "network", "cycles", "file"],
                      [[r.get("config", ""), r.get("pattern", ""), f"{r['offered_load']:g}", r.get("seed", ""),
                        r.get("fabric", ""), r.get("topology", {}).get("describe", ""), r.get("cycles", ""),
                        os.path.basename(p)] for p, r in runs]))
    body.append(table(["input", "kind", "entries", "bytes", "sha256 (first 16)"], provenance))
    body.append(f"<p>Made by <code>{html.escape(command)}</code>.</p>\n")
    return PAGE.format(body="".join(body))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="rlroute report", description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+", metavar="RESULTS")
    ap.add_argument("--command", default="rlroute report", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    try:
        inputs = [(p, read_input(p)) for p in args.results]
        page = build_page(inputs, args.command)
    except ReportError as e:
        fail(str(e))
    except (KeyError, TypeError, ValueError) as e:
        fail(f"a result lacks what the report draws ({type(e).__name__}: {e})")
    sys.stdout.write(page)


if __name__ == "__main__":
    main()
