#!/usr/bin/env bash
# Cross-check the GGUF oracle against ggml's own dequantize_row_* (oracle/tools/ggml_crosscheck.cpp).
# Usage: scripts/ggml_crosscheck.sh GGML_SOURCE_DIR [BLOCKS_PER_TYPE] [extra C flags]
# Needs a configured and built tree at build/ci (cmake --preset ci && cmake --build --preset ci
# --target ninfer_oracle). Prints, per type, the values compared and the mismatches; exits 1 on any.
# NINFER_CROSSCHECK_TYPES=gguf_q1_0,gguf_mxfp4 checks only the named types.
set -euo pipefail
ggml=${1:?usage: $0 GGML_SOURCE_DIR [BLOCKS_PER_TYPE] [extra C flags]}
blocks=${2:-2000}
shift $(( $# >= 2 ? 2 : 1 ))
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$root/build/ci/oracle/libninfer_oracle.a
[[ -f $lib ]] || { echo "error: $lib not built (cmake --build --preset ci --target ninfer_oracle)" >&2; exit 2; }
[[ -f $ggml/src/ggml-quants.c ]] || { echo "error: $ggml/src/ggml-quants.c not found (a ggml source checkout expected)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -std=c11 -O2 "$@" -c -I"$ggml/include" -I"$ggml/src" "$ggml/src/ggml-quants.c" -o "$work/ggml-quants.o"
g++ -std=c++20 -O2 -I"$root/oracle/include" -I"$root/abi/include" "$root/oracle/tools/ggml_crosscheck.cpp" \
  "$work/ggml-quants.o" "$lib" -lmpfr -lgmp -lfmt -lm -o "$work/ggml_crosscheck"
echo "ggml: $(git -C "$ggml" rev-parse HEAD 2>/dev/null || echo "$ggml"), C flags: -std=c11 -O2 $*"
"$work/ggml_crosscheck" "$blocks"
