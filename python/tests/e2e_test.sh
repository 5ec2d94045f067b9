#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 25, item 6: an exception in an SDK subject's op function (raising_subject.py) is reported
# as that case's failure naming the exception, not as a crash, a protocol error or a dead subject:
# the cases without 1.0 still pass. Skipped (77) when the interpreter has no numpy.
# Usage: e2e_test.sh NINFER_CONFORM PYTHON SOURCE_DIR SCRATCH_DIR
set -u
cli=$1 py=$2 src=$3 dir=$4
"$py" -c 'import numpy' 2>/dev/null || { echo "e2e_test: $py has no numpy; skipped"; exit 77; }
rm -rf "$dir" && mkdir -p "$dir"
export PYTHONDONTWRITEBYTECODE=1
for framing in binary lines; do
  NINFER_FRAMING=$framing "$cli" run --exec "$py $src/python/tests/raising_subject.py" --suite scalar.decode --level full \
    --report "$dir/$framing.json" >"$dir/$framing.out" 2>&1
  rc=$?
  [[ $rc == 1 ]] || { cat "$dir/$framing.out"; echo "e2e_test: $framing: exit $rc, expected 1"; exit 1; }
  "$py" - "$dir/$framing.json" "$framing" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
t = r["totals"]
if t["crash"] or t["error"] or t["timeout"] or t["pass"] == 0:
    sys.exit("e2e_test: %s: totals %s, expected passes and no crash, error or timeout" % (sys.argv[2], t))
failed = {c["id"]: c["message"] for c in r["cases"] if c["status"] not in ("pass", "unsupported")}
# the decode.fp16 cases whose inputs hold 0x3C00 (1.0), read from the suite's case list
want = ["decode.fp16/binade_boundaries", "decode.fp16/domain_3c00", "decode.fp16/specials"]
if sorted(failed) != want or set(failed.values()) != {"RuntimeError: deliberate failure on a call holding 1.0"}:
    sys.exit("e2e_test: %s: failed cases %s, expected %s with the exception's message" % (sys.argv[2], failed, want))
print("e2e_test: %s: %d cases pass, %s fail naming the exception" % (sys.argv[2], t["pass"], want))
PY
done
