#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The numpy example (harness/examples/numpy_codec.py) through the CLI, in binary frames and in
# JSON lines, echoing call ids: both framings give the same report (timings aside), failing only on the NaN rules
# where numpy 1.24 keeps a signalling NaN (README.md, "Quick start"), and a sweep passes in both.
# Skipped (77) when the interpreter has no numpy (apt-get install python3-numpy).
# Usage: numpy_codec_test.sh NINFER_CONFORM PYTHON SOURCE_DIR SCRATCH_DIR
set -u
cli=$1 py=$2 src=$3 dir=$4
"$py" -c 'import numpy' 2>/dev/null || { echo "numpy_codec_test: $py has no numpy; skipped"; exit 77; }
rm -rf "$dir" && mkdir -p "$dir"
codec="$py $src/harness/examples/numpy_codec.py"
fail() { echo "numpy_codec_test: $*"; exit 1; }

hello='{"ninfer":"hello","abi":1,"abi_max":2,"framings":["lines","binary"],"ids":true}'
echo "$hello" | $codec | head -n 1 | grep -q '"framing": "binary", "iota": true' || fail "the codec does not choose binary frames"
echo "$hello" | $codec | head -n 1 | grep -q '"ids": true' || fail "the codec does not choose call ids"
echo '{"ninfer":"hello","abi":1,"abi_max":2}' | $codec | head -n 1 | grep -q '"ids"' && fail "call ids chosen from a harness that does not offer them"
# A request's call id comes back in its reply.
call='{"op":"decode","format":"fp16","format_in":null,"layout":null,"method":null,"flags":0,"shape":[1],"count":1,"profile":0,"id":7,"inputs":{"words":"003c"},"outputs":{"values":8},"formats":{}}'
printf '%s\n%s\n' "$hello" "$call" | NINFER_FRAMING=lines $codec | sed -n 2p | grep -q '"id": 7' || fail "the codec does not echo the call id"
echo "$hello" | NINFER_FRAMING=lines $codec | head -n 1 | grep -q '"framing"' && fail "NINFER_FRAMING=lines still chooses a framing"
echo '{"ninfer":"hello","abi":1,"abi_max":2}' | $codec | head -n 1 | grep -q '"framing"' && fail "binary frames chosen from a harness that does not offer them"

for framing in binary lines; do
  NINFER_FRAMING=$framing "$cli" run --exec "$codec" --suite scalar.convert --suite scalar.decode --level full \
    --report "$dir/$framing.json" >"$dir/$framing.out" 2>&1
  rc=$?
  [[ $rc == 1 ]] || { cat "$dir/$framing.out"; fail "run in $framing frames exited $rc, expected 1 (numpy's NaN departures)"; }
  NINFER_FRAMING=$framing "$cli" sweep --exec "$codec" --conversion fp32_to_fp16_rne --start 38800000 --count 4194304 \
    >"$dir/sweep-$framing.out" 2>&1 || { cat "$dir/sweep-$framing.out"; fail "sweep in $framing frames failed"; }
done
"$py" - "$dir/binary.json" "$dir/lines.json" <<'PY' || exit 1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for r in (a, b):
    for k in ("started_at", "finished_at", "duration_s"):
        r.pop(k)
if a != b:
    sys.exit("numpy_codec_test: the binary and the JSON-lines runs differ")
failing = sorted(r["id"] for r in a["rules"] if r["status"] == "fail")
want = ["convert.fp32_to_fp16_rne", "convert.fp32_to_fp16_rne.nan_payload"]  # decode.fp16 passes: it keeps an sNaN as convert.fp16_to_fp32 does
if failing != want:
    sys.exit("numpy_codec_test: failing rules %s, expected %s" % (failing, want))
if a["totals"]["pass"] == 0 or a["totals"]["error"] or a["totals"]["crash"] or a["totals"]["timeout"]:
    sys.exit("numpy_codec_test: totals %s" % a["totals"])
print("numpy_codec_test: %d cases, the same report in both framings; failing rules %s" % (a["totals"]["cases"], failing))
PY
