#!/usr/bin/env bash
# The exhaustive proof of the native path (docs/RESULTS.md, "Exhaustive proofs"): prove_native compares
# native::convert_batch with the MPFR oracle over all 2^32 binary32 inputs of every FP32-source
# conversion (or of the conversions named), all in one pass over the inputs (each word decomposed once by
# the oracle), in parallel over the cores, and this script keeps its
# output in a file. Needs a built tree at build/ci (cmake --build --preset ci --target prove_native).
# Usage: scripts/prove_native.sh [OUTPUT_FILE] [prove_native options and conversion names...]
#   OUTPUT_FILE defaults to prove_native-<UTC date>.txt; e.g.
#   scripts/prove_native.sh proof.txt --threads 2 fp32_to_bf16_rne fp32_to_fp16_rne
# Exits with prove_native's status: 0 all words equal, 1 a mismatch, 2 bad arguments.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/ci/oracle/prove_native
[[ -x $bin ]] || { echo "error: $bin not built (cmake --build --preset ci --target prove_native)" >&2; exit 2; }
out=${1:-prove_native-$(date -u +%Y%m%dT%H%M%SZ).txt}
shift $(( $# >= 1 ? 1 : 0 ))
{
  echo "# prove_native $*"
  echo "# commit $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown), host $(uname -n), $(nproc) cores"
} > "$out"
status=0
"$bin" "$@" >> "$out" || status=$?
echo "# exit status $status" >> "$out"
cat "$out"
exit "$status"
