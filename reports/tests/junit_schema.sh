#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 25, item 4: the JUnit XML validates against Jenkins' xunit schema (reports/schema/junit-10.xsd)
# and its root agrees with its suites, for a passing run, a failing run, the same run with every
# failure waived by a baseline, and the approval baselines (a crash, an error, a timeout-free mix,
# operators, fingerprints). Exit 77 (skipped) without xmllint.
#   junit_schema.sh EXE XSD WORKDIR BASELINE_DIR
set -euo pipefail
exe=$1 xsd=$2 work=$3 baselines=$4
command -v xmllint >/dev/null || { echo "SKIP: no xmllint (scripts/setup.sh installs libxml2-utils)"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
run() {  # run EXPECTED_EXIT NAME ARGS...: a run of the CLI that must exit EXPECTED_EXIT
  local want=$1 name=$2; shift 2
  set +e
  "$exe" run "$@" --report "$work/$name.json" --junit "$work/$name.xml" >"$work/$name.txt" 2>&1
  local rc=$?
  set -e
  [[ $rc == "$want" ]] || { echo "FAIL: run $name exited $rc, expected $want"; cat "$work/$name.txt"; exit 1; }
}
run 0 pass --plugin reference --suite scalar.decode --level quick
run 1 fail --plugin mutant_bf16_truncation --suite scalar.convert --level quick
# A baseline that waives every failing case of the failing run.
python3 - "$work/fail.json" "$work/waivers.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
w = [{"rule": c["rule"], "case": c["id"], "reason": "known truncation"} for c in r["cases"]
     if c["status"] in ("fail", "error", "crash", "timeout")]
assert w, "the failing run failed no case"
json.dump({"version": 1, "waivers": w}, open(sys.argv[2], "w"))
PY
run 0 waived --plugin mutant_bf16_truncation --suite scalar.convert --level quick --baseline "$work/waivers.json"
fail=0
for x in "$work/pass.xml" "$work/fail.xml" "$work/waived.xml" "$baselines"/*.junit.xml; do
  xmllint --noout --schema "$xsd" "$x" 2>"$work/xmllint.txt" || { echo "FAIL: $x does not validate"; cat "$work/xmllint.txt"; fail=1; }
done
# The root's counts and time are its suites' sums; a waived run fails nothing and skips its waivers.
python3 - "$work/pass.xml" "$work/fail.xml" "$work/waived.xml" "$baselines"/*.junit.xml <<'PY' || fail=1
import sys, xml.dom.minidom
bad = 0
for path in sys.argv[1:]:
    root = xml.dom.minidom.parse(path).documentElement
    suites = root.getElementsByTagName("testsuite")
    cases = root.getElementsByTagName("testcase")
    for k in ("tests", "failures", "errors"):
        if int(root.getAttribute(k)) != sum(int(s.getAttribute(k)) for s in suites):
            print(f"FAIL: {path}: the root's {k} is not its suites' sum"); bad = 1
    if abs(float(root.getAttribute("time")) - sum(float(s.getAttribute("time")) for s in suites)) > 1e-9:
        print(f"FAIL: {path}: the root's time is not its suites' sum"); bad = 1
    if any(not c.hasAttribute("time") for c in cases):
        print(f"FAIL: {path}: a testcase without time"); bad = 1
    if path.endswith("/waived.xml"):
        skipped = [c for c in cases if c.getElementsByTagName("skipped")]
        msgs = [c.getElementsByTagName("skipped")[0].getAttribute("message") for c in skipped]
        if root.getAttribute("failures") != "0" or not any(m.startswith("waived (fail): known truncation") for m in msgs):
            print(f"FAIL: {path}: waived failures are not skipped with their reason"); bad = 1
        if sum(int(s.getAttribute("skipped")) for s in suites) != len(skipped):
            print(f"FAIL: {path}: the suites' skipped counts are not their skipped cases"); bad = 1
    if path.endswith("/fail.xml") and root.getAttribute("failures") == "0":
        print(f"FAIL: {path}: the failing run counts no failure"); bad = 1
sys.exit(bad)
PY
(( fail == 0 )) || exit 1
echo "JUnit validates against $(basename "$xsd"): pass, fail, waived and $(ls "$baselines"/*.junit.xml | wc -l) approval baselines"
