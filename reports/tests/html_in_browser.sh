#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The HTML report in a real browser (reports/README.md, "HTML"): render a run report (the approval
# baseline) and a sweep of a mutant with `ninfer-conform report --html`, load the page in headless
# Chromium, and fail when the DOM lacks the matrix, the failures or the plot, when the browser
# logs a console error, or when the screenshot is blank. Exit 77 (skipped) without Chromium.
#   html_in_browser.sh EXE WORKDIR SOURCE_DIR [SCREENSHOT.png]
set -euo pipefail
exe=$1 work=$2 src=$3 shot=${4:-$2/page.png}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [[ -z $browser ]]; then
  echo "SKIP: no chromium on PATH (scripts/setup.sh installs Debian's chromium)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"

# Two sweeps of a mutant (ties away from zero in fp32 -> e5m2) over 2^24 words of each sign,
# and a passing run of the reference, beside the approval baseline's report.
for start in 38000000 b8000000; do
  set +e
  "$exe" sweep --plugin mutant_e5m2_ties_away --conversion fp32_to_e5m2_rne_satfinite --start $start \
    --count 16777216 --report "$work/sweep-$start.json" >"$work/sweep-$start.txt" 2>&1
  rc=$?
  set -e
  [[ $rc == 1 ]] || { echo "FAIL: the sweep of the mutant exited $rc, expected 1"; cat "$work/sweep-$start.txt"; exit 1; }
done
"$exe" run --plugin reference --suite scalar.decode --level quick --report "$work/reference.json" >"$work/run.txt" 2>&1
# The approval baseline with behaviour fingerprints (issue 24) adds their list and boxes.
"$exe" report --html "$work/page.html" "$src/reports/tests/baselines/report.json" "$work/reference.json" \
  "$work/sweep-38000000.json" "$work/sweep-b8000000.json" "$src/reports/tests/baselines/fingerprint_report.json"

flags=(--headless --disable-gpu --no-sandbox --no-first-run --disable-dev-shm-usage --hide-scrollbars
       --user-data-dir="$work/profile" --enable-logging=stderr --v=0)
url="file://$work/page.html"
timeout 120 "$browser" "${flags[@]}" --dump-dom "$url" >"$work/dom.html" 2>"$work/dom.stderr" || {
  echo "FAIL: chromium --dump-dom failed"; cat "$work/dom.stderr"; exit 1; }
fail=0
need() {
  if ! grep -qF -- "$1" "$work/dom.html"; then echo "FAIL: the rendered page lacks $2 ($1)"; fail=1; fi
}
need '<table class="matrix">' "the matrix"
need '<td class="c fail"' "a failing cell"
need '<td class="c pass"' "a passing cell"
need 'class="sentence"' "a failure's spec sentence"
need '<svg' "an inline SVG plot"
need 'word mismatches' "the sweep plot's caption"
need 'mutant_e5m2_ties_away' "the sweep's subject"
need '<div class="fingerprint" id="f4-0">' "a behaviour fingerprint's box"
need 'Behaviour fingerprints (2):' "the list of a report's fingerprints"
cells=$(grep -o '<td class="c ' "$work/dom.html" | wc -l)
(( cells >= 6 )) || { echo "FAIL: only $cells matrix cells in the rendered page"; fail=1; }
if grep -E 'Uncaught|:CONSOLE[:(]' "$work/dom.stderr"; then
  echo "FAIL: the browser logged page errors"; fail=1
fi

timeout 120 "$browser" "${flags[@]}" --window-size=1280,1600 --screenshot="$shot" "$url" \
  >/dev/null 2>"$work/shot.stderr" || { echo "FAIL: chromium --screenshot failed"; cat "$work/shot.stderr"; exit 1; }
python3 - "$shot" <<'PY' || fail=1
# The screenshot is a PNG whose pixel rows are not all alike: sampled bytes of its (filtered)
# scanlines take few distinct values on a blank page, many on a rendered one.
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width, height = 8, b"", 0, 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        channels = {2: 3, 6: 4}[colour]
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = width * channels + 1
rows = [raw[r * stride + 1:(r + 1) * stride] for r in range(0, height, max(1, height // 200))]
samples = {row[i:i + 3] for row in rows for i in range(0, len(row), channels * 7)}
print(f"screenshot {width}x{height}, {len(samples)} distinct samples")
if len(samples) < 8:
    print("FAIL: the screenshot is (nearly) blank")
    sys.exit(1)
PY
(( fail == 0 )) || exit 1
echo "page rendered: $cells matrix cells, no console errors; screenshot $shot"
