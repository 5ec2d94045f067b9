#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run_spec_tests.sh SPEC_DIR PROGRAM ARGS...: runs the suites tests that read the spec (CTest;
# suites/README.md, "The spec the rules quote") with NINFER_SPEC_DIR set to $NINFER_SPEC_DIR, else
# SPEC_DIR (the CMake cache variable). Where neither names a directory holding tensor-formats.txt,
# it says where it looked and exits 77, which CTest reports as skipped.
dir=${NINFER_SPEC_DIR:-$1}
shift
if [ -z "$dir" ]; then
  echo "skipped: no spec: NINFER_SPEC_DIR is unset (environment and CMake cache) and ../shared/spec is not beside the source tree"
  exit 77
fi
if [ ! -f "$dir/tensor-formats.txt" ]; then
  echo "skipped: no spec at $dir (no tensor-formats.txt there; set NINFER_SPEC_DIR to the spec directory)"
  exit 77
fi
NINFER_SPEC_DIR=$dir exec "$@"
