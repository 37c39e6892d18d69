#!/usr/bin/python3
"""What Q-adaptive's intermediate routers estimate under ADV+i (docs/q_adaptive.md).

Under `--pattern adv+I` group G sends to group G + I. A packet that the
source router sends through an intermediate group k lands on the router of k
that holds k's global link to G (the landing router). Unless that router also
holds k's link to G + I, it compares its minimal port (the local port to the
router that does) with a random local port: it detours when
(Q_min - Q_random) >= q_thld2 x Q_min ([Kang 2021]; ref/src/q_decision.cpp).

Reads the run's table dump (`rlroute sim --q-dump FILE`) and its per-link CSV
(`--links FILE`, for the topology and the loads) and prints, for the landing
routers' rows of the destination groups ADV+I gives them, against every other
intermediate row: Q_min, the mean of the other local columns, the relative
difference (Q_min - Q_c) / Q_min over those columns, the share of local
columns with which the router would detour (the detour probability of the
rule with a uniform random local port), and the utilisation of the minimal
local link and of the others, and each estimate less the next router's own estimate (the
minimum of the same row there): the part that is the hop itself, the wait
in this router's input buffer included. With `--initial` (the same network's tables before any
feedback: `rlroute sim ... --q-dump FILE --q-dump-cycle 0`), also each
estimate's rise over its initial value: what the packets met on the way;
and the relative difference once the other local hops' rise (their estimate
less the next router's, over the same at the start) is taken from both
estimates: the rule's quantity if the wait that the detour's estimate
carries were charged to the minimal port alone (Q_min - W, at least its
zero-load value), and the detour probability with it.

    /usr/bin/python3 sim/q_landing.py out/q.txt out/links.csv --shift 4 [--thld2 0.35] [--initial out/q0.txt]
"""
import argparse
import csv
import re
import statistics
import sys

HEADER = re.compile(r"# Q-table of router (\d+) .*\(network ports (\d+)\.\.(\d+)\)")
ROW = re.compile(r"row\s+(\d+) \(group\s*(\d+), node (\d+)\):(.*)")
NAME = re.compile(r"R\d+\(g(\d+)\.r\d+\)")


def read_links(path):
    rows = list(csv.DictReader(open(path, newline="")))
    if not rows:
        sys.exit(f"q_landing: {path} has no links")
    load = rows[0]["offered_load"]
    group, to, cls, util = {}, {}, {}, {}
    for r in rows:
        if r["offered_load"] != load:
            continue
        m = NAME.match(r["router_name"])
        if not m:
            sys.exit(f"q_landing: {path}: {r['router_name']!r} is not a dragonfly router name")
        key = (int(r["router"]), int(r["port"]))
        group[key[0]] = int(m.group(1))
        to[key], cls[key], util[key] = int(r["to_router"]), r["class"], float(r["utilisation"])
    return group, to, cls, util


def read_tables(path):
    tables, router, ports = {}, None, None
    for line in open(path):
        h = HEADER.match(line)
        if h:
            router, ports = int(h.group(1)), list(range(int(h.group(2)), int(h.group(3)) + 1))
            tables[router] = (ports, [])
            continue
        m = ROW.match(line)
        if m and router is not None:
            values = [float(v) for v in m.group(4).split()]
            if len(values) != len(ports):
                sys.exit(f"q_landing: {path}: router {router} row {m.group(1)}: {len(values)} values, {len(ports)} ports")
            tables[router][1].append((int(m.group(2)), values))
    if not tables:
        sys.exit(f"q_landing: {path} has no Q-table (the output of rlroute sim --q-dump)")
    return tables


COLUMNS = ("Q_min", "mean Q other local", "(Q_min - Q_c) / Q_min", "detour probability",
           "minimal local link utilisation", "other local links' utilisation", "Q_min - Q_y (minimal hop)", "Q_c - Q_y (other local hops)",
           "Q_min's rise", "other local's mean rise", "W: other local hops' rise",
           "(Q_min - Q_c) / (Q_min - W)", "detour probability without W")


def describe(label, samples):
    if not samples:
        print(f"{label}: none")
        return
    col = list(zip(*samples))
    print(f"{label}: {len(samples)} rows")
    for name, v in zip(COLUMNS, col):
        q = statistics.quantiles(v, n=10) if len(v) > 1 else [v[0]] * 9
        print(f"  {name:32} mean {statistics.mean(v):8.3f}  p10 {q[0]:8.3f}  median {statistics.median(v):8.3f}"
              f"  p90 {q[8]:8.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("q_dump", help="the table dump of rlroute sim --q-dump")
    ap.add_argument("links", help="the same run's CSV of rlroute sim --links")
    ap.add_argument("--shift", type=int, required=True, help="I of the run's adv+I pattern")
    ap.add_argument("--thld2", type=float, default=0.35, help="the run's routing.q_thld2 (default 0.35)")
    ap.add_argument("--initial", metavar="DUMP", help="the tables before any feedback (--q-dump-cycle 0): rises over them")
    a = ap.parse_args()

    group, to, cls, util = read_links(a.links)
    tables = read_tables(a.q_dump)
    initial = read_tables(a.initial) if a.initial else None
    if initial is not None and {r: (p, [g for g, _ in rows]) for r, (p, rows) in initial.items()} != \
            {r: (p, [g for g, _ in rows]) for r, (p, rows) in tables.items()}:
        sys.exit(f"q_landing: --initial {a.initial}: not the tables of the same network as {a.q_dump}")
    groups = max(group.values()) + 1
    if a.shift % groups == 0:
        sys.exit(f"q_landing: --shift {a.shift} sends every group to itself ({groups} groups)")
    holder = {}  # (group k, group T) -> the router of k with the global link to T
    for (r, p), c in cls.items():
        if c == "global" and holder.setdefault((group[r], group[to[(r, p)]]), r) != r:
            sys.exit(f"q_landing: {a.links}: groups {group[r]} and {group[to[(r, p)]]} have more than one "
                     "global link; this reading assumes one per pair of groups")
    landing, other = [], []
    for router, (ports, rows) in sorted(tables.items()):
        k = group[router]
        local = [i for i, p in enumerate(ports) if cls.get((router, p)) == "local"]
        for n, (dst, values) in enumerate(rows):
            src = (dst - a.shift) % groups
            if k in (dst, src) or holder.get((k, dst)) == router:
                continue  # not an intermediate row, or minimal by the direct link
            target = holder[(k, dst)]
            minimal = next(i for i in local if to[(router, ports[i])] == target)
            others = [i for i in local if i != minimal]
            q_min = values[minimal]
            dv = [(q_min - values[i]) / q_min for i in others]
            sample = (q_min, statistics.mean(values[i] for i in others), statistics.mean(dv),
                      sum(d >= a.thld2 for d in dv) / len(local), util[(router, ports[minimal])],
                      statistics.mean(util[(router, ports[i])] for i in others),
                      q_min - min(tables[target][1][n][1]),
                      statistics.mean(values[i] - min(tables[to[(router, ports[i])]][1][n][1]) for i in others))
            if initial is not None:
                start = initial[router][1][n][1]
                hop_rise = statistics.mean(
                    (values[i] - min(tables[to[(router, ports[i])]][1][n][1]))
                    - (start[i] - min(initial[to[(router, ports[i])]][1][n][1])) for i in others)
                # an estimate less the wait is still at least the zero-load time
                without_w = max(q_min - hop_rise, start[minimal])
                dv_w = [(q_min - values[i]) / without_w for i in others]
                sample += (q_min - start[minimal], statistics.mean(values[i] - start[i] for i in others), hop_rise,
                           statistics.median(dv_w), sum(d >= a.thld2 for d in dv_w) / len(local))
            (landing if holder.get((k, src)) == router else other).append(sample)
    print(f"{a.q_dump}: adv+{a.shift}, {groups} groups, q_thld2 {a.thld2}")
    describe("landing routers (they hold the link from the source group)", landing)
    describe("other intermediate rows", other)


if __name__ == "__main__":
    main()
