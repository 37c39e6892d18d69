# Sourced by the shell tests of tests/cli: `check NAME CONDITION...` runs the
# condition, prints ok/FAIL and counts the failures in $fails; a test ends
# with `finish`, which prints the count and exits non-zero on any failure.
fails=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then echo "ok: $name"; else echo "FAIL: $name"; fails=$((fails + 1)); fi
}
finish() {
  echo "$fails failed"
  test "$fails" -eq 0
  exit
}

# refused_run NAME EXPECTED_REGEX ARGS...: `$rlroute ARGS...` must refuse at
# once (within 20 s, though the run asked for may take minutes) with one line
# matching ^rlroute: error: EXPECTED_REGEX, a non-zero exit, and nothing
# written into $work (no none*, nowhere, nodir, nor a temporary file).
refused_run() {
  local name=$1 re=$2; shift 2
  local start=$SECONDS
  timeout 120 "$rlroute" "$@" > /dev/null 2> "$work/err.txt"
  local rc=$?
  check "$name: exits non-zero" test $rc -ne 0 -a $rc -ne 124
  check "$name: one line" test "$(wc -l < "$work/err.txt")" -eq 1
  check "$name: message" grep -qE "^rlroute: error: $re" "$work/err.txt"
  grep -qE "^rlroute: error: $re" "$work/err.txt" || echo "  got: $(head -c 400 "$work/err.txt")"
  check "$name: fails at once" test $((SECONDS - start)) -lt 20
  check "$name: nothing written" test -z "$(find "$work" \( -name 'none*' -o -name '?*.rlroute-*' -o -name nowhere \
    -o -name nodir \) -print)"
}
