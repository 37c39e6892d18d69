#!/usr/bin/python3
"""Load sweep: latency and throughput versus offered load for rlroute configs.

For every config and every offered load this runs one `rlroute sim` process
(`--quiet --json`), keeps each run's JSON, and writes:

  OUT/runs/<config>_<pattern>_load<L>.json  raw result of each run
  OUT/runs/<...>_load<L>.process.json       its command, wall and CPU seconds
  OUT/sweep.csv                             one row per (config, load)
  OUT/sweep.png                             latency and accepted load vs offered load
  OUT/summary.json, OUT/summary.md          per-config zero-load latency,
                                            saturation throughput, simulator speed

Definitions (all loads in flits/node/cycle, latencies in cycles):

  zero-load latency      average network latency (head injected -> tail
                         ejected) at the lowest offered load of the sweep.
  saturation throughput  the maximum accepted load over the sweep.
  latency knee           the lowest offered load whose average total latency
                         (packet created -> tail ejected, source queueing
                         included) exceeds 3x the total latency at the lowest
                         load; "none" if no load of the sweep does.
  simulator speed        median router_cycles_per_second over the sweep
                         (simulated cycles x routers / wall seconds of the
                         simulation loop; the model build is not included).
                         Also reported: the median per CPU second of the
                         whole rlroute process, which other load on a shared
                         machine does not lower.

A run that exits non-zero (deadlock, protocol violation, lost packets, bad
arguments, ...) stops the sweep with an error: a deadlock is a bug, not a data
point. Runs with drained=false (measured packets still waiting in the source
queues when the drain cap ran out, expected above saturation) are kept and
marked in the CSV, the table and the plot.

Run with /usr/bin/python3 (it needs matplotlib), from the repository root:

  /usr/bin/python3 sim/sweep.py --configs examples/torus4x4_dor.toml \
      --loads 0.02,0.05:1.0:0.05 --warmup 2000 --cycles 10000
"""

import argparse
import concurrent.futures
import csv
import json
import math
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tomllib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CSV_FIELDS = [
    "config", "pattern", "offered_load", "accepted_load",
    "lat_avg", "lat_p50", "lat_p95", "lat_p99", "lat_max",
    "total_lat_avg", "avg_hops", "packets_delivered", "drained",
    "router_cycles_per_second",
    # extras, after the fixed columns
    "generated_load", "total_lat_p99", "packets_not_injected",
    "link_utilisation", "cycles", "wall_seconds", "process_cpu_seconds",
    "cpu_router_cycles_per_second",
]

KNEE_FACTOR = 3.0


class SweepError(Exception):
    pass


def fmt_load(x):
    """Loads as short decimals: 0.3, not 0.30000000000000004."""
    return f"{x:.6g}"


def parse_loads(text):
    """'0.02,0.05:1.0:0.05' -> [0.02, 0.05, 0.1, ..., 1.0].

    Comma- or space-separated items; an item is a number or start:stop:step
    (stop included when the steps hit it within rounding)."""
    loads = []
    for item in text.replace(",", " ").split():
        if ":" in item:
            parts = item.split(":")
            if len(parts) != 3:
                raise SweepError(f"bad load range {item!r}: expected start:stop:step")
            start, stop, step = (float(p) for p in parts)
            if step <= 0 or stop < start:
                raise SweepError(f"bad load range {item!r}: need step > 0 and stop >= start")
            n = int(math.floor((stop - start) / step + 1e-9))
            loads += [round(start + i * step, 9) for i in range(n + 1)]
        else:
            loads.append(float(item))
    loads = sorted(set(round(x, 9) for x in loads))
    if not loads:
        raise SweepError("no loads given")
    bad = [x for x in loads if not 0 < x <= 1]
    if bad:
        raise SweepError(f"loads must be in (0, 1] flits/node/cycle: {bad}")
    return loads


def nice_ceil(x):
    """Smallest 1-2-5 step value >= x (for the latency axis cut)."""
    mag = 10 ** math.floor(math.log10(x))
    for m in (1, 2, 2.5, 5, 10):
        if m * mag >= x - 1e-9:
            return m * mag
    return 10 * mag


def find_rlroute(path):
    for cand in (path, os.path.join(REPO, path)):
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return os.path.abspath(cand)
    raise SweepError(f"rlroute binary not found at {path!r} (build it: "
                     "cmake -S . -B build && make -C build -j2 rlroute)")


def read_config(path):
    """The few config values the summary needs (zero-load latency model)."""
    with open(path, "rb") as f:
        cfg = tomllib.load(f)
    topo, router, simc = cfg.get("topology", {}), cfg.get("router", {}), cfg.get("sim", {})
    return {
        "name": cfg.get("design", {}).get("name"),
        "dims": topo.get("dims"),
        "kind": topo.get("kind", "torus"),
        "link_latency": topo.get("link_latency", 1),
        "max_packet_flits": router.get("max_packet_flits", 4),
        "packet_flits": simc.get("packet_flits", 0),
        "packet_flits_min": simc.get("packet_flits_min", 0),
        "packet_flits_max": simc.get("packet_flits_max", 0),
        "vcs": router.get("vcs", 2),
        "buffer_flits": router.get("buffer_flits", 8),
        "flit_bits": router.get("flit_bits", 64),
    }


def run_one(args, rlroute, config, load, runs_dir, stem):
    out_json = os.path.join(runs_dir, f"{stem}_{args.pattern}_load{fmt_load(load)}.json")
    if args.replot:
        try:
            with open(out_json) as f:
                res = json.load(f)
        except (OSError, ValueError) as e:
            raise SweepError(f"--replot: cannot read {out_json}: {e}")
        res = res[0] if isinstance(res, list) else res
        try:
            with open(proc_json_of(out_json)) as f:
                res["_process"] = json.load(f)
        except (OSError, ValueError):
            pass
        return res
    cmd = [rlroute, "sim", config, "--pattern", args.pattern, "--load", fmt_load(load),
           "--quiet", "--json", out_json]
    for flag, val in (("--cycles", args.cycles), ("--warmup", args.warmup), ("--drain", args.drain),
                      ("--seed", args.seed), ("--packet-flits", args.packet_flits)):
        if val is not None:
            cmd += [flag, str(val)]
    if os.path.exists(out_json):
        os.remove(out_json)
    # Popen + wait4 rather than subprocess.run, to get the child's CPU time.
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t_start = time.monotonic()
        child = subprocess.Popen(cmd, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        proc_wall = time.monotonic() - t_start
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if child.returncode != 0:
        detail = (stderr.strip() or stdout.strip() or "(no output)")
        lines = detail.splitlines()
        if len(lines) > 60:
            detail = "\n".join(lines[:60] + [f"... ({len(lines) - 60} more lines)"])
        raise SweepError(f"rlroute exited with status {child.returncode} at load {fmt_load(load)} "
                         f"for {config}\ncommand: {shlex.join(cmd)}\n{detail}")
    try:
        with open(out_json) as f:
            res = json.load(f)
    except (OSError, ValueError) as e:
        raise SweepError(f"no readable JSON from {shlex.join(cmd)}: {e}")
    if isinstance(res, list):
        if len(res) != 1:
            raise SweepError(f"expected one result in {out_json}, got {len(res)}")
        res = res[0]
    # rlroute exits non-zero on these; check anyway in case it ever does not.
    if res.get("deadlock") or res.get("failure") or res.get("packets_lost", 0):
        raise SweepError(f"run failed although rlroute exited 0 (deadlock={res.get('deadlock')}, "
                         f"packets_lost={res.get('packets_lost')}): {shlex.join(cmd)}\n{res.get('failure', '')}")
    for key in ("packets_corrupted", "packets_duplicated", "packets_misrouted"):
        if res.get(key, 0):
            raise SweepError(f"{key}={res[key]} at load {fmt_load(load)}: {shlex.join(cmd)}")
    proc = {"cpu_seconds": usage.ru_utime + usage.ru_stime, "wall_seconds": proc_wall, "command": shlex.join(cmd)}
    with open(proc_json_of(out_json), "w") as f:
        json.dump(proc, f, indent=2)
        f.write("\n")
    res["_process"] = proc
    return res


def proc_json_of(out_json):
    return out_json[:-len(".json")] + ".process.json"


def row_of(res, pattern):
    lat, tot = res["latency"], res["total_latency"]
    return {
        "config": res["config"], "pattern": res.get("pattern", pattern),
        "offered_load": res["offered_load"], "accepted_load": res["accepted_load"],
        "lat_avg": lat["avg"], "lat_p50": lat["p50"], "lat_p95": lat["p95"],
        "lat_p99": lat["p99"], "lat_max": lat["max"],
        "total_lat_avg": tot["avg"], "avg_hops": res["avg_hops"],
        "packets_delivered": res["packets_delivered"], "drained": bool(res["drained"]),
        "router_cycles_per_second": res["router_cycles_per_second"],
        "generated_load": res.get("generated_load"), "total_lat_p99": tot["p99"],
        "packets_not_injected": res.get("packets_not_injected"),
        "link_utilisation": res.get("link_utilisation"), "cycles": res.get("cycles"),
        "wall_seconds": res.get("wall_seconds"),
        "process_cpu_seconds": res.get("_process", {}).get("cpu_seconds"),
        "cpu_router_cycles_per_second": cpu_speed(res),
    }


def cpu_speed(res):
    """Simulated cycles x routers per CPU second of the whole rlroute process
    (start-up and loading the cached model included): a conservative speed
    that other load on the machine does not lower."""
    cpu = res.get("_process", {}).get("cpu_seconds")
    if not cpu or not res.get("cycles") or not res.get("wall_seconds"):
        return None
    routers = round(res["router_cycles_per_second"] * res["wall_seconds"] / res["cycles"])
    return res["cycles"] * routers / cpu


class Progress:
    """Points done out of the sweep's total and an estimate of the time left
    (the mean time per point so far: the first points, which build the
    models, make it pessimistic)."""

    def __init__(self, total):
        self.total, self.done, self.t0 = total, 0, time.monotonic()
        self.lock = threading.Lock()

    def step(self):
        with self.lock:
            self.done += 1
            elapsed = time.monotonic() - self.t0
            left = elapsed / self.done * (self.total - self.done)
            return f"[{self.done}/{self.total}, {fmt_duration(elapsed)} so far, about {fmt_duration(left)} left]"


def fmt_duration(seconds):
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def sweep_config(args, rlroute, config, loads, runs_dir):
    stem = os.path.splitext(os.path.basename(config))[0]
    rows = []
    t0 = time.monotonic()

    def report(row):
        mark = "" if row["drained"] else "  (not drained)"
        mark += f"  {args.progress.step()}" if getattr(args, "progress", None) else ""
        print(f"  {row['config']:<16} load {fmt_load(row['offered_load']):>6}  accepted {row['accepted_load']:.4f}"
              f"  lat {row['lat_avg']:8.2f}  total {row['total_lat_avg']:10.2f}"
              f"  {row['router_cycles_per_second'] / 1e3:7.0f} kRc/s{mark}", flush=True)

    # The first run builds (or loads) the cached Verilator model; run it alone
    # so that parallel runs never build the same model concurrently.
    first = run_one(args, rlroute, config, loads[0], runs_dir, stem)
    rows.append(row_of(first, args.pattern))
    report(rows[-1])
    rest = loads[1:]
    if args.jobs <= 1:
        for load in rest:
            rows.append(row_of(run_one(args, rlroute, config, load, runs_dir, stem), args.pattern))
            report(rows[-1])
    else:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            futs = {ex.submit(run_one, args, rlroute, config, load, runs_dir, stem): load for load in rest}
            try:
                for fut in concurrent.futures.as_completed(futs):
                    rows.append(row_of(fut.result(), args.pattern))
                    report(rows[-1])
            except BaseException:
                for f in futs:
                    f.cancel()
                raise
    rows.sort(key=lambda r: r["offered_load"])
    return rows, time.monotonic() - t0


def sweep_all(args, rlroute, configs, loads, runs_dir):
    """(rows, seconds) of every config, in the order given. With --jobs N and
    at least N configs, N configs run at a time, each through its loads in
    order, so that two processes never build one model (the model cache's
    entry lock would serialise them anyway); with fewer configs, each config's
    loads after the first run N at a time."""
    if args.jobs <= 1 or len(configs) < args.jobs:
        return [sweep_config(args, rlroute, c, loads, runs_dir) for c in configs]
    one_at_a_time = argparse.Namespace(**{**vars(args), "jobs": 1})
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        return list(ex.map(lambda c: sweep_config(one_at_a_time, rlroute, c, loads, runs_dir), configs))


def packet_flits(args, cfg):
    if args.packet_flits:
        return args.packet_flits
    if cfg["packet_flits"]:
        return cfg["packet_flits"]
    if cfg["packet_flits_min"] and cfg["packet_flits_max"]:
        return (cfg["packet_flits_min"] + cfg["packet_flits_max"]) / 2
    return cfg["max_packet_flits"]


def fmt_model(value):
    return "n/a" if value is None else f"{value:.2f}"


def summarize(rows, cfg, args, seconds):
    low = rows[0]
    zero_total = low["total_lat_avg"]
    knee = next((r["offered_load"] for r in rows if r["total_lat_avg"] > KNEE_FACTOR * zero_total), None)
    best = max(rows, key=lambda r: r["accepted_load"])
    lp = packet_flits(args, cfg)
    link = cfg["link_latency"]
    # docs/architecture.md; a dragonfly's links differ in latency, so its
    # zero-load latency is a per-path sum (docs/routing_dragonfly.md): no model.
    model = None if cfg["kind"] == "dragonfly" else low["avg_hops"] * (2 + link) + lp + 2
    dims = cfg["dims"] or []
    return {
        "config": low["config"],
        "pattern": low["pattern"],
        "dims": dims,
        "loads": [r["offered_load"] for r in rows],
        "zero_load_offered": low["offered_load"],
        "zero_load_latency": low["lat_avg"],
        "zero_load_total_latency": zero_total,
        "zero_load_avg_hops": low["avg_hops"],
        "zero_load_model": model,
        "zero_load_model_formula": (f"H*(2+L)+Lp+2 with H={low['avg_hops']:.3f}, L={link}, Lp={lp:g}"
                                    if model is not None else "per path (dragonfly)"),
        "saturation_throughput": best["accepted_load"],
        "saturation_throughput_at_offered": best["offered_load"],
        "latency_knee_offered": knee,
        "latency_knee_factor": KNEE_FACTOR,
        "router_cycles_per_second_median": statistics.median(r["router_cycles_per_second"] for r in rows),
        "router_cycles_per_second_min": min(r["router_cycles_per_second"] for r in rows),
        "router_cycles_per_second_max": max(r["router_cycles_per_second"] for r in rows),
        "cpu_router_cycles_per_second_median": (
            statistics.median(r["cpu_router_cycles_per_second"] for r in rows)
            if all(r["cpu_router_cycles_per_second"] for r in rows) else None),
        "not_drained_loads": [r["offered_load"] for r in rows if not r["drained"]],
        "sweep_seconds": seconds,
    }


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        for r in rows:
            out = dict(r)
            out["drained"] = "true" if r["drained"] else "false"
            for k in ("accepted_load", "generated_load", "lat_avg", "total_lat_avg", "avg_hops",
                      "link_utilisation", "router_cycles_per_second", "wall_seconds",
                      "process_cpu_seconds", "cpu_router_cycles_per_second"):
                if isinstance(out.get(k), float):
                    out[k] = f"{out[k]:.6g}"
            out["offered_load"] = fmt_load(r["offered_load"])
            w.writerow(out)


def plot(path, by_config, summaries, args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    fig, (ax_l, ax_t) = plt.subplots(1, 2, figsize=(12, 4.8))
    zero = max(s["zero_load_latency"] for s in summaries)
    lat_max = args.lat_max or nice_ceil(10 * zero)
    # A latency of 0 means no measured packet arrived within the drain cap
    # (far above saturation): no sample, not plotted.
    all_lat = [r[k] for rows in by_config.values() for r in rows for k in ("lat_avg", "total_lat_avg") if r[k] > 0]
    lat_min = min(all_lat)
    use_log = args.log_y == "on" or (args.log_y == "auto" and min(max(all_lat), lat_max) / lat_min > 8)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (name, rows) in enumerate(by_config.items()):
        c = colors[i % len(colors)]
        x = [r["offered_load"] for r in rows]
        # network latency, solid; total latency (with source queueing), dashed
        ax_l.plot(x, [r["lat_avg"] if r["lat_avg"] > 0 else float("nan") for r in rows], "-", color=c,
                  marker="o", ms=4, label=f"{name}: network")
        tot = [(r["offered_load"], r["total_lat_avg"]) for r in rows if 0 < r["total_lat_avg"] <= lat_max]
        # extend the dashed line to the first point above the cut so it leaves the plot
        above = [(r["offered_load"], r["total_lat_avg"]) for r in rows if r["total_lat_avg"] > lat_max]
        ax_l.plot([p[0] for p in tot + above[:1]], [p[1] for p in tot + above[:1]], "--",
                  color=c, marker=".", ms=4, alpha=0.8, label=f"{name}: total (incl. source queue)")
        ax_t.plot(x, [r["accepted_load"] for r in rows], "-", color=c, marker="o", ms=4, label=name)
        nd = [r for r in rows if not r["drained"]]
        if nd:
            ax_l.plot([r["offered_load"] for r in nd if r["lat_avg"] > 0], [r["lat_avg"] for r in nd if r["lat_avg"] > 0],
                      "x", color="k", ms=7)
            ax_t.plot([r["offered_load"] for r in nd], [r["accepted_load"] for r in nd], "x", color="k", ms=7)
        s = next(s for s in summaries if s["config"] == name)
        ax_t.axhline(s["saturation_throughput"], color=c, ls=":", lw=1)
    if any(not r["drained"] for rows in by_config.values() for r in rows):
        ax_t.plot([], [], "x", color="k", label="not drained")
        ax_l.plot([], [], "x", color="k", label="not drained")
    xmax = max(r["offered_load"] for rows in by_config.values() for r in rows)
    ax_t.plot([0, xmax], [0, xmax], color="0.6", lw=1, label="accepted = offered")
    if use_log:
        ax_l.set_yscale("log")
        ticks = [t * 10 ** e for e in range(0, 7) for t in (1, 2, 5)]
        ax_l.set_yticks([t for t in ticks if lat_min * 0.8 <= t <= lat_max])
        ax_l.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax_l.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax_l.set_ylim(lat_min * 0.8 if use_log else 0, lat_max)
    ax_l.set_xlim(0, xmax * 1.02)
    ax_t.set_xlim(0, xmax * 1.02)
    ax_t.set_ylim(0, xmax * 1.05)
    ax_l.set_xlabel("offered load (flits/node/cycle)")
    ax_l.set_ylabel("average latency (cycles)" + (", log scale" if use_log else ""))
    ax_l.set_title(f"Latency, {args.pattern} traffic (cut at {lat_max:g} cycles)")
    ax_t.set_xlabel("offered load (flits/node/cycle)")
    ax_t.set_ylabel("accepted load (flits/node/cycle)")
    ax_t.set_title("Throughput (dotted: saturation = max accepted)")
    for ax in (ax_l, ax_t):
        ax.grid(True, which="both", alpha=0.3)
    ax_l.legend(fontsize=8, loc="lower right")
    ax_t.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fmt_opt(x):
    return "n/a" if x is None else f"{x:,.0f}"


def write_summary_md(path, summaries, by_config, args, command, total_seconds):
    lines = [
        "# rlroute load sweep",
        "",
        f"Command: `{command}`",
        "",
        f"Pattern: {args.pattern}. Total time: {total_seconds:.1f} s.",
        "",
        "Definitions: zero-load latency = average network latency (head injected to tail ejected) "
        "at the lowest offered load; saturation throughput = maximum accepted load over the sweep; "
        f"latency knee = lowest offered load whose average total latency (source queueing included) "
        f"exceeds {KNEE_FACTOR:g}x the total latency at the lowest load; simulator speed = median "
        "router-cycles per second over the sweep (wall clock of the simulation loop, as rlroute reports it); "
        "CPU speed = median of simulated router-cycles per CPU second of the whole rlroute process "
        "(start-up included; not lowered by other load on the machine). "
        "Loads in flits/node/cycle, latencies in cycles.",
        "",
        "| config | zero-load latency (at load) | model H(2+L)+Lp+2 | avg hops | saturation throughput (at offered) | latency knee | speed, router-cycles/s (min-max) | CPU speed, router-cycles/CPU-s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s in summaries:
        knee = fmt_load(s["latency_knee_offered"]) if s["latency_knee_offered"] is not None else "none"
        lines.append(
            f"| {s['config']} | {s['zero_load_latency']:.2f} ({fmt_load(s['zero_load_offered'])}) "
            f"| {fmt_model(s['zero_load_model'])} | {s['zero_load_avg_hops']:.3f} "
            f"| {s['saturation_throughput']:.4f} ({fmt_load(s['saturation_throughput_at_offered'])}) "
            f"| {knee} | {s['router_cycles_per_second_median']:,.0f} "
            f"({s['router_cycles_per_second_min']:,.0f}-{s['router_cycles_per_second_max']:,.0f}) "
            f"| {fmt_opt(s['cpu_router_cycles_per_second_median'])} |")
    for name, rows in by_config.items():
        lines += ["", f"## {name}", "",
                  "| offered | accepted | lat avg | p50 | p95 | p99 | max | total avg | hops | delivered | drained | router-cycles/s |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            lines.append(
                f"| {fmt_load(r['offered_load'])} | {r['accepted_load']:.4f} | {r['lat_avg']:.2f} | {r['lat_p50']:g} "
                f"| {r['lat_p95']:g} | {r['lat_p99']:g} | {r['lat_max']:g} | {r['total_lat_avg']:.1f} "
                f"| {r['avg_hops']:.3f} | {r['packets_delivered']} | {'yes' if r['drained'] else '**no**'} "
                f"| {r['router_cycles_per_second']:,.0f} |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Sweep offered load with `rlroute sim` and plot latency/throughput.",
        epilog="Loads: comma/space-separated numbers and start:stop:step ranges (stop included), "
               "e.g. 0.02,0.05:1.0:0.05. Definitions of the summary metrics: see the module docstring.")
    ap.add_argument("--rlroute", default="build/rlroute", help="rlroute binary (default: build/rlroute)")
    ap.add_argument("--configs", nargs="+", required=True, metavar="TOML", help="config files to sweep")
    ap.add_argument("--pattern", default="uniform", help="traffic pattern (default: uniform)")
    ap.add_argument("--loads", default="0.02,0.05:1.0:0.05",
                    help="offered loads, flits/node/cycle (default: 0.02,0.05:1.0:0.05)")
    ap.add_argument("--cycles", type=int, help="measurement cycles (default: the config's [sim] cycles)")
    ap.add_argument("--warmup", type=int, help="warmup cycles (default: the config's [sim] warmup)")
    ap.add_argument("--drain", type=int, help="drain cap in cycles (default: the config's)")
    ap.add_argument("--seed", type=int, help="traffic seed (default: the config's)")
    ap.add_argument("--packet-flits", type=int, help="fixed packet size (default: the config's)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="rlroute processes at once (default 1; more is faster but perturbs the speed numbers)")
    ap.add_argument("--lat-max", type=float, help="latency axis cut, cycles (default: 10x the largest zero-load latency)")
    ap.add_argument("--log-y", choices=("auto", "on", "off"), default="auto",
                    help="log latency axis (auto: when the plotted range spans more than 8x)")
    ap.add_argument("--out", default="out/sweep", help="output directory (default: out/sweep)")
    ap.add_argument("--replot", action="store_true",
                    help="do not run rlroute: rebuild CSV, plot and summaries from OUT/runs/*.json of an earlier sweep")
    args = ap.parse_args(argv)

    try:
        loads = parse_loads(args.loads)
        rlroute = None if args.replot else find_rlroute(args.rlroute)
        for c in args.configs:
            if not os.path.isfile(c):
                raise SweepError(f"config not found: {c}")
        runs_dir = os.path.join(args.out, "runs")
        os.makedirs(runs_dir, exist_ok=True)
        command = shlex.join(["/usr/bin/python3", "sim/sweep.py"] + list(sys.argv[1:] if argv is None else argv))
        print(f"sweeping {len(args.configs)} config(s) x {len(loads)} loads: {', '.join(fmt_load(x) for x in loads)}",
              flush=True)
        t0 = time.monotonic()
        args.progress = None if args.replot else Progress(len(args.configs) * len(loads))
        by_config, summaries, all_rows = {}, [], []
        for c, (rows, secs) in zip(args.configs, sweep_all(args, rlroute, args.configs, loads, runs_dir)):
            cfg = read_config(c)
            name = rows[0]["config"]
            if name in by_config:
                raise SweepError(f"two configs have the design name {name!r}")
            by_config[name] = rows
            all_rows += rows
            s = summarize(rows, cfg, args, secs)
            s["config_file"] = c
            s["router"] = {k: cfg[k] for k in ("vcs", "buffer_flits", "flit_bits")}
            summaries.append(s)
        total = time.monotonic() - t0
        if args.replot:
            # keep the timings of the sweep that produced the runs
            try:
                with open(os.path.join(args.out, "summary.json")) as f:
                    prev = json.load(f)
                total = prev["total_seconds"]
                secs_of = {c["config"]: c["sweep_seconds"] for c in prev["configs"]}
                for s in summaries:
                    s["sweep_seconds"] = secs_of.get(s["config"], s["sweep_seconds"])
            except (OSError, ValueError, KeyError):
                pass
    except SweepError as e:
        print(f"sweep.py: error: {e}", file=sys.stderr)
        return 1

    csv_path = os.path.join(args.out, "sweep.csv")
    png_path = os.path.join(args.out, "sweep.png")
    write_csv(csv_path, all_rows)
    plot(png_path, by_config, summaries, args)
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump({"command": command, "pattern": args.pattern, "cycles": args.cycles, "warmup": args.warmup,
                   "loads": loads, "total_seconds": total,
                   "definitions": {
                       "zero_load_latency": "average network latency (head injected -> tail ejected) at the lowest offered load",
                       "saturation_throughput": "maximum accepted load over the sweep, flits/node/cycle",
                       "latency_knee_offered": f"lowest offered load whose average total latency exceeds {KNEE_FACTOR:g}x the total latency at the lowest load",
                       "router_cycles_per_second_median": "median over the sweep of simulated cycles x routers / wall seconds of the simulation loop (rlroute's router_cycles_per_second)",
                       "cpu_router_cycles_per_second_median": "median over the sweep of simulated cycles x routers / CPU seconds (user+sys) of the whole rlroute process",
                   },
                   "configs": summaries}, f, indent=2)
        f.write("\n")
    write_summary_md(os.path.join(args.out, "summary.md"), summaries, by_config, args, command, total)

    print()
    for s in summaries:
        knee = fmt_load(s["latency_knee_offered"]) if s["latency_knee_offered"] is not None else "none in sweep"
        print(f"{s['config']} ({s['pattern']}):")
        print(f"  zero-load latency     {s['zero_load_latency']:.2f} cycles at load {fmt_load(s['zero_load_offered'])}"
              f" (model {s['zero_load_model_formula']} = {fmt_model(s['zero_load_model'])})")
        print(f"  saturation throughput {s['saturation_throughput']:.4f} flits/node/cycle (max accepted, at offered "
              f"{fmt_load(s['saturation_throughput_at_offered'])}); latency knee (total > {KNEE_FACTOR:g}x) at {knee}")
        print(f"  simulator speed       {s['router_cycles_per_second_median']:,.0f} router-cycles/s (median; "
              f"{fmt_opt(s['cpu_router_cycles_per_second_median'])} per CPU second)")
        if s["not_drained_loads"]:
            print(f"  not drained at        {', '.join(fmt_load(x) for x in s['not_drained_loads'])}")
    print(f"\nwrote {csv_path}, {png_path}, {os.path.join(args.out, 'summary.json')}, "
          f"{os.path.join(args.out, 'summary.md')} ({total:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
