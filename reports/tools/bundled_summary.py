#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""One-screen summary of the main job: every bundled plugin's report under a directory.

The reference plugin must pass; each mutant must fail on the rule it declares it breaks
(ninfer_mutant_breaks); other plugins (cuda_host) pass when their failures are waived by their
baseline. Exit 0 when all of that holds, 1 otherwise."""
import json
import pathlib
import sys


def main(out_dir: str) -> int:
    out = pathlib.Path(out_dir)
    plugins = json.loads((out / "plugins.json").read_text())["plugins"]
    ok = True
    rows = []
    for p in plugins:
        name = p["name"]
        report_path = out / f"{name}.json"
        exit_code = int((out / f"{name}.exit").read_text()) if (out / f"{name}.exit").exists() else -1
        if not report_path.exists():
            rows.append((name, "NO REPORT", f"exit {exit_code}"))
            ok = False
            continue
        r = json.loads(report_path.read_text())
        t = r["totals"]
        counts = f"{t['pass']} pass, {t['fail']} fail, {t['unsupported']} unsupported"
        extra = [f"{t[k]} {k}" for k in ("error", "crash", "timeout", "waived") if t.get(k)]
        counts += "".join(", " + e for e in extra)
        failing = {x["id"] for x in r["rules"] if x["status"] in ("fail", "error", "crash", "timeout")
                   and x.get("first_failure")}
        if p.get("kind") == "mutant":
            rule = p.get("breaks", "")
            if rule in failing:
                verdict = f"caught by {rule}"
                others = sorted(failing - {rule})
                if others:
                    verdict += f" (+{len(others)} more rules)"
            else:
                verdict = f"MISSED: {rule} did not fail"
                ok = False
        elif t["cases"] == t["unsupported"]:
            # nothing applicable: say so instead of calling it conformance (e.g. no CUDA device)
            why = r["subject"].get("version") or "no capability declared"
            verdict = "nothing tested: " + (why if len(why) <= 40 else why[:37] + "...")
            if name == "reference":
                ok = False
        else:
            if exit_code == 0:
                verdict = "conforms" + (f" ({t['waived']} waived departures)" if t.get("waived") else "")
            else:
                verdict = f"FAILS {len(failing)} rules: " + ", ".join(sorted(failing)[:4])
                if name == "reference":
                    ok = False
        rows.append((name, verdict, counts))
    width = max(len(r[0]) for r in rows) if rows else 10
    level = ""
    for p in plugins:
        rp = out / f"{p['name']}.json"
        if rp.exists():
            j = json.loads(rp.read_text())
            level = f"level {j['level']}, seed {j['seed']}"
            break
    print(f"ninfer-conform main job: {len(rows)} bundled plugins, {level}; reports in {out}/")
    for name, verdict, counts in rows:
        print(f"  {name:<{width}}  {verdict:<50}  {counts}")
    mutants = [r for r in rows if r[0].startswith("mutant_")]
    caught = [r for r in mutants if r[1].startswith("caught")]
    print(f"mutants caught: {len(caught)}/{len(mutants)}")
    print("result:", "OK" if ok else "PROBLEMS (see above)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "reports/out"))
