#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The proof that a change moved code and nothing else (issue 23): the same reports, vectors and
# listings before and after, byte for byte, timings and temporary paths aside.
#   scripts/same_reports.sh snapshot DIR   run the main job (scripts/main.sh) and keep, under DIR,
#                                          its reports and the CLI's listings, normalized
#   scripts/same_reports.sh compare A B    diff two snapshots; exit 1 on any difference
#   scripts/report_classes.py A B [WORKTREE...]  where they differ: every difference classified
#                                          (a JSON path or a generalized line), counted, one file named
# A cheaper snapshot, for a shared machine: NINFER_SAME_PLUGINS="reference mutant_x ..." runs only
# those plugins (as the main job runs each, one after another, without the sweeps and the page) at
# NINFER_LEVEL (default full), with the CLI of NINFER_BUILD (default build/ci, built beforehand).
# NINFER_BUILD without NINFER_SAME_PLUGINS: the whole main job with that build (main.sh builds nothing).
# Normalized away: started_at, finished_at, duration_s, the case cache's temporary directory and
# the id of its per-job key (JSON); time= and timestamp= (JUnit); lines with seconds or words/s
# (summaries, progress).
set -euo pipefail
cd "$(dirname "$0")/.."
case ${1:-} in
snapshot)
  dir=${2:?usage: same_reports.sh snapshot DIR}
  rm -rf "$dir"; mkdir -p "$dir/reports" "$dir/cli"
  exe=${NINFER_BUILD:-build/ci}/harness/ninfer-conform
  if [[ -z ${NINFER_SAME_PLUGINS:-} ]]; then
    bash scripts/main.sh >"$dir/main.stdout" 2>"$dir/main.stderr"
  else
    out=reports/out
    mkdir -p "$out"
    rm -f "$out"/*.json "$out"/*.xml "$out"/*.txt "$out"/*.exit
    cache=$(mktemp -d "$out/.cases.XXXXXX"); keydir=$(mktemp -d "$out/.cache-key.XXXXXX")
    trap 'rm -rf "$cache" "$keydir"' EXIT
    "$exe" plugins --json >"$out/plugins.json"
    for name in $NINFER_SAME_PLUGINS; do
      path=$(python3 -c 'import json,sys; print(next(p["path"] for p in json.load(open(sys.argv[1]))["plugins"] if p["name"] == sys.argv[2]))' "$out/plugins.json" "$name")
      args=(run --plugin "$path" --level "${NINFER_LEVEL:-full}" --case-cache "$cache" --case-cache-key "$keydir/case-cache.key"
            --report "$out/$name.json" --junit "$out/$name.xml")
      for b in gpu/baselines/"$name".json harness/baselines/"$name".json; do [[ -f $b ]] && args+=(--baseline "$b"); done
      rc=0; "$exe" "${args[@]}" >"$out/$name.txt" 2>"$out/$name.stderr.txt" || rc=$?
      echo "$rc" >"$out/$name.exit"
    done
  fi
  "$exe" list --json >"$dir/cli/list.json"
  "$exe" rules --json >"$dir/cli/rules.json"
  "$exe" coverage >"$dir/cli/coverage.txt" || true
  "$exe" plugins --json >"$dir/cli/plugins.json"
  "$exe" generate --out "$dir/vectors" >/dev/null
  python3 - "$dir" <<'PY'
import json, os, re, shutil, sys
dir = sys.argv[1]
out = "reports/out"
for name in sorted(os.listdir(out)):
    src = os.path.join(out, name)
    if not os.path.isfile(src):
        continue
    dst = os.path.join(dir, "reports", name)
    if name.endswith(".json"):
        d = json.load(open(src))
        for k in ("started_at", "finished_at", "duration_s"):
            d.pop(k, None)
        if isinstance(d.get("options"), dict) and isinstance(d["options"].get("case_cache"), dict):
            d["options"]["case_cache"].pop("dir", None)
            d["options"]["case_cache"].pop("key_id", None)
        json.dump(d, open(dst, "w"), indent=1, sort_keys=False)
    elif name.endswith(".xml"):
        t = open(src).read()
        t = re.sub(r'(time|timestamp)="[^"]*"', r'\1=""', t)
        open(dst, "w").write(t)
    elif name.endswith(".txt"):
        t = open(src).read().splitlines()
        t = [l for l in t if not re.search(r"\d+(\.\d+)? ?(s|ms|min)\b|words/s", l)]
        open(dst, "w").write("\n".join(t) + "\n")
    elif name.endswith(".exit"):
        shutil.copy(src, dst)
PY
  echo "snapshot in $dir"
  ;;
compare)
  a=${2:?usage: same_reports.sh compare A B}; b=${3:?usage: same_reports.sh compare A B}
  if diff -r -q "$a/reports" "$b/reports" && diff -r -q "$a/cli" "$b/cli" && diff -r -q "$a/vectors" "$b/vectors"; then
    echo "same reports, listings and vectors: $(ls "$a/reports" | wc -l) report files, $(ls "$a/vectors" | wc -l) vector files"
  else
    echo "the snapshots differ (diff -r $a $b shows where)" >&2
    exit 1
  fi
  ;;
*)
  echo "usage: same_reports.sh snapshot DIR | compare A B" >&2
  exit 2
  ;;
esac
