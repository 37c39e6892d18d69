#!/usr/bin/env bash
# Checks of sim/fingerprint.py (every example's results on a fixed seed, for
# refactorings that must not change any result): a row per run and load with
# the results that must not move, the same CSV from a second run (the runs
# are deterministic), a changed result seen by diff, an existing --out never
# replaced, and a failing run reported.
# usage: test_fingerprint.sh RLROUTE SOURCE_DIR WORKDIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: test_fingerprint.sh RLROUTE SOURCE_DIR WORKDIR" >&2; exit 2; }  # a missing WORKDIR must not become /
rlroute=$(realpath "$1") src=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
fingerprint() {
  /usr/bin/python3 "$src/sim/fingerprint.py" --rlroute "$rlroute" --fabrics harness --loads 0.1,0.3 \
    --cycles 300 --warmup 100 "$@" 2> "$work/err.txt"
}
ex="$src/examples/torus4x4_dor.toml"

check "writes the CSV" fingerprint --out "$work/a.csv" "$ex"
check "a header and a row per load" test "$(wc -l < "$work/a.csv")" -eq 3
check "the row names the config, fabric and load" grep -q '^torus4x4_dor,harness,0.1,' "$work/a.csv"
check "the results that must not move are columns" \
  grep -q '^config,fabric,offered_load,accepted_load,packets_injected,packets_delivered,.*latency.avg.*avg_hops' "$work/a.csv"
check "a second run gives the same CSV" fingerprint --out "$work/b.csv" "$ex"
check "the two are identical" diff -q "$work/a.csv" "$work/b.csv"
check "another seed changes the results, and diff sees it" fingerprint --seed 2 --out "$work/c.csv" "$ex"
check "... the CSVs differ" bash -c "! diff -q '$work/a.csv' '$work/c.csv' > /dev/null"
check "an existing --out is refused" bash -c "! /usr/bin/python3 '$src/sim/fingerprint.py' --rlroute '$rlroute' --out '$work/a.csv' '$ex' 2> '$work/err2.txt'"
check "... saying why" grep -q "exists; rlroute writes only new files" "$work/err2.txt"
check "... and the file is untouched" diff -q "$work/a.csv" "$work/b.csv"
printf '[topology]\nkind = "torus"\ndims = [4, 4]\n[router]\nvcs = 0\n' > "$work/bad.toml"
check "a run that fails stops it" bash -c "! /usr/bin/python3 '$src/sim/fingerprint.py' --rlroute '$rlroute' --fabrics harness --out '$work/d.csv' '$work/bad.toml' 2> '$work/err3.txt'"
check "... naming the config and the fabric" grep -q "bad.toml on the harness fabric: rlroute sim exited" "$work/err3.txt"
check "... and writing no CSV" test ! -e "$work/d.csv"
finish
