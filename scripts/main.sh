#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: set up, build, run the full suite against every bundled plugin, sweep one
# conversion, write the reports under reports/out/ with the HTML page reports/out/index.html,
# and print a one-screen summary.
#   NINFER_LEVEL=quick|full|exhaustive (default full), NINFER_SEED=N (default: the suite's seed)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset ci >/dev/null
cmake --build --preset ci -j "$(nproc)"

exe=build/ci/harness/ninfer-conform
out=reports/out
level=${NINFER_LEVEL:-full}
seed_args=()
[[ -n "${NINFER_SEED:-}" ]] && seed_args=(--seed "$NINFER_SEED")
mkdir -p "$out"
rm -f "$out"/*.json "$out"/*.xml "$out"/*.txt "$out"/*.html "$out"/*.exit

"$exe" plugins --json >"$out/plugins.json"
mapfile -t plugins < <(python3 -c 'import json,sys; [print(p["name"], p["path"]) for p in json.load(open(sys.argv[1]))["plugins"]]' "$out/plugins.json")

for entry in "${plugins[@]}"; do
  name=${entry%% *}
  path=${entry#* }
  args=(run --plugin "$path" --level "$level" "${seed_args[@]}" --report "$out/$name.json" --junit "$out/$name.xml")
  for b in gpu/baselines/"$name".json harness/baselines/"$name".json; do
    [[ -f $b ]] && args+=(--baseline "$b")
  done
  printf 'running %-40s ' "$name" >&2
  set +e
  "$exe" "${args[@]}" >"$out/$name.txt" 2>"$out/$name.stderr.txt"
  rc=$?
  set -e
  echo "exit $rc" >&2
  echo "$rc" >"$out/$name.exit"
done

# Sweeps for the page's plots: fp32 -> e5m2 over every word of exponent field 96..127 of each
# sign (2 x 2^28 words), against the mutant that rounds ties away from zero.
reports=()
for entry in "${plugins[@]}"; do reports+=("$out/${entry%% *}.json"); done
for half in positive:30000000 negative:b0000000; do
  name=sweep-fp32_to_e5m2-${half%%:*}
  printf 'sweeping fp32_to_e5m2_rne_satfinite from %s ' "${half#*:}" >&2
  set +e
  "$exe" sweep --plugin mutant_e5m2_ties_away --conversion fp32_to_e5m2_rne_satfinite --start "${half#*:}" \
    --count 268435456 --report "$out/$name.json" >"$out/$name.txt" 2>&1
  echo "exit $?" >&2
  set -e
  reports+=("$out/$name.json")
done
"$exe" report --html "$out/index.html" "${reports[@]}"

python3 reports/tools/bundled_summary.py "$out"
