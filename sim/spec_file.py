"""What sim/bench.py and sim/runs.py share: reading a table's spec (TOML, its
keys checked) and making the variants of a config that a spec's keys ask
for (through sim/variants.py)."""
import json
import os
import subprocess
import tomllib


class SpecError(Exception):
    pass


def read_toml(path, known, required):
    """The spec at `path`, with every key in `known` and the `required` ones there."""
    try:
        with open(path, "rb") as f:
            spec = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SpecError(f"{path}: {e}")
    for key in spec:
        if key not in known:
            raise SpecError(f"{path}: {key}: unknown key (known: {', '.join(sorted(known))})")
    for key in required:
        if key not in spec:
            raise SpecError(f"{path}: {key}: missing")
    return spec


def make_variants(configs, suffix, sets, out):
    """Writes each config with the keys `sets` ({"section.key": value}) to
    out/<stem>_<suffix>.toml (sim/variants.py) and returns those paths."""
    args = ["/usr/bin/python3", os.path.join(os.path.dirname(__file__), "variants.py"), "--suffix", suffix,
            "--out", out]
    for key, value in sets.items():
        args += ["--set", f"{key}={json.dumps(value) if isinstance(value, str) else value}"]
    r = subprocess.run(args + list(configs), capture_output=True, text=True)
    if r.returncode != 0:
        raise SpecError(f"sim/variants.py failed: {r.stderr.strip()}")
    return [os.path.join(out, f"{os.path.splitext(os.path.basename(c))[0]}_{suffix}.toml") for c in configs]
