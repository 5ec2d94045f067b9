#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The shown-output check can fail (issue 32, item 9): on a copy of the docs, a changed output
# line of a quick block and a console block showing output without a marker are each named,
# exit 1; the unchanged copy passes.
#   refresh_docs_stale_test.sh PYTHON EXE SOURCE_DIR SCRATCH
set -u
py=$1 exe=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work/docs" || exit 1
cp "$src/README.md" "$work/" && cp "$src/docs/GUIDE.md" "$src/docs/cli.md" "$work/docs/" || exit 1
ln -s "$src/harness" "$work/harness" && ln -s "$src/abi" "$work/abi" || exit 1
check() { "$py" "$src/scripts/refresh_docs.py" --check --quick --doc docs/cli.md "$exe" "$work"; }
fail=0
out=$(check) || { echo "the unchanged copy is stale:"; echo "$out"; fail=1; }
# A stale output: the oracle's tie answer flipped in the shown line.
sed -i '0,/"ties":\[true\]}/s//"ties":[false]}/' "$work/docs/cli.md"
out=$(check); rc=$?
[ $rc -eq 1 ] && grep -q "docs/cli.md:[0-9]*: shown output 'cli-oracle' is stale" <<<"$out" ||
    { echo "a changed output line passed (exit $rc):"; echo "$out"; fail=1; }
# An unmarked block that shows output.
cp "$src/docs/cli.md" "$work/docs/cli.md"
printf '\n```\n$ ninfer-conform --version\nninfer-conform 9.9.9\n```\n' >> "$work/docs/cli.md"
out=$(check); rc=$?
[ $rc -eq 1 ] && grep -q "has no <!-- output: NAME --> marker" <<<"$out" ||
    { echo "an unmarked output block passed (exit $rc):"; echo "$out"; fail=1; }
exit $fail
