#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds everything with clang's AddressSanitizer and UndefinedBehaviorSanitizer (preset asan) and runs
# the whole test suite under them (docs/RESULTS.md, "Fuzzing and sanitizers"). Not part of .ci/run: it takes
# several times as long as the ci preset. Arguments go to ctest (e.g. -R cli.).
# Under the sanitizers (NINFER_SANITIZED): no RLIMIT_AS on subjects (ASan's shadow memory
# exceeds any), ASan leaves SIGSEGV to the tests that expect a raw one (handle_segv=0), a too
# large malloc returns NULL as without ASan (allocator_may_return_null=1), and
# the native-vs-oracle cross-check runs 3*10^5 inputs per conversion instead of 10^7; the
# preset sets these.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --clang
jobs=${ASAN_JOBS:-$(nproc)}
start=$(date +%s)
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
ctest --preset asan -j "$jobs" "$@"
echo "asan: build and tests passed in $(($(date +%s) - start)) s"
