#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 32, item 9: regenerate every marked console block of README.md, docs/GUIDE.md and
# docs/cli.md from a real run of the CLI built in BUILD (default build/cpu), then show the diff.
#   scripts/refresh_docs.sh [BUILD]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build/cpu}
python3 "$src/scripts/refresh_docs.py" "$build/harness/ninfer-conform" "$src"
git -C "$src" diff --stat -- README.md docs/GUIDE.md docs/cli.md
