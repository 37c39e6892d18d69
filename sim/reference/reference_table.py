"""What the reference simulators' runners share: the offered loads of the
command line, and the table each writes after every run."""
import csv
import os


def parse_loads(ap, text):
    """--loads: comma-separated offered loads in (0, 1]."""
    try:
        loads = [float(x) for x in text.split(",")]
    except ValueError:
        ap.error(f"--loads {text}: not a comma-separated list of numbers")
    if any(not 0 < x <= 1 for x in loads):
        ap.error(f"--loads {text}: every load must be in (0, 1]")
    return loads


def write_csv(path, rows, fields):
    """The table, replaced whole (a stopped sweep keeps the rows so far)."""
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fields, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    os.replace(path + ".tmp", path)
