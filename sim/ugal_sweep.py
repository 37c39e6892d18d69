#!/usr/bin/python3
"""UGAL parameter sweep: minimal share and accepted load of config variants.

Each variant is a base config with some keys replaced (`section.key=value`,
TOML values); every variant is written to OUT/configs/<label>.toml and run
once per pattern with `rlroute sim --load L1,L2,... --json`. One CSV row per
(variant, pattern, load): label, overrides, pattern, offered_load,
accepted_load, minimal_share, lat_avg, avg_hops, drained.

  /usr/bin/python3 sim/ugal_sweep.py --base examples/dfly_2_4_2_9_ugal_g.toml \\
      --variant b0:routing.ugal_bias=0 --variant b8:routing.ugal_bias=8 \\
      --pattern uniform --loads 0.3,0.45,0.6 --warmup 1000 --cycles 3000 --out out/bias

Variants that differ in an RTL parameter build one Verilator model each
(cached); link latencies are harness parameters and share a model.
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import tomllib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIELDS = ["label", "base", "overrides", "pattern", "offered_load", "accepted_load", "minimal_share", "lat_avg",
          "avg_hops", "drained"]


def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return repr(v)


def write_config(base, overrides, label, path):
    with open(base, "rb") as f:
        cfg = tomllib.load(f)
    cfg.setdefault("design", {})["name"] = label
    for item in overrides:
        key, _, value = item.partition("=")
        section, _, name = key.partition(".")
        if not section or not name or not value:
            raise SystemExit(f"bad override {item!r}: want section.key=value")
        cfg.setdefault(section, {})[name] = tomllib.loads(f"v = {value}")["v"]
    with open(path, "w") as f:
        for section, table in cfg.items():
            f.write(f"[{section}]\n")
            for k, v in table.items():
                f.write(f"{k} = {toml_value(v)}\n")
            f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rlroute", default=os.path.join(REPO, "build", "rlroute"))
    ap.add_argument("--base", required=True, action="append", help="base config (repeatable)")
    ap.add_argument("--variant", action="append", default=[],
                    help="LABEL:section.key=value[,section.key=value...] (repeatable; none = the base itself)")
    ap.add_argument("--pattern", action="append", required=True, help="traffic pattern (repeatable)")
    ap.add_argument("--loads", required=True)
    ap.add_argument("--warmup", type=int, default=1000)
    ap.add_argument("--cycles", type=int, default=3000)
    ap.add_argument("--drain", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    os.makedirs(os.path.join(args.out, "configs"), exist_ok=True)
    os.makedirs(os.path.join(args.out, "runs"), exist_ok=True)
    variants = [v.partition(":") for v in args.variant] or [("base", ":", "")]
    rows = []
    for base in args.base:
        stem = os.path.splitext(os.path.basename(base))[0]
        for label, _, spec in variants:
            overrides = [o for o in spec.split(",") if o]
            name = f"{stem}_{label}"
            cfg_path = os.path.join(args.out, "configs", name + ".toml")
            write_config(base, overrides, name, cfg_path)
            for pattern in args.pattern:
                out_json = os.path.join(args.out, "runs", f"{name}_{pattern.replace(':', '_')}.json")
                cmd = [args.rlroute, "sim", cfg_path, "--pattern", pattern, "--load", args.loads,
                       "--warmup", str(args.warmup), "--cycles", str(args.cycles), "--drain", str(args.drain),
                       "--seed", str(args.seed), "--quiet", "--json", out_json]
                print(" ".join(cmd), flush=True)
                subprocess.run(cmd, check=True)
                with open(out_json) as f:
                    results = json.load(f)
                if isinstance(results, dict):
                    results = [results]
                for r in results:
                    rows.append({
                        "label": name, "base": base, "overrides": ";".join(overrides), "pattern": pattern,
                        "offered_load": r["offered_load"], "accepted_load": round(r["accepted_load"], 4),
                        "minimal_share": round(r["minimal_share"], 4), "lat_avg": round(r["latency"]["avg"], 1),
                        "avg_hops": round(r["avg_hops"], 3), "drained": r.get("drained", True),
                    })
                    print(f"  {name} {pattern} load {r['offered_load']}: accepted {r['accepted_load']:.3f}, "
                          f"minimal_share {r['minimal_share']:.3f}, latency {r['latency']['avg']:.1f}", flush=True)
    with open(os.path.join(args.out, "ugal_sweep.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
    print(f"wrote {os.path.join(args.out, 'ugal_sweep.csv')}")


if __name__ == "__main__":
    sys.exit(main())
