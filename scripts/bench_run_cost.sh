#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark (not a test; issue 32, item 4; docs/RESULTS.md, "What a run costs"): a plugin that
# declares two ops (harness/examples/minimal_plugin.c: decode bf16, convert bf16_to_fp32) at
# --level LEVEL over every suite, beside the same run restricted to its two suites, in one run;
# then whether the two reports hold the same cases (timestamps, timings and the suites asked aside).
# Usage: scripts/bench_run_cost.sh [BUILD_DIR (default build/ci)] [LEVEL (default full)]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/ci}
level=${2:-full}
cli=$build/harness/ninfer-conform
plugin=$(find "$build" -name minimal_plugin.so -print -quit)
[[ -x $cli && -n $plugin ]] || { echo "bench_run_cost.sh: $cli or minimal_plugin.so not built" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {  # NAME ARGS...: wall seconds of one run on stdout
  local name=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$cli" run --plugin "$plugin" --level "$level" --no-progress --report "$out/$name.json" "$@" \
    >"$out/$name.out" 2>"$out/$name.err" || true
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
echo "bench_run_cost: minimal_plugin (2 ops) at --level $level, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
all=$(run all)
two=$(run two --suite scalar.decode --suite scalar.convert)
printf '%-44s %8.2f s  (%s lines on stderr)\n' "every suite" "$all" "$(wc -l <"$out/all.err")"
printf '%-44s %8.2f s  (%s lines on stderr)\n' "--suite scalar.decode --suite scalar.convert" "$two" "$(wc -l <"$out/two.err")"
printf '%-44s %8.2fx\n' "every suite / its two suites" "$(awk -v a="$all" -v b="$two" 'BEGIN { print a / b }')"
python3 - "$out/all.json" "$out/two.json" <<'PY'
import json, sys
def timeless(path):
    r = json.load(open(path))
    for k in ("started_at", "finished_at", "duration_s", "suites"):
        r.pop(k, None)
    return json.dumps(r, sort_keys=True)
a, b = timeless(sys.argv[1]), timeless(sys.argv[2])
n = len(json.load(open(sys.argv[1]))["cases"])
print(f"reports ({n} cases): {'the same' if a == b else 'DIFFER'} (timestamps, timings and the suites asked aside)")
sys.exit(0 if a == b else 1)
PY
