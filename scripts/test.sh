#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets everything up, builds with warnings as errors, and passes the tests (CTest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset ci
cmake --build --preset ci -j "$(nproc)"
ctest --preset ci -j "$(nproc)"
