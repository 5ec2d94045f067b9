#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 32, item 2: the README's GitHub Actions workflow, verbatim (README.md's yaml block under
# "Gate a kernel in CI"), run by harness/tests/fake_runner.py as a stock runner would: the action
# of this repository installs the build's packages (apt-get is a stand-in that records them: each
# must be a real package, installed here by scripts/setup.sh), builds the suite from source with
# no ninfer-conform given, caches the install, configures the workflow's project (the README's
# CMake block and a my_plugin.c) against it, builds and runs the plugin. A correct plugin: the job
# is green; a broken one (bf16 widened by 15 bits): red, reports uploaded, and the second job
# restores the suite from the cache instead of building it. Prints both jobs' times.
#   usage: action_workflow_test.sh SOURCE_DIR SCRATCH_DIR [PYTHON]
set -euo pipefail
src=$1 dir=$2 py=${3:-python3}
rm -rf "$dir" && mkdir -p "$dir/bin" "$dir/cache" "$dir/action"
# The action as GitHub downloads it: the repository's files without .git (nor a build tree).
tar -C "$src" --exclude=./build --exclude=./.git --exclude=./reports/out -cf - . | tar -C "$dir/action" -xf -
fail() { echo "FAIL: $*" >&2; exit 1; }
cat >"$dir/bin/apt-get" <<STUB
#!/bin/sh
echo "apt-get \$*" >>"$dir/apt.log"
STUB
chmod +x "$dir/bin/apt-get"

# The README's blocks, read now.
block=$("$py" - "$src/README.md" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
section = text[text.index("## Gate a kernel in CI"):]
print(re.search(r"```cmake\n(.*?)```", section, re.S).group(1), end="")
PY
)
n=$("$py" - "$src/README.md" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
at = text.index("## Gate a kernel in CI")
print(len(re.findall(r"^```ya?ml$", text[:at], re.M)) + 1)  # the first yaml block of the section
PY
)
good=$(cat "$src/harness/examples/minimal_plugin.c")
bad=${good//<< 16, 4)/<< 15, 4)}
[[ $bad != "$good" ]] || fail "minimal_plugin.c: no '<< 16, 4)' to break"

# One job of the README's workflow in a fresh runner (its own temp directory; the cache shared).
job() {
  local tag=$1 plugin=$2 t0 rc
  mkdir -p "$dir/$tag/ws"
  printf '%s' "$block" >"$dir/$tag/ws/CMakeLists.txt"
  printf '%s\n' "$plugin" >"$dir/$tag/ws/my_plugin.c"
  t0=$(date +%s)
  set +e
  PATH="$dir/bin:$PATH" "$py" "$src/harness/tests/fake_runner.py" "$src/README.md#$n" conform "$dir/$tag/ws" "$dir/action" \
    "$dir/cache" >"$dir/$tag.log" 2>&1
  rc=$?
  set -e
  echo "$tag: exit $rc in $(($(date +%s) - t0)) s" >>"$dir/times"
  echo "$rc"
}

rc=$(job cold "$good")
[[ $rc == 0 ]] || { tail -40 "$dir/cold.log"; fail "the README's workflow, correct plugin: exit $rc, expected a green job"; }
grep -q "cache miss" "$dir/cold.log" || fail "the first job did not miss the cache"
grep -q "cache saved" "$dir/cold.log" || fail "the first job did not save the suite in the cache"
grep -q "building the suite from" "$dir/cold.log" || fail "the first job did not build the suite"
grep -q "configuring . in build against" "$dir/cold.log" || fail "the action did not configure the project"
for p in build-essential cmake ninja-build pkg-config libmpfr-dev libgmp-dev libboost-dev nlohmann-json3-dev \
  libcli11-dev libfmt-dev libssl-dev; do
  grep -q "^apt-get install .* $p\b" "$dir/apt.log" || fail "apt-get was not asked for $p: $(cat "$dir/apt.log")"
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || fail "$p is not a package installed here"
done
"$py" - "$dir/cold/outputs.json" "$dir/cold/runner-temp/ninfer-conform" <<'PY' || fail "the action's outputs"
import json, sys
o = json.load(open(sys.argv[1]))
want = {"exit-code": "0", "prefix": sys.argv[2], "ninfer-conform": sys.argv[2] + "/bin/ninfer-conform",
        "report": "ninfer-conform-out/conform.json", "html": "ninfer-conform-out/conform.html"}
bad = {k: (o.get(k), v) for k, v in want.items() if o.get(k) != v}
empty = [k for k, v in o.items() if not v]
if bad or empty:
    sys.exit(f"outputs differ {bad}, empty {empty}: {o}")
PY
passed() { "$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["passed"])' "$1"; }
[[ $(passed "$dir/cold/artifacts/ninfer-conform/conform.json") == True ]] || fail "the uploaded report did not pass"

rc=$(job cached "$bad")
[[ $rc == 1 ]] || { tail -40 "$dir/cached.log"; fail "the README's workflow, broken plugin: exit $rc, expected a red job"; }
grep -q "cache hit" "$dir/cached.log" || fail "the second job did not restore the suite from the cache"
grep -q "building the suite from" "$dir/cached.log" && fail "the second job built the suite again"
[[ $(passed "$dir/cached/artifacts/ninfer-conform/conform.json") == False ]] || fail "the broken plugin's report passed"
grep -q '"exit-code": "1"' "$dir/cached/outputs.json" || fail "the second job's exit-code output: $(cat "$dir/cached/outputs.json")"
grep -q "convert.bf16_to_fp32" "$dir/cached/artifacts/ninfer-conform/conform.md" || fail "the uploaded summary lacks the rule"
grep -q "convert.bf16_to_fp32" "$dir/cached/step-summary.md" || fail "the job summary lacks the rule"
cat "$dir/times"
echo "the README's workflow: green on a correct plugin (suite built, cached), red on a broken one (suite from the cache)"
