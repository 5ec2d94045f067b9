#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""One-screen summary of the main job: every bundled plugin's report under a directory, the job's
verdict first.

What each bundled subject must do for the job to be OK: the reference plugin conforms; each
mutant fails the rule it declares it breaks (ninfer_mutant_breaks), which is the expected outcome,
not a failure of the job; each SR convention subject and each ecosystem subject passes on its own
terms (harness/plugins/own_terms.json: its pins or lattice points, which scripts/main.sh passed);
other plugins (cuda_host) pass when their failures are waived by their baseline. Exit 0 when all
of that holds, 1 otherwise."""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import own_terms  # noqa: E402


def verdict_of(p, r, exit_code, terms):
    """(group, verdict, ok) of one plugin's report: what it had to do and whether it did."""
    name = p["name"]
    t = r["totals"]
    failing = {x["id"] for x in r["rules"] if x["status"] in ("fail", "error", "crash", "timeout") and x.get("first_failure")}
    kind = own_terms.kind_of(name, terms)
    if p.get("kind") == "mutant":
        rule = p.get("breaks", "")
        if rule not in failing:
            return "mutant", f"MISSED: {rule} did not fail", False
        others = sorted(failing - {rule})
        return "mutant", f"caught by {rule}" + (f" (+{len(others)} more rules)" if others else ""), True
    if t["cases"] == t["unsupported"]:
        # nothing applicable: say so instead of calling it conformance (e.g. no CUDA device)
        why = r["subject"].get("version") or "no capability declared"
        return ("reference" if name == "reference" else kind or "other",
                "nothing tested: " + (why if len(why) <= 40 else why[:37] + "..."), name != "reference")
    group = "reference" if name == "reference" else kind or "other"
    terms_note = {"convention": " under its own pins", "ecosystem": " on its own terms"}.get(kind, "")
    if exit_code == 0:
        return group, "conforms" + terms_note + (f" ({t['waived']} waived departures)" if t.get("waived") else ""), True
    return group, f"FAILS{terms_note} {len(failing)} rules: " + ", ".join(sorted(failing)[:4]), group == "other"


def main(out_dir: str) -> int:
    out = pathlib.Path(out_dir)
    plugins = json.loads((out / "plugins.json").read_text())["plugins"]
    terms = own_terms.load()
    rows, level = [], ""
    for p in plugins:
        name = p["name"]
        report_path = out / f"{name}.json"
        exit_code = int((out / f"{name}.exit").read_text()) if (out / f"{name}.exit").exists() else -1
        if not report_path.exists():
            rows.append((name, "no report", "NO REPORT", f"exit {exit_code}", False))
            continue
        r = json.loads(report_path.read_text())
        level = level or f"level {r['level']}, seed {r['seed']}"
        t = r["totals"]
        counts = f"{t['pass']} pass, {t['fail']} fail, {t['unsupported']} unsupported"
        counts += "".join(f", {t[k]} {k}" for k in ("error", "crash", "timeout", "waived") if t.get(k))
        group, verdict, fine = verdict_of(p, r, exit_code, terms)
        rows.append((name, group, verdict, counts, fine))
    ok = all(r[4] for r in rows)

    def tally(group):
        mine = [r for r in rows if r[1] == group]
        return sum(r[4] for r in mine), len(mine)

    lines = [f"ninfer-conform main job: {'OK' if ok else 'PROBLEMS'} ({len(rows)} bundled plugins, {level}; reports in {out}/)"]
    ref = [r for r in rows if r[0] == "reference"]
    lines.append("  the reference: " + (ref[0][2] if ref else "MISSING"))
    for group, text in (("mutant", "mutants caught by the rule each declares (their failures are the expected outcome)"),
                        ("convention", "SR convention subjects passing under their own --pin"),
                        ("ecosystem", "library subjects passing on their own terms, --policy (docs/ECOSYSTEM.md)")):
        good, n = tally(group)
        if n:
            lines.append(f"  {good} of {n} {text}")
    for r in rows:
        if r[1] in ("other", "no report"):
            lines.append(f"  {r[0]}: {r[2]}")
    width = max(len(r[0]) for r in rows) if rows else 10
    lines.append("per plugin:")
    lines += [f"  {name:<{width}}  {verdict:<50}  {counts}" for name, _, verdict, counts, _ in rows]
    good, n = tally("mutant")
    lines.append(f"mutants caught: {good}/{n}")
    lines.append("result: " + ("OK" if ok else "PROBLEMS (see above)"))
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "reports/out"))
