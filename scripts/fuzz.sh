#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer harnesses of harness/fuzz/ with clang (preset fuzz: ASan + UBSan +
# libFuzzer) and runs each for a bounded time from its seed corpus (docs/RESULTS.md, "Fuzzing and sanitizers").
#   FUZZ_SECONDS  seconds per harness (default 30; six harnesses: about 3 minutes in all)
#   FUZZ_JOBS     build jobs (default: nproc)
# New inputs go to build/fuzz/corpus/<harness>/, crashes to build/fuzz/findings/. Exit status 1
# when a harness found a crash, a leak or a timeout. Not part of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-30}
harnesses=(fuzz_vectors fuzz_baseline fuzz_oracle_requests fuzz_payload_decode fuzz_exec_replies fuzz_worker_frames)

bash scripts/setup.sh --clang
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "${FUZZ_JOBS:-$(nproc)}"

findings=build/fuzz/findings
mkdir -p "$findings"
failed=()
for h in "${harnesses[@]}"; do
  corpus=build/fuzz/corpus/$h
  mkdir -p "$corpus"
  log=build/fuzz/$h.log
  echo "fuzz: $h for ${seconds}s"
  # detect_leaks=0 for the two harnesses that start processes or load the plugin per input:
  # libFuzzer would otherwise count a dlopen handle or a child's pipe buffers as a leak.
  leaks=1
  [[ $h == fuzz_exec_replies || $h == fuzz_worker_frames ]] && leaks=0
  if ASAN_OPTIONS="detect_leaks=$leaks:handle_abort=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
     "build/fuzz/harness/fuzz/$h" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=65536 \
       -print_final_stats=1 -artifact_prefix="$findings/$h-" "$corpus" "harness/fuzz/corpus/$h" >"$log" 2>&1; then
    echo "fuzz: $h clean: $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') inputs"
  else
    echo "fuzz: $h FOUND A PROBLEM (log $log, input under $findings):"
    grep -E "ERROR:|SUMMARY:|runtime error" "$log" | head -5
    failed+=("$h")
  fi
done
if ((${#failed[@]})); then
  echo "fuzz: problems in ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: all ${#harnesses[@]} harnesses clean for ${seconds}s each"
