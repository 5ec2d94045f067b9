#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 25, item 2: scripts/action.sh, the script of action.yml, as GitHub runs it (a fake
# $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT): the reference plugin passes with every output kept;
# a mutant fails, and its summary names the rule it breaks; a plugin built by plugin-command runs.
#   usage: action_test.sh NINFER_CONFORM_EXE SOURCE_DIR SCRATCH_DIR
set -euo pipefail
exe=$1 src=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }

# One run of the action's script in a fresh fake runner; prints its exit status.
action() {
  local tag=$1 rc
  shift
  : >"$tag.summary" && : >"$tag.output"
  set +e
  env GITHUB_STEP_SUMMARY="$dir/$tag.summary" GITHUB_OUTPUT="$dir/$tag.output" NINFER_CONFORM="$exe" \
    NINFER_OUT="$dir/$tag" "$@" bash "$src/scripts/action.sh" >"$tag.log" 2>&1
  rc=$?
  set -e
  echo "$rc"
}

rc=$(action ref NINFER_PLUGIN=reference NINFER_SUITES="scalar.decode,scalar.convert")
[[ $rc == 0 ]] || { cat ref.log; fail "reference: exit $rc, expected 0"; }
for f in conform.json conform.xml conform.html conform.md; do [[ -s ref/$f ]] || fail "reference: no ref/$f"; done
head -1 ref.summary | grep -q '^## ninfer-conform: PASS: reference ' || fail "reference: summary $(head -1 ref.summary)"
grep -qx "exit-code=0" ref.output || fail "reference: GITHUB_OUTPUT lacks exit-code=0"
grep -qx "report=$dir/ref/conform.json" ref.output || fail "reference: GITHUB_OUTPUT lacks the report"
grep -qx "html=$dir/ref/conform.html" ref.output || fail "reference: GITHUB_OUTPUT lacks the page"

rc=$(action mutant NINFER_PLUGIN=mutant_bf16_truncation NINFER_SUITES=scalar.convert)
[[ $rc == 1 ]] || { cat mutant.log; fail "mutant: exit $rc, expected 1"; }
for f in conform.json conform.xml conform.html conform.md; do [[ -s mutant/$f ]] || fail "mutant: no mutant/$f"; done
head -1 mutant.summary | grep -q '^## ninfer-conform: FAIL: mutant\\_bf16\\_truncation' || fail "mutant: summary $(head -1 mutant.summary)"
grep -q '^| `convert.fp32_to_bf16_rne` | fail |' mutant.summary || fail "mutant: summary lacks the rule it breaks"
grep -qx "exit-code=1" mutant.output || fail "mutant: GITHUB_OUTPUT lacks exit-code=1"

# plugin-command builds the README's minimal plugin; the action runs what it built.
rc=$(action built NINFER_PLUGIN="$dir/minimal.so" NINFER_SUITES=scalar.decode \
  NINFER_PLUGIN_COMMAND="cc -std=c11 -O1 -shared -fPIC -fvisibility=hidden -I'$src/abi/include' -o '$dir/minimal.so' '$src/harness/examples/minimal_plugin.c'")
[[ $rc == 0 ]] || { cat built.log; fail "plugin-command: exit $rc, expected 0"; }
[[ -s built/conform.json ]] || fail "plugin-command: no report"

# No subject: a usage error, nothing appended to the summary.
rc=$(action none)
[[ $rc == 2 ]] || fail "no plugin: exit $rc, expected 2"
[[ ! -s none.summary ]] || fail "no plugin: a summary was written"
echo "action.sh: reference passes, the mutant fails naming its rule, plugin-command builds, no subject exits 2"
