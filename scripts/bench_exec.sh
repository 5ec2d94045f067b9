#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark (not a test): the exec protocol's figures (docs/RESULTS.md, "The exec protocol"), in one run:
#  1. a C++ subject that computes nothing (harness/bench/exec_null_subject.cpp), through the
#     harness's exec subject: binary frames with iota, binary frames with words, JSON lines;
#  2. `sweep` of fp32_to_bf16_rne over 2^28 words against that subject converting for real, and
#     against the bundled reference plugin (the sweep engine's own pace, for comparison);
#  3. `sweep` of fp32_to_fp16_rne over 2^28 words against harness/examples/numpy_codec.py, beside
#     numpy's own in-process speed over the same range, in the same batches.
# Usage: scripts/bench_exec.sh [BUILD_DIR (default build/ci)]; PYTHON=... picks the interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/ci}
python=${PYTHON:-}
if [[ -z $python ]]; then
  # the first interpreter with numpy (a pyenv shim may shadow Debian's python3-numpy)
  python=python3
  for p in python3 /usr/bin/python3; do "$p" -c 'import numpy' 2>/dev/null && { python=$p; break; }; done
fi
cli=$build/harness/ninfer-conform
null=$build/harness/exec_null_subject
for f in "$cli" "$null" "$build/harness/bench_exec"; do
  [[ -x $f ]] || { echo "bench_exec.sh: $f not built (cmake --build --preset ci)" >&2; exit 2; }
done
words=$((1 << 28))
numpy_start=38800000  # binary32 2^-14 and up: fp16 normals (and overflow to infinity at the top)

echo "== exec protocol, a subject that computes nothing (2^22 words per call)"
if "$python" -c 'import numpy' 2>/dev/null; then
  "$build/harness/bench_exec" 28 "$python harness/examples/numpy_codec.py" $numpy_start
else
  "$build/harness/bench_exec" 28
fi

echo "== sweep fp32_to_bf16_rne, $words words, C++ subject converting (binary frames, iota)"
"$cli" sweep --exec "$null bf16" --conversion fp32_to_bf16_rne --start 0 --count $words 2>/dev/null | grep '^swept'
echo "   the same sweep against the bundled reference plugin (worker process; the sweep engine's own pace):"
"$cli" sweep --plugin reference --conversion fp32_to_bf16_rne --start 0 --count $words 2>/dev/null | grep '^swept'

if "$python" -c 'import numpy' 2>/dev/null; then
  echo "== numpy: fp32_to_fp16_rne over [$numpy_start, +$words), batches of 2^22 words"
  "$cli" sweep --exec "$python harness/examples/numpy_codec.py" --conversion fp32_to_fp16_rne \
    --start $numpy_start --count $words 2>/dev/null | grep '^swept' | sed 's/^/through the harness (binary frames): /'
  NINFER_FRAMING=lines "$cli" sweep --exec "$python harness/examples/numpy_codec.py" --conversion fp32_to_fp16_rne \
    --start $numpy_start --count $((1 << 24)) 2>/dev/null | grep '^swept' | sed 's/^/through the harness (JSON lines):    /'
  "$python" - "$numpy_start" "$words" <<'PY'
import sys, time
import numpy as np
start, count, batch = int(sys.argv[1], 16), int(sys.argv[2]), 1 << 22
t = time.perf_counter()
with np.errstate(all="ignore"):
    for first in range(start, start + count, batch):
        n = min(batch, start + count - first)
        out = np.arange(first, first + n, dtype=np.uint32).view("<f4").astype("<f2").view("<u2")
s = time.perf_counter() - t
print("numpy in-process (arange + astype):  %d words in %.3f s: %.4g words per second" % (count, s, count / s))
PY
else
  echo "== numpy: skipped ($python has no numpy; apt-get install python3-numpy)"
fi
