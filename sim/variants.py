#!/usr/bin/python3
"""Write variants of rlroute configs with some keys set (for sweeps).

Each input config is copied to OUT/<stem>_<suffix>.toml with every
`--set section.key=value` applied (an existing key in that section is
replaced, a missing one is added right after the section's header) and
`design.name` suffixed, so each variant has its own name, model and rows in
the sweep tables. The values are TOML as written (strings need their quotes).

    /usr/bin/python3 sim/variants.py --suffix s2 --out out/configs/s2 \\
        --set router.speedup=2 --set router.output_buffer_flits=32 examples/dfly_2_4_2_9_*.toml

It refuses to overwrite a file it did not write (one without its header line).
"""
import argparse
import os
import re
import sys
import tomllib

HEADER = "# Written by sim/variants.py from {source} with: {sets}\n"


def apply(text, section, key, value):
    """Returns text with `key = value` set in [section]."""
    lines = text.splitlines(keepends=True)
    header = re.compile(r"^\s*\[\s*" + re.escape(section) + r"\s*\]\s*(#.*)?$")
    key_line = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
    start = next((i for i, line in enumerate(lines) if header.match(line)), None)
    if start is None:
        return text.rstrip("\n") + f"\n\n[{section}]\n{key} = {value}\n"
    end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
    for i in range(start + 1, end):
        if key_line.match(lines[i]):
            lines[i] = f"{key} = {value}\n"
            return "".join(lines)
    lines.insert(start + 1, f"{key} = {value}\n")
    return "".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("configs", nargs="+", help="TOML configs to copy")
    ap.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                    help="a key to set (repeatable), e.g. router.speedup=2")
    ap.add_argument("--suffix", required=True, help="appended to the file stem and to design.name")
    ap.add_argument("--out", required=True, help="output folder")
    args = ap.parse_args()

    sets = []
    for item in args.set:
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)=(.+)", item)
        if not m:
            sys.exit(f"variants: --set {item}: must be SECTION.KEY=VALUE (e.g. router.speedup=2)")
        try:
            tomllib.loads(f"v = {m.group(3)}")
        except tomllib.TOMLDecodeError as e:
            sys.exit(f"variants: --set {item}: the value is not TOML ({e}); strings need quotes")
        sets.append(m.groups())
    if not re.fullmatch(r"[A-Za-z0-9_]+", args.suffix):
        sys.exit(f"variants: --suffix {args.suffix}: letters, digits and _ only")

    outputs = []
    for path in args.configs:
        try:
            with open(path) as f:
                text = f.read()
            name = tomllib.loads(text)["design"]["name"]
        except (OSError, tomllib.TOMLDecodeError, KeyError) as e:
            sys.exit(f"variants: {path}: {e}")
        for section, key, value in sets:
            text = apply(text, section, key, value)
        text = apply(text, "design", "name", f'"{name}_{args.suffix}"')
        stem = os.path.splitext(os.path.basename(path))[0]
        out = os.path.join(args.out, f"{stem}_{args.suffix}.toml")
        header = HEADER.format(source=path, sets=" ".join(args.set) or "(nothing)")
        outputs.append((out, header + text))

    os.makedirs(args.out, exist_ok=True)
    for out, _ in outputs:
        if os.path.exists(out):
            with open(out) as f:
                if not f.readline().startswith("# Written by sim/variants.py"):
                    sys.exit(f"variants: {out}: exists and was not written by sim/variants.py; not replacing it")
    for out, text in outputs:
        with open(out, "w") as f:
            f.write(text)
        print(out)


if __name__ == "__main__":
    main()
