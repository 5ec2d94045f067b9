#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 24, item 1: `fingerprint` names numpy's fp32 -> fp16 (harness/examples/numpy_codec.py
# through the exec protocol): nearest-even, to infinity, subnormals kept, signalling NaNs kept.
# Exit 77 (skipped) when no Python with numpy is found, saying why.
# usage: fingerprint_numpy_test.sh NINFER_CONFORM SOURCE_DIR
set -u
exe=$1 src=$2
py=""
for candidate in /usr/bin/python3 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import numpy' >/dev/null 2>&1; then
        py=$(command -v "$candidate")
        break
    fi
done
if [ -z "$py" ]; then
    echo "skipped: no python3 with numpy (tried /usr/bin/python3 and python3 on PATH)"
    exit 77
fi
out=$("$exe" fingerprint --exec "$py $src/harness/examples/numpy_codec.py" --conversion fp32_to_fp16_rne --jobs 2)
rc=$?
echo "$out"
[ "$rc" -eq 0 ] || { echo "FAIL: exit $rc, expected 0"; exit 1; }
expected="convert fp32_to_fp16_rne (stratified domain): matches nearest-even, to infinity, subnormals kept, NaN payload and sign kept on 6 291 456 of 6 291 456 inputs"
grep -qxF "$expected" <<<"$out" || { echo "FAIL: expected the line: $expected"; exit 1; }
echo "ok"
