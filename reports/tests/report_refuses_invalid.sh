#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 25, item 3: `report --html` and `merge` refuse a document the shipped schema rejects
# ({"schema":"ninfer-conform/report/v2"} alone) with exit 2 and one line naming the file and the
# failed constraint, and write nothing.
#   report_refuses_invalid.sh EXE WORKDIR
set -uo pipefail
exe=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
printf '%s' '{"schema":"ninfer-conform/report/v2"}' >"$work/bare.json"
want="bare.json: not a valid report (report-v2.schema.json): /: required property \"kind\" is missing"
fail=0
check() {  # check NAME RC ERR OUTPUT_FILE
  [[ $2 == 2 ]] || { echo "FAIL: $1 exited $2, expected 2"; fail=1; }
  grep -qF -- "$want" <<<"$3" || { echo "FAIL: $1 said: $3"; fail=1; }
  [[ $(grep -c . <<<"$3") == 1 ]] || { echo "FAIL: $1 said more than one line: $3"; fail=1; }
  [[ ! -e $4 ]] || { echo "FAIL: $1 wrote $4"; fail=1; }
}
err=$("$exe" report --html "$work/page.html" "$work/bare.json" 2>&1 >/dev/null); rc=$?
check "report --html" "$rc" "$err" "$work/page.html"
err=$("$exe" merge --out "$work/merged.json" "$work/bare.json" 2>&1 >/dev/null); rc=$?
check "merge" "$rc" "$err" "$work/merged.json"
(( fail == 0 )) && echo "report --html and merge refuse the bare document: $want"
exit $fail
