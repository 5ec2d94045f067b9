#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 25, item 2: the one script of the GitHub action (action.yml; docs/GUIDE.md, "Gating a
# kernel in GitHub Actions"). Builds the suite unless one is given, builds the plugin, runs the
# suites, keeps the JSON, JUnit, HTML and Markdown outputs under one directory, appends the
# Markdown summary to $GITHUB_STEP_SUMMARY and names the files in $GITHUB_OUTPUT. Exits with
# `run`'s status (0 conforms, 1 failed or a CI gate failed, 2 usage or input error).
#
# Inputs (environment; action.yml maps its inputs onto them):
#   NINFER_PLUGIN          plugin library path or bundled plugin name (or NINFER_EXEC: a command)
#   NINFER_CONFORM         an installed ninfer-conform; empty: build it from NINFER_SOURCE
#   NINFER_SOURCE          the suite's source tree (default: this script's repository)
#   NINFER_BUILD_DIR       where to build the suite (default: $RUNNER_TEMP or /tmp, ninfer-conform-build)
#   NINFER_PLUGIN_TARGET   a CMake target of the caller's project to build first, in NINFER_PLUGIN_BUILD_DIR
#   NINFER_PLUGIN_BUILD_DIR  that project's build directory (default: build)
#   NINFER_PLUGIN_COMMAND  or a shell command that builds the plugin
#   NINFER_SUITES          suites, separated by spaces or commas (default: every suite)
#   NINFER_LEVEL           quick | full | exhaustive (default quick)
#   NINFER_BASELINE        waiver file;  NINFER_SEED: seed;  NINFER_PREVIOUS: an earlier JSON report
#   NINFER_FAIL_ON_STALE_WAIVERS  true: stale waivers fail the run
#   NINFER_OUT             output directory (default ninfer-conform-out);  NINFER_NAME: file stem (default conform)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${NINFER_OUT:-ninfer-conform-out}
name=${NINFER_NAME:-conform}
exe=${NINFER_CONFORM:-}

say() { printf 'ninfer-conform action: %s\n' "$*" >&2; }

# The suite: the given executable, or a Release build of the ninfer-conform target.
if [[ -z $exe ]]; then
  src=${NINFER_SOURCE:-$here}
  build=${NINFER_BUILD_DIR:-${RUNNER_TEMP:-/tmp}/ninfer-conform-build}
  say "building the suite from $src in $build"
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNINFER_BUILD_TESTS=OFF \
    -DNINFER_BUILD_BENCHMARKS=OFF -DNINFER_CUDA=OFF >&2
  cmake --build "$build" --target ninfer-conform >&2
  exe=$build/harness/ninfer-conform
fi
[[ -x $exe ]] || { say "no ninfer-conform at '$exe'"; exit 2; }

# The plugin: a target of the caller's CMake project, or a command.
if [[ -n ${NINFER_PLUGIN_TARGET:-} ]]; then
  say "building plugin target $NINFER_PLUGIN_TARGET"
  cmake --build "${NINFER_PLUGIN_BUILD_DIR:-build}" --target "$NINFER_PLUGIN_TARGET" >&2
elif [[ -n ${NINFER_PLUGIN_COMMAND:-} ]]; then
  say "building the plugin: $NINFER_PLUGIN_COMMAND"
  bash -c "$NINFER_PLUGIN_COMMAND" >&2
fi

args=(run)
if [[ -n ${NINFER_PLUGIN:-} ]]; then
  args+=(--plugin "$NINFER_PLUGIN")
elif [[ -n ${NINFER_EXEC:-} ]]; then
  args+=(--exec "$NINFER_EXEC")
else
  say "give a plugin (input plugin) or a command (input exec)"
  exit 2
fi
for s in ${NINFER_SUITES//,/ }; do args+=(--suite "$s"); done
args+=(--level "${NINFER_LEVEL:-quick}")
[[ -n ${NINFER_SEED:-} ]] && args+=(--seed "$NINFER_SEED")
[[ -n ${NINFER_BASELINE:-} ]] && args+=(--baseline "$NINFER_BASELINE")
[[ -n ${NINFER_PREVIOUS:-} ]] && args+=(--previous "$NINFER_PREVIOUS")
[[ ${NINFER_FAIL_ON_STALE_WAIVERS:-false} == true ]] && args+=(--fail-on-stale-waivers)
mkdir -p "$out"
json=$out/$name.json junit=$out/$name.xml html=$out/$name.html md=$out/$name.md
args+=(--report "$json" --junit "$junit" --summary-md "$md")

set +e
"$exe" "${args[@]}"
rc=$?
set -e
# The page of the report, whatever the verdict: a failing run's page is the one people open.
[[ -f $json ]] && "$exe" report --html "$html" "$json" >/dev/null
if [[ -n ${GITHUB_STEP_SUMMARY:-} && -f $md ]]; then
  cat "$md" >>"$GITHUB_STEP_SUMMARY"
fi
if [[ -n ${GITHUB_OUTPUT:-} ]]; then
  {
    echo "exit-code=$rc"
    echo "dir=$out"
    [[ -f $json ]] && echo "report=$json"
    [[ -f $junit ]] && echo "junit=$junit"
    [[ -f $html ]] && echo "html=$html"
    [[ -f $md ]] && echo "summary=$md"
  } >>"$GITHUB_OUTPUT"
fi
say "exit $rc; outputs in $out/"
exit "$rc"
