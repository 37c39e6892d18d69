#!/usr/bin/python3
"""Where a dragonfly's links are loaded under ADV+i (docs/results.md).

Reads the per-link CSV of `rlroute sim --links FILE` of a dragonfly run under
`--pattern adv+I` (group G sends to group G + I) and groups the links by the
role ADV+i gives them:

- global links: the direct link of a group to its destination group (the
  minimal path of every packet of the group) against the others; how many
  are full (0.95 or more) and how many nearly idle (0.10 or less) says how
  evenly an algorithm spreads its non-minimal packets;
- local links: by how many source groups' packets cross the link when they
  go minimally through an intermediate group k, that is from the router of k
  that holds k's link to G to the router that holds k's link to G + I.
  Those links are ADV+h's hot spot (docs/results.md, "ADV+4"). A link
  may also carry its own group's packets as source or destination group
  (MIN under ADV+2 loads the links of one transit group that way).

Everything comes from the CSV: groups from the router names (`R5(g1.r1)`),
which router holds which global link from the global rows.

With `--sources RUN.json` (the same run's `rlroute sim --json`) it also
groups the sources by where their router sits in its group: its index minus
the index of the router that holds the group's direct link to the
destination group, modulo the group size (0: that router). Per position: the
mean, min and max over the groups of the router's accepted load per node
(`accepted_by_node`). Which sources ADV+i starves.

    /usr/bin/python3 sim/adv_link_loads.py out/links.csv --shift 2 [--sources out/run.json]
"""
import argparse
import csv
import json
import re
import statistics
import sys


def group_of(name):
    m = re.match(r"R\d+\(g(\d+)\.r\d+\)", name)
    if not m:
        raise SystemExit(f"adv_link_loads: {name!r} is not a dragonfly router name (R<n>(g<group>.r<index>))")
    return int(m.group(1))


def summary(values):
    if not values:
        return "none"
    return (f"{len(values)} links, mean {statistics.mean(values):.3f}, min {min(values):.3f}, "
            f"max {max(values):.3f}, at 0.95 or more: {sum(v >= 0.95 for v in values)}, "
            f"at 0.10 or less: {sum(v <= 0.10 for v in values)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("links", help="CSV of rlroute sim --links")
    ap.add_argument("--shift", type=int, required=True, help="I of the run's adv+I pattern")
    ap.add_argument("--load", type=float, help="the offered load to read (default: the first in the file)")
    ap.add_argument("--sources", metavar="RUN.json", help="the run's JSON: accepted load per source by its router's position")
    a = ap.parse_args()

    rows = list(csv.DictReader(open(a.links, newline="")))
    if not rows:
        sys.exit(f"adv_link_loads: {a.links} has no links")
    load = a.load if a.load is not None else float(rows[0]["offered_load"])
    rows = [r for r in rows if float(r["offered_load"]) == load]
    group = {}  # router -> group
    for r in rows:
        group[int(r["router"])] = group_of(r["router_name"])
    groups = max(group.values()) + 1
    if a.shift % groups == 0:
        sys.exit(f"adv_link_loads: --shift {a.shift} sends every group to itself ({groups} groups)")
    holder = {}  # (group k, group T) -> router of k with a global link to T
    for r in rows:
        if r["class"] == "global":
            holder[(group[int(r["router"])], group[int(r["to_router"])])] = int(r["router"])

    direct, other_global = [], []
    by_transit = {}  # source groups crossing the local link minimally in their intermediate group -> loads
    for r in rows:
        src, dst, u = int(r["router"]), int(r["to_router"]), float(r["utilisation"])
        k = group[src]
        if r["class"] == "global":
            (direct if group[dst] == (k + a.shift) % groups else other_global).append(u)
        elif r["class"] == "local":
            n = sum(1 for g in range(groups)
                    if k not in (g, (g + a.shift) % groups)
                    and holder.get((k, g)) == src and holder.get((k, (g + a.shift) % groups)) == dst)
            by_transit.setdefault(n, []).append(u)

    print(f"{a.links}, offered {load}, adv+{a.shift}, {groups} groups")
    print(f"global, direct to the destination group: {summary(direct)}")
    print(f"global, the others:                      {summary(other_global)}")
    for n in sorted(by_transit):
        print(f"local, on the minimal transit path of {n} source group(s): {summary(by_transit[n])}")
    if a.sources:
        print_sources(a.sources, load, a.shift, group, holder, groups)


def print_sources(path, load, shift, group, holder, groups):
    """Accepted load per node, by the source router's position from the router
    with its group's direct link to the destination group."""
    try:
        runs = json.load(open(path))
    except (OSError, ValueError) as e:
        sys.exit(f"adv_link_loads: --sources {path}: {e}")
    runs = runs if isinstance(runs, list) else [runs]
    run = next((r for r in runs if r.get("offered_load") == load), None)
    if run is None or not run.get("accepted_by_node"):
        sys.exit(f"adv_link_loads: --sources {path}: no result with accepted_by_node at offered load {load}")
    per_node = run["accepted_by_node"]
    routers = sorted(group)
    if len(per_node) % len(routers):
        sys.exit(f"adv_link_loads: --sources {path}: {len(per_node)} nodes on {len(routers)} routers")
    p = len(per_node) // len(routers)
    size = len(routers) // groups
    index = {r: i for g in range(groups) for i, r in enumerate(x for x in routers if group[x] == g)}
    by_position = {}
    for r in routers:
        g = group[r]
        direct = holder.get((g, (g + shift) % groups))
        if direct is None:
            continue
        position = (index[r] - index[direct]) % size
        by_position.setdefault(position, []).append(statistics.mean(per_node[r * p:(r + 1) * p]))
    print(f"sources by their router's position from the router with the direct link ({path}):")
    for k in sorted(by_position):
        v = by_position[k]
        print(f"  position {k}: {len(v)} routers, accepted per node mean {statistics.mean(v):.3f}, "
              f"min {min(v):.3f}, max {max(v):.3f}")


if __name__ == "__main__":
    main()
