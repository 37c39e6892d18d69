#!/usr/bin/env bash
# The project speaks of itself only: no words of how it was made (numbered
# work steps, tracker numbers, sessions) and no source paper called by its
# file number, in any tracked file (docs, code, comments, file names). Its
# history is in git. The check is also run on a file with such a word, which
# it must find.
# usage: test_project_words.sh SOURCE_DIR
set -uo pipefail
src=$(realpath "$1")
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
# Built from pieces so that this file does not match itself.
words="st""op [0-9]|st""ops [0-9]|\bses""sion\b|iss""ue [0-9]|iss""ue's"
papers="\b00[0234]'s\b|\(00[0234][,)]|\b00[0234] (section|chapter|table|Table|Algorithm)"
found() {  # found DIR: the tracked files and names with a word that does not belong
  (cd "$1" && git grep -nIiE "$words|$papers" -- . ':!tests/golden'; git ls-files | grep -iE "_st""op[0-9]|_00[0234]([._]|$)")
}
if ! git -C "$src" rev-parse --git-dir > /dev/null 2>&1; then
  echo "FAIL: $src is not a git checkout"; exit 1
fi
hits=$(found "$src")
check "no process words or paper file numbers in the tracked files" test -z "$hits"
[ -n "$hits" ] && echo "$hits" | head -20
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
git -C "$tmp" init -q && printf 'measured at st%s 12\n' op > "$tmp/notes.md" && git -C "$tmp" add notes.md
check "the check finds such a word when there is one" test -n "$(found "$tmp")"
finish
