#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The device checks of gpu/ in one run, for a machine with an NVIDIA GPU (sm_90 or newer): a CUDA
# build of only the gpu plugins, their tests and ninfer-conform; the gpu-labelled tests; the
# cuda_device survey in full; whether CUDA starts under the harness worker's 8 GiB RLIMIT_AS; a
# full ninfer-conform run of cuda_device; nvidia-smi. Everything lands in $OUT (default
# build/device-out). Usage: gpu/run_device_checks.sh   (env: NINFER_DEVICE_BUILD, NINFER_SEED)
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$ROOT/build/device-out}
BUILD=${NINFER_DEVICE_BUILD:-$ROOT/build/device}
JOBS=$(nproc)
mkdir -p "$OUT" || { echo "run_device_checks: cannot create OUT=$OUT" >&2; exit 2; }
exec > >(tee "$OUT/run_device_checks.log") 2>&1

step() { echo; echo "== $* ($(date -u +%H:%M:%S) UTC)"; }
declare -A rc

step "tools"
for tool in cmake nvidia-smi; do
    command -v "$tool" >/dev/null || { echo "run_device_checks: $tool not found on PATH"; exit 2; }
done
[[ -x /usr/local/cuda/bin/nvcc ]] || { echo "run_device_checks: /usr/local/cuda/bin/nvcc not found (the CUDA build needs it)"; exit 2; }
/usr/local/cuda/bin/nvcc --version | tail -2
cmake --version | head -1
GENERATOR=()
command -v ninja >/dev/null && GENERATOR=(-G Ninja)

step "nvidia-smi (before)"
nvidia-smi | tee "$OUT/nvidia-smi-before.txt"

step "configure $BUILD"
cmake -S "$ROOT" -B "$BUILD" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNINFER_CUDA=ON \
    || { echo "run_device_checks: configure failed"; exit 3; }

step "build (-j$JOBS)"
cmake --build "$BUILD" -j"$JOBS" --target cuda_device ninfer_cuda_device_tests cuda_host ninfer_cuda_host_tests ninfer-conform \
    || { echo "run_device_checks: build failed"; exit 4; }

step "ctest -L gpu"
(cd "$BUILD" && timeout 300 ctest -L gpu -j"$JOBS" --output-on-failure --output-junit "$OUT/ctest-gpu.xml")
rc[ctest]=$?

step "cuda_device survey (full output: $OUT/cuda_device_survey.txt)"
timeout 240 "$BUILD/gpu/ninfer_cuda_device_tests" -s -d yes >"$OUT/cuda_device_survey.txt" 2>&1
rc[survey]=$?
grep -E "^cuda_device (version|survey)|^(convert|decode)\.|^    |test cases|assertions" "$OUT/cuda_device_survey.txt"

step "does CUDA start under the worker's RLIMIT_AS of 8 GiB?"
(ulimit -v 8388608 && "$BUILD/gpu/ninfer_cuda_device_tests" "cuda_device loads*" -s | grep "^cuda_device version") \
    | tee "$OUT/rlimit_as_8g.txt"

step "ninfer-conform run --level full (report $OUT/cuda_device.json)"
timeout 300 "$BUILD/harness/ninfer-conform" run --plugin "$BUILD/plugins/cuda_device.so" --level full --memory-limit-mib 0 \
    --report "$OUT/cuda_device.json" --junit "$OUT/cuda_device.junit.xml" ${NINFER_SEED:+--seed "$NINFER_SEED"}
rc[conform]=$?

step "nvidia-smi (after)"
nvidia-smi | tee "$OUT/nvidia-smi-after.txt"

step "summary"
echo "ctest -L gpu: rc ${rc[ctest]}; cuda_device survey: rc ${rc[survey]}; ninfer-conform run: rc ${rc[conform]} (1 = some case failed)"
echo "outputs in $OUT"
[[ ${rc[ctest]} -eq 0 && ${rc[survey]} -eq 0 ]]
