#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issues 25 (item 2) and 32 (item 2): the one script of the GitHub action (action.yml; docs/GUIDE.md,
# "Gating a kernel in GitHub Actions"), in three steps that action.yml runs in order:
#   key    the cache key of the suite's build: its commit (or a hash of its files), the runner's
#          image and architecture; writes cache-key and prefix to $GITHUB_OUTPUT
#   setup  installs the build's packages (apt, the runner's names; NINFER_INSTALL_DEPS=false skips
#          it), builds and installs the suite (CLI, CMake package, the bundled plugin reference and
#          the one NINFER_PLUGIN names, if it names one; they are part of the key) into the prefix
#          unless the prefix already holds this key's install (a cache hit), and makes it usable by
#          later steps: prefix and ninfer-conform outputs, NINFER_CONFORM_PREFIX and CMAKE_PREFIX_PATH
#          in $GITHUB_ENV, the prefix's bin/ in $GITHUB_PATH
#   run    configures your project against the prefix when plugin-build-dir is not configured yet,
#          builds the plugin, runs the suites, keeps the JSON, JUnit, HTML and Markdown outputs
#          under one directory, appends the Markdown summary to $GITHUB_STEP_SUMMARY, names the
#          files in $GITHUB_OUTPUT and exits with `run`'s status (0 conforms, 1 failed or a CI gate
#          failed, 2 usage or input error)
# Without an argument: setup, then run (what a local call wants). Every output name written here
# is declared in action.yml (harness/tests/action_test.sh checks it).
#
# Inputs (environment; action.yml maps its inputs onto them):
#   NINFER_CONFORM         an installed ninfer-conform; empty: build the suite from NINFER_SOURCE
#   NINFER_SOURCE          the suite's source tree (default: this script's repository)
#   NINFER_PREFIX          where the suite is installed (default: $RUNNER_TEMP or /tmp, /ninfer-conform)
#   NINFER_BUILD_DIR       where it is built (default: $RUNNER_TEMP or /tmp, /ninfer-conform-build)
#   NINFER_INSTALL_DEPS    true (default) installs the build's packages with apt-get (sudo when not root)
#   NINFER_PLUGIN          plugin library path or bundled plugin name (or NINFER_EXEC: a command)
#   NINFER_PLUGIN_TARGET   a CMake target of the caller's project to build first, in NINFER_PLUGIN_BUILD_DIR
#   NINFER_PLUGIN_BUILD_DIR  that project's build directory (default: build)
#   NINFER_PLUGIN_SOURCE_DIR that project's source directory, configured when the build directory is not (default: .)
#   NINFER_CMAKE_ARGS      more arguments of that configure (split on spaces)
#   NINFER_PLUGIN_COMMAND  or a shell command that builds the plugin
#   NINFER_SUITES          suites, separated by spaces or commas (default: every suite)
#   NINFER_LEVEL           quick | full | exhaustive (default quick)
#   NINFER_BASELINE        waiver file;  NINFER_SEED: seed;  NINFER_PREVIOUS: an earlier JSON report
#   NINFER_FAIL_ON_STALE_WAIVERS  true: stale waivers fail the run
#   NINFER_MEMORY_LIMIT_MIB  the subject's address-space limit (0: none, for device plugins)
#   NINFER_TIMEOUT_MS      time limit of one call
#   NINFER_OUT             output directory (default ninfer-conform-out);  NINFER_NAME: file stem (default conform)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
src=${NINFER_SOURCE:-$here}
tmp=${RUNNER_TEMP:-/tmp}
prefix=${NINFER_PREFIX:-$tmp/ninfer-conform}
# What a stock ubuntu-latest runner lacks to build the suite (scripts/setup.sh has the same names
# for Debian 12, with the test tools besides).
deps=(build-essential cmake ninja-build pkg-config libmpfr-dev libgmp-dev libboost-dev nlohmann-json3-dev
  libcli11-dev libfmt-dev libssl-dev)

say() { printf 'ninfer-conform action: %s\n' "$*" >&2; }
output() { [[ -z ${GITHUB_OUTPUT:-} ]] || echo "$1=$2" >>"$GITHUB_OUTPUT"; }

# The suite's identity: its commit when it is a clean git checkout, else a hash of its files (an
# action is downloaded as a tarball, without .git).
source_id() {
  if git -C "$src" rev-parse --verify -q HEAD >/dev/null 2>&1 && [[ -z $(git -C "$src" status --porcelain 2>/dev/null) ]]; then
    git -C "$src" rev-parse HEAD
  else
    (cd "$src" && find . -path ./build -prune -o -path ./.git -prune -o -path ./reports/out -prune -o -type f -print0 |
      LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-40)
  fi
}

# The bundled plugins built: reference, and the one `plugin` names when it is a bundled name.
bundled_plugins() {
  local p=${NINFER_PLUGIN:-}
  echo reference
  [[ -n $p && $p != reference && $p != */* && $p != *.* ]] && echo "$p"
  return 0
}

cache_key() {
  local plugins
  plugins=$(bundled_plugins | paste -sd+)
  echo "ninfer-conform-${ImageOS:-$(uname -s)}-${RUNNER_ARCH:-$(uname -m)}-$(source_id)-$plugins"
}

step_key() {
  local key
  key=$(cache_key)
  output cache-key "$key"
  output prefix "$prefix"
  say "cache key $key, prefix $prefix"
}

install_deps() {
  [[ ${NINFER_INSTALL_DEPS:-true} == true ]] || { say "install-deps false: the build's packages are yours to install"; return; }
  local sudo=()
  ((EUID == 0)) || sudo=(sudo)
  say "installing ${deps[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${deps[@]}" >&2
}

# The suite in the prefix: given, cached (the prefix holds this key's install), or built now.
step_setup() {
  local exe=${NINFER_CONFORM:-} key build
  if [[ -z $exe ]]; then
    key=$(cache_key)
    exe=$prefix/bin/ninfer-conform
    # The CLI links MPFR, GMP, fmt and OpenSSL: a cached install needs the packages too.
    install_deps
    if [[ -x $exe && $(cat "$prefix/.ninfer-conform-key" 2>/dev/null) == "$key" ]]; then
      say "cached: $prefix holds $key"
    else
      build=${NINFER_BUILD_DIR:-$tmp/ninfer-conform-build}
      mapfile -t plugins < <(bundled_plugins)
      say "building the suite from $src in $build (CLI, CMake package, plugins ${plugins[*]}), installing into $prefix"
      cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNINFER_BUILD_TESTS=OFF \
        -DNINFER_BUILD_BENCHMARKS=OFF -DNINFER_CUDA=OFF >&2
      # What `cmake --install` takes: the CLI, its manual page, the libraries of the -dev package,
      # and the plugins asked for (the others, mutants above all, are installed only when built).
      cmake --build "$build" --target ninfer-conform ninfer_man_page ninfer_oracle ninfer_native ninfer_suites \
        ninfer_vectors ninfer_reports ninfer_harness ninfer_reference "${plugins[@]}" >&2
      rm -rf "$prefix"
      cmake --install "$build" --prefix "$prefix" >&2
      echo "$key" >"$prefix/.ninfer-conform-key"
    fi
    [[ -z ${GITHUB_ENV:-} ]] || {
      echo "NINFER_CONFORM_PREFIX=$prefix"
      echo "CMAKE_PREFIX_PATH=$prefix${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
    } >>"$GITHUB_ENV"
    [[ -z ${GITHUB_PATH:-} ]] || echo "$prefix/bin" >>"$GITHUB_PATH"
    output prefix "$prefix"
  fi
  [[ -x $exe ]] || { say "no ninfer-conform at '$exe'"; exit 2; }
  output ninfer-conform "$exe"
  NINFER_CONFORM=$exe
}

# The plugin: a target of the caller's CMake project (configured here against the prefix when it
# is not yet), or a command.
build_plugin() {
  local dir=${NINFER_PLUGIN_BUILD_DIR:-build} args
  if [[ -n ${NINFER_PLUGIN_TARGET:-} ]]; then
    if [[ ! -f $dir/CMakeCache.txt ]]; then
      read -r -a args <<<"${NINFER_CMAKE_ARGS:-}"
      say "configuring ${NINFER_PLUGIN_SOURCE_DIR:-.} in $dir against $prefix"
      cmake -S "${NINFER_PLUGIN_SOURCE_DIR:-.}" -B "$dir" "-DCMAKE_PREFIX_PATH=$prefix${CMAKE_PREFIX_PATH:+;$CMAKE_PREFIX_PATH}" \
        "${args[@]}" >&2
    fi
    say "building plugin target $NINFER_PLUGIN_TARGET"
    cmake --build "$dir" --target "$NINFER_PLUGIN_TARGET" >&2
  elif [[ -n ${NINFER_PLUGIN_COMMAND:-} ]]; then
    say "building the plugin: $NINFER_PLUGIN_COMMAND"
    bash -c "$NINFER_PLUGIN_COMMAND" >&2
  fi
}

step_run() {
  local exe=${NINFER_CONFORM:-$prefix/bin/ninfer-conform} out=${NINFER_OUT:-ninfer-conform-out} name=${NINFER_NAME:-conform}
  local args=(run) rc
  [[ -x $exe ]] || { say "no ninfer-conform at '$exe' (run the setup step first)"; exit 2; }
  if [[ -n ${NINFER_PLUGIN:-} ]]; then
    args+=(--plugin "$NINFER_PLUGIN")
  elif [[ -n ${NINFER_EXEC:-} ]]; then
    args+=(--exec "$NINFER_EXEC")
  else
    say "give a plugin (input plugin) or a command (input exec)"
    exit 2
  fi
  build_plugin
  for s in ${NINFER_SUITES//,/ }; do args+=(--suite "$s"); done
  args+=(--level "${NINFER_LEVEL:-quick}")
  [[ -n ${NINFER_SEED:-} ]] && args+=(--seed "$NINFER_SEED")
  [[ -n ${NINFER_BASELINE:-} ]] && args+=(--baseline "$NINFER_BASELINE")
  [[ -n ${NINFER_PREVIOUS:-} ]] && args+=(--previous "$NINFER_PREVIOUS")
  [[ ${NINFER_FAIL_ON_STALE_WAIVERS:-false} == true ]] && args+=(--fail-on-stale-waivers)
  [[ -n ${NINFER_MEMORY_LIMIT_MIB:-} ]] && args+=(--memory-limit-mib "$NINFER_MEMORY_LIMIT_MIB")
  [[ -n ${NINFER_TIMEOUT_MS:-} ]] && args+=(--timeout-ms "$NINFER_TIMEOUT_MS")
  mkdir -p "$out"
  local json=$out/$name.json junit=$out/$name.xml html=$out/$name.html md=$out/$name.md
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
  output exit-code "$rc"
  output dir "$out"
  [[ -f $json ]] && output report "$json"
  [[ -f $junit ]] && output junit "$junit"
  [[ -f $html ]] && output html "$html"
  [[ -f $md ]] && output summary "$md"
  say "exit $rc; outputs in $out/"
  return "$rc"
}

case ${1:-all} in
  key) step_key ;;
  setup) step_setup ;;
  run) step_run ;;
  all) step_setup; step_run ;;  # not &&: errexit holds in each
  *) say "unknown step '$1' (expected key, setup or run)"; exit 2 ;;
esac
