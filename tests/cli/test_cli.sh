#!/usr/bin/env bash
# End-to-end checks of the rlroute command line: help, version, gen, bad
# configs (one-line error naming file:line:column, key, value and rule; exit
# non-zero; output directory untouched), and sim with --json.
# usage: test_cli.sh RLROUTE EXAMPLES_DIR WORKDIR
set -uo pipefail
rlroute=$1 examples=$2 work=$3
rm -rf "$work"; mkdir -p "$work"
fails=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then echo "ok: $name"; else echo "FAIL: $name"; fails=$((fails + 1)); fi
}

"$rlroute" --version > "$work/version.txt"
check "--version prints the version" grep -q '^rlroute [0-9]' "$work/version.txt"
"$rlroute" --help > "$work/help.txt"
check "--help lists gen and sim" grep -q 'sim' "$work/help.txt"

"$rlroute" gen "$examples/torus4x4_dor.toml" -o "$work/a" > /dev/null
"$rlroute" gen "$examples/torus4x4_dor.toml" -o "$work/b" > /dev/null
check "gen is byte-identical across runs" diff -r "$work/a" "$work/b"
check "gen writes a filelist and a manifest" test -f "$work/a/torus4x4_dor.f" -a -f "$work/a/manifest.json"

# A bad config must leave an existing output directory as it was.
cp -r "$work/a" "$work/keep"
bad() {  # bad NAME TOML EXPECTED_REGEX
  printf '%s\n' "$2" > "$work/bad.toml"
  "$rlroute" gen "$work/bad.toml" -o "$work/a" 2> "$work/err.txt" > /dev/null
  local rc=$?
  check "$1: exits non-zero" test $rc -ne 0
  check "$1: one line" test "$(wc -l < "$work/err.txt")" -eq 1
  check "$1: message" grep -qE "$3" "$work/err.txt"
  check "$1: output untouched" diff -r "$work/a" "$work/keep"
}
bad "unknown key" $'[topology]\nkind = "torus"\ndims = [4, 4]\n[router]\nvc = 2' 'bad\.toml:5:1: router\.vc = 2: unknown key'
bad "dimension of 1" $'[topology]\nkind = "torus"\ndims = [4, 1]' 'bad\.toml:3:1: topology\.dims = \[4, 1\]: every dimension must be at least 2'
bad "too few VCs" $'[topology]\nkind = "torus"\ndims = [4, 4]\n[router]\nvcs = 1' 'bad\.toml:5:1: router\.vcs = 1: too few VCs for dor .* channel dependency cycle R0\(0,0\)'
bad "VCT buffer" $'[topology]\nkind = "mesh"\ndims = [4, 4]\n[router]\nbuffer_flits = 3\nmax_packet_flits = 4' 'router\.buffer_flits = 3: virtual cut-through'

# A VC buffer below a link's credit round trip is a warning, not an error.
sed 's/^buffer_flits = .*/buffer_flits = 8/' "$examples/dfly_2_4_2_9_min.toml" > "$work/warn.toml"
"$rlroute" gen "$work/warn.toml" -o "$work/warn" > /dev/null 2> "$work/warn.txt"
check "buffer below the credit round trip: gen still succeeds" test $? -eq 0
check "buffer below the credit round trip: one warning line" grep -qE \
  '^rlroute: warning: .*warn\.toml:[0-9]+:1: router\.buffer_flits = 8: smaller than the credit round trip of a global link' "$work/warn.txt"

"$rlroute" sim "$examples/torus4x4_dor.toml" --load 0.1 --cycles 500 --warmup 100 --quiet --json "$work/r.json"
check "sim exits 0" test $? -eq 0
for key in offered_load accepted_load packets_injected packets_delivered packets_lost packets_corrupted deadlock \
    latency total_latency avg_hops cycles router_cycles_per_second p50 p95 p99; do
  check "sim JSON has $key" grep -q "\"$key\"" "$work/r.json"
done
"$rlroute" sim "$examples/torus4x4_dor.toml" --pattern nosuch --quiet 2> "$work/err.txt"
check "unknown pattern is an error" grep -q 'unknown traffic pattern "nosuch"' "$work/err.txt"

# --trace: an FST waveform of the network top for cycles 100..200 (10 time
# units per cycle; the FST header holds the first and last dumped time).
cat > "$work/mesh2x2.toml" <<'EOF'
[design]
name = "mesh2x2"
[topology]
kind = "mesh"
dims = [2, 2]
EOF
"$rlroute" sim "$work/mesh2x2.toml" --load 0.2 --cycles 300 --warmup 50 --quiet \
  --trace "$work/w.fst" --trace-from 100 --trace-to 200
check "sim --trace exits 0" test $? -eq 0
fst_times() { od -An -tu1 -N25 "$1" | tr -s ' \n' ' ' | awk '{
  if ($1 != 0) { print "not-fst"; exit }
  s = 0; e = 0; for (i = 10; i <= 17; i++) s = s * 256 + $i; for (i = 18; i <= 25; i++) e = e * 256 + $i
  print s, e }'; }
check "--trace writes an FST file covering cycles 100..200" test "$(fst_times "$work/w.fst")" = "1000 2005"
"$rlroute" sim "$work/mesh2x2.toml" --quiet --trace "$work/x.fst" --trace-from 50 --trace-to 10 2> "$work/err.txt"
check "--trace-to before --trace-from is an error" grep -q 'trace-to must not be before --trace-from' "$work/err.txt"

echo "$fails failed"
test $fails -eq 0
