#!/usr/bin/python3
"""Every reference to a part of the docs, written as `docs/NAME.md, "Title"`
in any tracked file (code comments, scripts, docs), names a heading or a bold
paragraph title of that file: a reader who follows it finds the place.
usage: check_references.py SOURCE_DIR [--broken]  (--broken: also check that
a reference to a title that does not exist is found)."""
import os
import re
import subprocess
import sys

REFERENCE = re.compile(r'(docs/[a-z_]+\.md),\s*\\?"((?:[^"\\]|\\.)+?)\\?"')


def titles_of(path):
    """Headings and bold paragraph titles ("**Title.**", "- **Title**")."""
    found = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#"):
            found.append(re.sub(r"^#+\s*", "", line).strip())
        found += re.findall(r"^\s*(?:[-*]|\d+\.)?\s*\*\*(.+?)\*\*", line)
    return found


def dangling(root, files):
    docs = {f: titles_of(os.path.join(root, f)) for f in files if f.startswith("docs/") and f.endswith(".md")}
    out = []
    for f in files:
        path = os.path.join(root, f)
        if f.startswith("tests/golden/") or not os.path.isfile(path):
            continue
        try:
            text = open(path, encoding="utf-8").read()
        except UnicodeDecodeError:
            continue
        # A reference may run over comment lines: join them.
        flat = re.sub(r"\n\s*(?://|#|\*|--)?\s*", " ", text)
        for m in REFERENCE.finditer(flat):
            doc, title = m.group(1), re.sub(r"\s+", " ", m.group(2).replace('\\"', '"')).strip()
            if doc not in docs:
                out.append(f"{f}: {doc} does not exist")
            elif not any(title.lower() in t.lower() for t in docs[doc]):
                out.append(f'{f}: {doc}, "{title}": no such heading or paragraph title')
    return out


def main():
    root = sys.argv[1]
    files = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True, check=True).stdout.split()
    bad = dangling(root, files)
    for b in bad:
        print(b)
    status = 1 if bad else 0
    if "--broken" in sys.argv:  # the check itself, broken on purpose: it must find a made-up title
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "docs"))
            open(os.path.join(tmp, "docs", "a.md"), "w").write("# A\n\n## Real title\n")
            doc = "docs/" + "a.md"  # in pieces: this file is checked too
            open(os.path.join(tmp, "x.cpp"), "w").write(f'// see {doc}, "Real title" and {doc},\n// "Made-up title"\n')
            found = dangling(tmp, [doc, "x.cpp"])
            if found != [f'x.cpp: {doc}, "Made-up title": no such heading or paragraph title']:
                print(f"the check did not find the made-up title: {found}")
                status = 1
    print("ok" if status == 0 else "FAIL")
    return status


if __name__ == "__main__":
    sys.exit(main())
