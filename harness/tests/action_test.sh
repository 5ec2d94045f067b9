#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issues 25 (item 2) and 32 (item 2): scripts/action.sh, the script of action.yml, as GitHub runs
# it (a fake $GITHUB_STEP_SUMMARY, $GITHUB_OUTPUT, $GITHUB_ENV and $GITHUB_PATH): the reference
# plugin passes with every output kept; a mutant fails, and its summary names the rule it breaks;
# a plugin built by plugin-command runs; the key, setup (a prefix that holds this key's install: a
# cache hit, with the packages asked of a stand-in apt-get) and run steps apart; every output the
# script writes is declared in action.yml. The build from source: action_workflow_test.sh (long).
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
# The steps apart, as action.yml runs them: key, then setup on a prefix that holds this key's
# install (the CLI linked in, as a cache restore leaves it), then run from the prefix.
mkdir -p "$dir/bin" "$dir/prefix/bin"
printf '#!/bin/sh\necho "apt-get $*" >>"%s/apt.log"\n' "$dir" >"$dir/bin/apt-get" && chmod +x "$dir/bin/apt-get"
steps() {  # steps TAG STEP [VAR=VALUE...]: one step in the fake runner of TAG
  local tag=$1 step=$2
  shift 2
  touch "$tag.output" "$tag.env" "$tag.path" "$tag.summary"
  env -u NINFER_CONFORM PATH="$dir/bin:$PATH" GITHUB_OUTPUT="$dir/$tag.output" GITHUB_ENV="$dir/$tag.env" \
    GITHUB_PATH="$dir/$tag.path" GITHUB_STEP_SUMMARY="$dir/$tag.summary" NINFER_PREFIX="$dir/prefix" \
    NINFER_OUT="$dir/$tag" "$@" bash "$src/scripts/action.sh" "$step" >>"$tag.log" 2>&1
}
steps split key || { cat split.log; fail "key step failed"; }
key=$(sed -n 's/^cache-key=//p' split.output)
[[ $key == ninfer-conform-* ]] || fail "key step: cache-key '$key'"
grep -qx "prefix=$dir/prefix" split.output || fail "key step: no prefix output"
ln -s "$exe" "$dir/prefix/bin/ninfer-conform" && echo "$key" >"$dir/prefix/.ninfer-conform-key"
steps split setup || { cat split.log; fail "setup step failed on a cached prefix"; }
grep -q "cached: $dir/prefix holds $key" split.log || fail "setup step: no cache hit: $(cat split.log)"
grep -q "^apt-get install .*libmpfr-dev" apt.log || fail "setup step: the packages were not installed"
grep -qx "ninfer-conform=$dir/prefix/bin/ninfer-conform" split.output || fail "setup step: no ninfer-conform output"
grep -qx "CMAKE_PREFIX_PATH=$dir/prefix.*" split.env || fail "setup step: CMAKE_PREFIX_PATH not set for later steps"
grep -qx "$dir/prefix/bin" split.path || fail "setup step: the prefix's bin/ not on PATH for later steps"
rm apt.log
steps nodeps setup NINFER_INSTALL_DEPS=false || { cat nodeps.log; fail "setup with install-deps false failed"; }
[[ ! -e apt.log ]] || fail "install-deps false still ran apt-get"
steps split run NINFER_PLUGIN=reference NINFER_SUITES=scalar.decode NINFER_TIMEOUT_MS=20000 NINFER_MEMORY_LIMIT_MIB=0 ||
  { cat split.log; fail "run step from the prefix failed"; }
grep -q '"memory_limit_mib": 0' split/conform.json || fail "run step: memory-limit-mib 0 not passed on"
grep -q '"timeout_ms": 20000' split/conform.json || fail "run step: timeout-ms not passed on"

# Every output the script wrote, in every run above, is an output action.yml declares.
cat ./*.output | sed -n 's/=.*//p' | sort -u >written
python3 -c 'import sys, yaml; print("\n".join(sorted(yaml.safe_load(open(sys.argv[1]))["outputs"])))' \
  "$src/action.yml" >declared
undeclared=$(comm -23 written declared)
[[ -z $undeclared ]] || fail "outputs written but not declared in action.yml: $undeclared"
echo "action.sh: reference passes, the mutant fails naming its rule, plugin-command builds, no subject exits 2"
