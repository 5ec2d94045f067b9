#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The repository configures, builds, tests and runs from its own tree alone (README.md, "The spec,
# and a clone alone"): copies the tree (its git files, tracked and untracked-but-not-ignored; without
# git, everything but build/ and .git) into a fresh temporary directory with no ../shared beside
# it, and there
#   --configure-only   configures with the ci preset (seconds), asserts that no generated build
#                      file names a shared/ directory outside the copy (nor the original tree),
#                      and runs the tests that need no build: the ggml tables' parser passes,
#                      the ../shared comparisons report skipped (CTest label clone);
#   (default)          also builds ninfer-conform, its worker and the reference plugin and runs
#                      `run --plugin reference --level quick`, which must conform (CTest label
#                      long: minutes to tens of minutes; the ci test preset leaves it out).
# NINFER_CLONE_CMAKE_ARGS adds configure arguments (e.g. compiler launchers); TMPDIR places the
# copy; NINFER_KEEP_CLONE=1 keeps it. Exit 0 when everything held, 1 naming what did not.
set -euo pipefail
unset NINFER_SPEC_DIR NINFER_GGML_SOURCE  # a clone knows neither
src=$(cd "$(dirname "$0")/.." && pwd -P)
mode=full
case "${1:-}" in
  --configure-only) mode=configure ;;
  "") ;;
  *) echo "clone_alone.sh: unknown argument '$1' (expected --configure-only or nothing)" >&2; exit 2 ;;
esac

fail() { echo "clone_alone.sh: $*" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ninfer-clone.XXXXXX")
work=$(cd "$work" && pwd -P)
[[ ${NINFER_KEEP_CLONE:-0} == 1 ]] || trap 'rm -rf "$work"' EXIT
copy=$work/ninfer-conform
build=$copy/build/ci
mkdir "$copy"

# The files a clone has: git's view when the tree is a checkout, else the tree minus build/.
copy_tree() {
  if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1 &&
     [[ $(cd "$(git -C "$src" rev-parse --show-toplevel)" && pwd -P) == "$src" ]]; then
    (cd "$src" && git ls-files -z --cached --others --exclude-standard |
      while IFS= read -r -d '' f; do [[ -e $f || -L $f ]] && printf '%s\0' "$f"; done |
      tar --null -T - -cf -) | tar -xf - -C "$copy"
  else
    tar -C "$src" --exclude=./build --exclude=./.git -cf - . | tar -xf - -C "$copy"
  fi
}

# Every place outside the copy that a build file must not name.
forbidden_places() {
  printf '%s\n' "$work/shared" "$copy/../shared" "$src"
  [[ -e $src/../shared ]] && (cd "$src/../shared" && pwd -P)
  (cd "$src/.." && printf '%s\n' "$(pwd -P)/shared" "$(pwd -L)/shared")
}

check_no_outside_references() {
  local place hits
  while IFS= read -r place; do
    # the whole path, not a prefix of another name (a clone at /tmp/cc vs gcc's /tmp/ccXXXX.s)
    hits=$(grep -rIlP -- "\\Q$place\\E(?![A-Za-z0-9._-])" "$build" 2>/dev/null | head -3 || true)
    [[ -z $hits ]] || fail "the build files of the copy name $place: ${hits//$'\n'/, }"
  done < <(forbidden_places | sort -u)
}

# The tests that need no build: ctest's verdict on each, by name; nothing may fail.
check_unbuilt_tests() {
  local out
  out=$(cd "$build" && ctest -R 'ggml-tables|ggml_tables|every quote verbatim in the spec' 2>&1) ||
    fail "ctest in the copy failed: $(printf '%s' "$out" | grep -E 'Failed|Error' | head -3 | tr '\n' ' ')"
  grep -qE 'synthetic ggml-common.h \.+ +Passed' <<<"$out" || fail "the ggml tables' parser test did not pass in the copy"
  grep -qE 'has the tables of \.\./shared/data/ggml-tables.json \.+\*\*\*Skipped' <<<"$out" ||
    fail "the comparison with ../shared/data/ggml-tables.json was not skipped in the copy"
  grep -qE 'no \.\./shared/spec beside the source tree\) \.+\*\*\*Skipped' <<<"$out" ||
    fail "the spec quote test was not skipped in the copy"
}

copy_tree
[[ ! -e $work/shared ]] || fail "$work/shared exists beside the copy"
started=$SECONDS
read -r -a extra <<<"${NINFER_CLONE_CMAKE_ARGS:-}"
(cd "$copy" && cmake --preset ci -DNINFER_CUDA=OFF "${extra[@]}" \
  >"$work/configure.log" 2>&1) ||
  fail "configure failed in the copy: $(grep -m1 -A3 'CMake Error' "$work/configure.log" | tr -s ' \n' ' ')"
check_no_outside_references
check_unbuilt_tests
echo "clone_alone.sh: configured alone in $((SECONDS - started)) s; no build file names a shared/ outside the copy"
[[ $mode == configure ]] && exit 0

jobs=${NINFER_CLONE_JOBS:-$(nproc)}
cmake --build "$build" --target ninfer-conform ninfer-conform-worker reference -j "$jobs" >"$work/build.log" 2>&1 ||
  fail "the build failed in the copy: $(grep -m3 -E 'error|FAILED' "$work/build.log" | tr '\n' ' ')"
echo "clone_alone.sh: built ninfer-conform and the reference plugin alone in $((SECONDS - started)) s"
(cd "$copy" && "$build/harness/ninfer-conform" run --plugin reference --level quick \
  >"$work/run.txt" 2>&1) || fail "run --plugin reference --level quick failed in the copy: $(tail -3 "$work/run.txt" | tr '\n' ' ')"
echo "clone_alone.sh: run --plugin reference --level quick conforms from the copy; $((SECONDS - started)) s in all"
tail -3 "$work/run.txt"
