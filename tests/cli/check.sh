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
