#!/usr/bin/env bash
# rlroute report in a real browser: run JSONs of three seeds and two loads,
# series CSVs, a sweep-style CSV and a UGAL-LE dragonfly run (its series
# with the contention factors) become one HTML page;
# headless Chromium loads it: every plot must draw (the page's own check sets
# its title), no script error may reach the console, and the screenshot must
# not be blank. The checks are also run on broken copies of the page (a
# script error; a plot that does not draw), which they must reject.
# usage: test_report.sh RLROUTE EXAMPLES_DIR WORKDIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: test_report.sh RLROUTE EXAMPLES_DIR WORKDIR" >&2; exit 2; }  # a missing WORKDIR must not become /
rlroute=$(realpath "$1") examples=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
chromium=$(command -v chromium || true)
if [ -z "$chromium" ]; then echo "FAIL: chromium is not installed (scripts/setup.sh installs it)"; exit 1; fi

for seed in 1 2 3; do
  "$rlroute" sim "$examples/torus4x4_dor.toml" --load 0.1,0.4 --cycles 600 --warmup 100 --seed $seed --quiet \
    --json "$work/torus_$seed.json" --series "$work/torus_$seed.csv" --series-window 100
done
"$rlroute" sim "$examples/dfly_2_4_2_9_ugal_le.toml" --load 0.4 --cycles 1200 --warmup 100 --quiet --json "$work/dfly.json" \
  --series "$work/dfly.csv" --series-window 200
check "the runs exit 0" test -s "$work/torus_3.json" -a -s "$work/dfly.json"
check "the run JSON has per-link utilisation" grep -q '"to_router"' "$work/dfly.json"
check "UGAL-LE's series has its mean contention factor" grep -q '"contention_mean"' "$work/dfly.json"
printf 'config,pattern,offered_load,accepted_load,lat_avg\nfrom_a_sweep,uniform,0.1,0.099,14.0\nfrom_a_sweep,uniform,0.5,0.41,80.5\n' \
  > "$work/sweep.csv"

"$rlroute" report "$work"/torus_*.json "$work/torus_1.csv" "$work/sweep.csv" "$work/dfly.json" -o "$work/report.html" \
  2> "$work/err.txt"
check "report exits 0" test $? -eq 0
check "report says what it wrote" grep -q "^rlroute: wrote $work/report.html" "$work/err.txt"
check "the page is self-contained (no external resource)" test -z "$(grep -oE '(src|href)="(https?:)?//' "$work/report.html")"
plots=$(grep -c '<figure class="plot">' "$work/report.html")
check "the page has the load curves, two heat maps and the series ($plots plots)" test "$plots" -ge 6
check "the series show UGAL-LE's contention factors" grep -q '<figcaption>series of the run JSONs: .*mean contention factor' "$work/report.html"

# browser_check PAGE: every plot drawn, no console error, a screenshot that is not blank.
browser_check() {
  local page=$1 name=$2
  local n
  n=$(grep -c '<figure class="plot">' "$page")
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --virtual-time-budget=5000 \
    --enable-logging=stderr --v=0 --dump-dom "file://$page" > "$work/$name.dom" 2> "$work/$name.console"
  grep -q "<title>rlroute report: $n of $n plots drawn</title>" "$work/$name.dom" || { echo "  $name: not every plot drew"; return 1; }
  if grep -E 'Uncaught|CONSOLE.*(Error|error)' "$work/$name.console"; then echo "  $name: console error"; return 1; fi
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
    --window-size=1200,1600 --screenshot="$work/$name.png" "file://$page" > /dev/null 2>&1
  /usr/bin/python3 - "$work/$name.png" <<'PY' || { echo "  $name: blank screenshot"; return 1; }
import sys
import matplotlib.image as image
px = image.imread(sys.argv[1])[..., :3].reshape(-1, 3)
colours = {tuple((p * 255).astype(int)) for p in px[:: max(1, len(px) // 200000)]}
ink = (px.sum(axis=1) < 2.9).mean()  # share of pixels that are not white
print(f"  screenshot: {len(colours)} colours, {100 * ink:.1f} % not white")
sys.exit(0 if len(colours) > 50 and ink > 0.02 else 1)
PY
}
check "Chromium: every plot draws, no console error, the screenshot is not blank" browser_check "$work/report.html" page

# The checks, broken on purpose.
rejected() { ! browser_check "$@" > /dev/null; }
sed 's#</body>#<script>no_such_function();</script></body>#' "$work/report.html" > "$work/broken_script.html"
check "a page with a script error is rejected" rejected "$work/broken_script.html" broken_script
sed '0,/<svg /s//<svg style="display:none" /' "$work/report.html" > "$work/broken_plot.html"
check "a page with a plot that does not draw is rejected" rejected "$work/broken_plot.html" broken_plot
printf '<!DOCTYPE html><html><head><title>rlroute report: 0 of 0 plots drawn</title></head><body></body></html>\n' \
  > "$work/blank.html"
check "a blank page is rejected" rejected "$work/blank.html" blank

# Bad inputs: one line, exit non-zero, nothing written.
echo 'not,a,result' > "$work/bad.csv"
"$rlroute" report "$work/bad.csv" -o "$work/none.html" 2> "$work/err.txt"
check "a CSV of neither kind: exits non-zero" test $? -ne 0
check "a CSV of neither kind: one line naming the file" grep -qE "^rlroute: error: $work/bad.csv: a CSV with neither" "$work/err.txt"
check "a CSV of neither kind: nothing written" test ! -e "$work/none.html"
"$rlroute" report "$work/torus_1.json" -o "$work/torus_1.json" 2> "$work/err.txt"
check "-o on an input: refused" grep -qE "^rlroute: error: -o $work/torus_1.json: is a RESULTS file, an input" "$work/err.txt"
"$rlroute" report "$work/missing.json" -o "$work/none.html" 2> "$work/err.txt"
check "a missing input: one line naming it" grep -qE "^rlroute: error: $work/missing.json: cannot read a result file" "$work/err.txt"

finish
