#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The device checks of gpu/ in one command, for a machine with an NVIDIA GPU (sm_90 or newer),
# within a time budget (default 470 s, under the 8 minutes issue 13 allows): a CUDA build (preset
# dev) of the gpu plugins, their tests, ninfer-conform and the GEMV benchmark; the gpu-labelled
# tests; the cuda_device conversion survey; whether CUDA starts under the worker's 8 GiB
# RLIMIT_AS; ninfer-conform run of cuda_device over the word suites (level full) and over the
# operator and tensor suites (linear*, the grouped / scaled / GGUF decode and encoder suites, lesson.mxfp4);
# device sweeps of every conversion cuda_device declares over its whole source domain (2^32
# words for fp32 sources), each cut by the budget left; the linear benchmark (bytes/s against the
# device's peak bandwidth); nvidia-smi. Everything lands in OUT, with one JSON summary
# OUT/device_report.json; every step skipped or cut is printed and listed there.
# Usage: gpu/run_device_checks.sh [--out DIR]
#   env: OUT (default build/device-out), NINFER_DEVICE_BUILD (default build/device: reused when
#        configured), NINFER_DEVICE_BUDGET_S (default 470), NINFER_SEED,
#        NINFER_DEVICE_LEVEL (operator suites' level, default full)
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$ROOT/build/device-out}
if [[ ${1:-} == --out ]]; then
    [[ -n ${2:-} ]] || { echo "run_device_checks: --out needs a directory" >&2; exit 2; }
    OUT=$2
elif [[ $# -gt 0 ]]; then
    echo "run_device_checks: unknown argument '$1' (usage: gpu/run_device_checks.sh [--out DIR])" >&2
    exit 2
fi
BUILD=${NINFER_DEVICE_BUILD:-$ROOT/build/device}
BUDGET=${NINFER_DEVICE_BUDGET_S:-470}
LEVEL=${NINFER_DEVICE_LEVEL:-full}
JOBS=$(nproc)
mkdir -p "$OUT" || { echo "run_device_checks: cannot create OUT=$OUT" >&2; exit 2; }
OUT=$(cd "$OUT" && pwd)
exec > >(tee "$OUT/run_device_checks.log") 2>&1

STEPS=$OUT/steps.tsv
SKIPPED=$OUT/skipped.txt
: >"$STEPS"
: >"$SKIPPED"
step() { echo; echo "== $* ($(date -u +%H:%M:%S) UTC, ${SECONDS}s of ${BUDGET}s used)"; }
left() { echo $((BUDGET - SECONDS)); }
skip() { echo "SKIPPED: $*"; echo "$*" >>"$SKIPPED"; }
# record NAME RC SECONDS FILE: one line of the JSON summary's steps.
record() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$STEPS"; }
# timed NAME FILE LIMIT CMD...: run CMD under `timeout LIMIT`, record its status and time.
timed() {
    local name=$1 file=$2 limit=$3 t0=$SECONDS rc
    shift 3
    if ((limit < 5)); then
        skip "$name: the budget is spent"
        record "$name" skipped 0 "$file"
        return 0
    fi
    timeout "$limit" "$@"
    rc=$?
    [[ $rc -eq 124 ]] && skip "$name: cut at its time limit of ${limit}s"
    record "$name" "$rc" $((SECONDS - t0)) "$file"
    return 0
}
cap() { local a=$1 b; b=$(left); echo $((a < b ? a : b)); }

step "tools"
command -v cmake >/dev/null || { echo "run_device_checks: cmake not found on PATH"; exit 2; }
[[ -x /usr/local/cuda/bin/nvcc ]] || { echo "run_device_checks: /usr/local/cuda/bin/nvcc not found (the CUDA build needs it)"; exit 2; }
/usr/local/cuda/bin/nvcc --version | tail -2
cmake --version | head -1
if command -v nvidia-smi >/dev/null; then
    step "nvidia-smi (before)"
    nvidia-smi | tee "$OUT/nvidia-smi-before.txt"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.memory --format=csv >"$OUT/gpu.csv" 2>/dev/null
else
    skip "nvidia-smi: not on PATH (no NVIDIA driver: every device step below skips or reports unsupported)"
fi

step "configure and build $BUILD (-j$JOBS)"
t0=$SECONDS
if [[ ! -f $BUILD/build.ninja && ! -f $BUILD/Makefile ]]; then
    cmake --preset dev -S "$ROOT" -B "$BUILD" -DNINFER_CUDA=ON -DNINFER_BUILD_BENCHMARKS=ON \
        || { echo "run_device_checks: configure failed"; exit 3; }
fi
cmake --build "$BUILD" -j"$JOBS" --target cuda_device ninfer_cuda_device_tests cuda_host ninfer_cuda_host_tests \
    ninfer-conform bench_cuda_device_linear || { echo "run_device_checks: build failed"; exit 4; }
record build 0 $((SECONDS - t0)) ""
CONFORM=$BUILD/harness/ninfer-conform
PLUGIN=$BUILD/plugins/cuda_device.so

step "ctest -L gpu (the survey runs apart, below)"
timed ctest_gpu "$OUT/ctest-gpu.xml" "$(cap 150)" \
    bash -c "cd '$BUILD' && ctest -L gpu -E 'departures printed' -j$JOBS --output-on-failure --output-junit '$OUT/ctest-gpu.xml'"

step "cuda_device survey and tensor tests (full output: $OUT/cuda_device_survey.txt)"
timed survey "$OUT/cuda_device_survey.txt" "$(cap 120)" \
    bash -c "'$BUILD/gpu/ninfer_cuda_device_tests' -s -d yes >'$OUT/cuda_device_survey.txt' 2>&1"
grep -E "^cuda_device (version|survey)|^grouped scale|^(convert|decode)\.|^    |test cases|assertions" "$OUT/cuda_device_survey.txt"

step "does CUDA start under the worker's RLIMIT_AS of 8 GiB?"
(ulimit -v 8388608 && "$BUILD/gpu/ninfer_cuda_device_tests" "cuda_device loads*" -s | grep "^cuda_device version") \
    | tee "$OUT/rlimit_as_8g.txt"

SEED=()
[[ -n ${NINFER_SEED:-} ]] && SEED=(--seed "$NINFER_SEED")
step "ninfer-conform run: word suites, level full (report $OUT/cuda_device_words.json)"
timed run_words "$OUT/cuda_device_words.json" "$(cap 90)" "$CONFORM" run --plugin "$PLUGIN" --suite scalar.convert \
    --suite scalar.decode --level full --memory-limit-mib 0 --report "$OUT/cuda_device_words.json" "${SEED[@]}"

step "ninfer-conform run: operator and tensor suites, level $LEVEL (report $OUT/cuda_device_tensor.json)"
# The suite names, from the CLI's own refusal of an unknown one ("expected one of: a, b, ...").
mapfile -t ALL_SUITES < <("$CONFORM" run --plugin "$PLUGIN" --suite __list_suites__ 2>&1 |
    sed -n 's/.*expected one of: //p' | tr ',' '\n' | tr -d ' ')
TENSOR_SUITES=()
for s in "${ALL_SUITES[@]}"; do
    [[ $s =~ ^(linear|grouped\.(absmax|row_split|codes)|scaled\.|gguf\.decode|lesson\.mxfp4|layout\.(block_scale|row_|ggml)) ]] \
        && TENSOR_SUITES+=(--suite "$s")
done
if ((${#TENSOR_SUITES[@]} == 0)); then
    skip "operator and tensor suites: none found in '${ALL_SUITES[*]}'"
else
    echo "suites: ${TENSOR_SUITES[*]}"
    timed run_tensor "$OUT/cuda_device_tensor.json" "$(cap 150)" "$CONFORM" run --plugin "$PLUGIN" "${TENSOR_SUITES[@]}" \
        --level "$LEVEL" --memory-limit-mib 0 --report "$OUT/cuda_device_tensor.json" "${SEED[@]}"
    # Cut at the full level: the quick level's golden cases still run.
    if [[ $LEVEL != quick ]] && awk -F'\t' '$1 == "run_tensor" && $2 == 124 { f = 1 } END { exit !f }' "$STEPS"; then
        timed run_tensor_quick "$OUT/cuda_device_tensor_quick.json" "$(cap 60)" "$CONFORM" run --plugin "$PLUGIN" \
            "${TENSOR_SUITES[@]}" --level quick --memory-limit-mib 0 --report "$OUT/cuda_device_tensor_quick.json" "${SEED[@]}"
    fi
fi

step "linear benchmark (report $OUT/bench_linear.json)"
timed bench "$OUT/bench_linear.json" "$(cap 60)" bash -c "'$BUILD/gpu/bench_cuda_device_linear' >'$OUT/bench_linear.json'"
cat "$OUT/bench_linear.json" 2>/dev/null; echo

step "device sweeps of every declared conversion (reports $OUT/sweep_*.json)"
# The small domains first (every word of an 8- or 16-bit source), then the 2^32-word fp32
# sources, each given an equal share of the budget left (less 30 s for the summary).
SMALL=(bf16_to_fp32 fp16_to_fp32 e4m3fn_to_fp32 e5m2_to_fp32 e2m1_to_fp32)
WIDE=(fp32_to_bf16_rne fp32_to_bf16_rtz fp32_to_fp16_rne fp32_to_e4m3fn_rne_satfinite fp32_to_e4m3fn_rne_nan
    fp32_to_e5m2_rne_satfinite fp32_to_e5m2_rne_inf fp32_to_e2m1_rne_satfinite)
for conv in "${SMALL[@]}"; do
    timed "sweep $conv" "$OUT/sweep_$conv.json" "$(cap 30)" "$CONFORM" sweep --plugin "$PLUGIN" --conversion "$conv" \
        --memory-limit-mib 0 --report "$OUT/sweep_$conv.json"
done
for i in "${!WIDE[@]}"; do
    conv=${WIDE[$i]}
    share=$(((BUDGET - SECONDS - 30) / (${#WIDE[@]} - i)))
    timed "sweep $conv" "$OUT/sweep_$conv.json" "$share" "$CONFORM" sweep --plugin "$PLUGIN" --conversion "$conv" \
        --memory-limit-mib 0 --timeout-ms 600000 --report "$OUT/sweep_$conv.json"
done

if command -v nvidia-smi >/dev/null; then
    step "nvidia-smi (after)"
    nvidia-smi | tee "$OUT/nvidia-smi-after.txt"
fi

step "summary ($OUT/device_report.json)"
python3 - "$OUT" "$BUDGET" "$SECONDS" <<'EOF'
import json, os, sys
out, budget, used = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
steps = []
for line in open(os.path.join(out, "steps.tsv")):
    name, rc, secs, path = line.rstrip("\n").split("\t")
    entry = {"name": name, "status": rc, "seconds": int(secs)}
    if path:
        entry["file"] = os.path.basename(path)
        report = load(path) if path.endswith(".json") else None
        if isinstance(report, dict):
            for key in ("totals", "summary"):
                if key in report:
                    entry[key] = report[key]
    steps.append(entry)
gpu = open(os.path.join(out, "gpu.csv")).read().strip() if os.path.exists(os.path.join(out, "gpu.csv")) else None
report = {
    "kind": "ninfer-conform device checks",
    "budget_s": budget,
    "used_s": used,
    "gpu": gpu,
    "steps": steps,
    "skipped": [l.strip() for l in open(os.path.join(out, "skipped.txt")) if l.strip()],
    "bench_linear": load(os.path.join(out, "bench_linear.json")),
}
tmp = os.path.join(out, "device_report.json.tmp")
with open(tmp, "w") as f:
    json.dump(report, f, indent=2)
    f.write("\n")
os.replace(tmp, os.path.join(out, "device_report.json"))
for s in steps:
    print(f"{s['name']}: {s['status']} ({s['seconds']} s)")
EOF
if [[ -s $SKIPPED ]]; then
    echo "skipped or cut:"
    sed 's/^/  /' "$SKIPPED"
fi
echo "outputs in $OUT"
awk -F'\t' '$1 == "ctest_gpu" && $2 != 0 { bad = 1 } $1 == "survey" && $2 != 0 { bad = 1 } END { exit bad }' "$STEPS"
