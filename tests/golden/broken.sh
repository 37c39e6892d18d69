#!/usr/bin/env bash
# The golden-file check breaks on purpose: with one line of one example's
# emitted router changed in a copy of the golden files, `golden.sh check`
# must fail and name that example.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rlroute=$1
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
cp -r "$here"/*/ "$copy/"
sed -i '0,/assign/s/assign/assign \/* edited *\//' "$copy/dfly_2_4_2_9_ugal_le/dfly_2_4_2_9_ugal_le_router.sv"
if out=$("$here/golden.sh" check "$rlroute" "$copy" 2>&1); then
  echo "FAIL: the check passed on an edited golden file"; echo "$out"; exit 1
fi
grep -q "dfly_2_4_2_9_ugal_le: the emitted files differ" <<< "$out" || { echo "FAIL: the wrong example named"; echo "$out"; exit 1; }
grep -q "torus4x4_dor: identical" <<< "$out" || { echo "FAIL: an unedited example reported"; echo "$out"; exit 1; }
echo "ok: the check fails on the edited example alone"
