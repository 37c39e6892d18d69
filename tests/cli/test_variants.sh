#!/usr/bin/env bash
# Checks of sim/variants.py (config variants for the benchmark sweeps): keys
# replaced in place or added to their section, design.name suffixed, the
# variant valid for rlroute, bad --set refused with a one-line error, and a
# file it did not write never replaced.
# usage: test_variants.sh RLROUTE SOURCE_DIR WORKDIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: test_variants.sh RLROUTE SOURCE_DIR WORKDIR" >&2; exit 2; }  # a missing WORKDIR must not become /
rlroute=$(realpath "$1") src=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
variants() { /usr/bin/python3 "$src/sim/variants.py" "$@"; }

variants --suffix s2 --out "$work/v" --set router.speedup=2 --set router.buffer_flits=32 \
  --set 'routing.decision="vc_head"' "$src/examples/dfly_2_4_2_9_ugal_g.toml" > "$work/list.txt"
v="$work/v/dfly_2_4_2_9_ugal_g_s2.toml"
check "prints the file it wrote" grep -qx "$v" "$work/list.txt"
check "a missing key is added to its section" \
  test "$(sed -n '/^\[router\]/,/^\[/p' "$v" | grep -c '^speedup = 2$')" -eq 1
check "an existing key is replaced, not repeated" \
  test "$(grep -c '^buffer_flits' "$v")" -eq 1 -a "$(grep -c '^buffer_flits = 32$' "$v")" -eq 1
check "string values keep their quotes" grep -q '^decision = "vc_head"$' "$v"
check "design.name is suffixed" grep -q '^name = "dfly_2_4_2_9_ugal_g_s2"$' "$v"
check "the variant is a valid config" "$rlroute" gen "$v" -o "$work/gen" > /dev/null
check "rlroute sees the new keys" grep -q '"speedup": 2' "$work/gen/manifest.json"

# Rerunning replaces its own files.
check "rerun replaces its own file" variants --suffix s2 --out "$work/v" --set router.speedup=1 \
  "$src/examples/dfly_2_4_2_9_ugal_g.toml"
check "rerun wrote the new value" grep -q '^speedup = 1$' "$v"

# Keys with digits (Q-adaptive's thresholds).
check "a key with a digit is accepted" variants --suffix t1 --out "$work/v" --set 'routing.algorithm="q_adaptive"' \
  --set router.vcs=5 --set routing.q_thld1=0.05 "$src/examples/dfly_2_4_2_9_ugal_g.toml"
check "and written" grep -q '^q_thld1 = 0.05$' "$work/v/dfly_2_4_2_9_ugal_g_t1.toml"

# Errors: one line, non-zero exit, nothing written.
err() {  # err NAME REGEX ARGS...
  local name=$1 regex=$2; shift 2
  variants "$@" > /dev/null 2> "$work/err.txt"
  local rc=$?
  check "$name: non-zero exit" test $rc -ne 0
  check "$name: one-line error" test "$(wc -l < "$work/err.txt")" -eq 1
  check "$name: names the problem" grep -qE -- "$regex" "$work/err.txt"
}
err "no dot in --set" "--set speedup=2: must be SECTION.KEY=VALUE" \
  --suffix x --out "$work/e1" --set speedup=2 "$src/examples/dfly_2_4_2_9_min.toml"
err "bare string value" "--set router.buffer_read=registered: the value is not TOML" \
  --suffix x --out "$work/e2" --set router.buffer_read=registered "$src/examples/dfly_2_4_2_9_min.toml"
err "bad suffix" "--suffix a-b: letters, digits and _ only" \
  --suffix a-b --out "$work/e3" "$src/examples/dfly_2_4_2_9_min.toml"
check "errors write nothing" test ! -e "$work/e1" -a ! -e "$work/e2" -a ! -e "$work/e3"
mkdir -p "$work/foreign"
echo 'precious = 1' > "$work/foreign/dfly_2_4_2_9_min_x.toml"
err "foreign file" "exists and was not written by sim/variants.py" \
  --suffix x --out "$work/foreign" "$src/examples/dfly_2_4_2_9_min.toml"
check "the foreign file is untouched" grep -qx 'precious = 1' "$work/foreign/dfly_2_4_2_9_min_x.toml"

finish
