#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The main job's one-screen summary says the job's verdict first (reports/tools/bundled_summary.py):
a caught mutant, an SR convention subject and a library subject passing on their own terms are
what the job expects; a missed mutant or a subject failing its own terms is a problem, and so is
a failing reference. Also: scripts/main.sh's terms (reports/tools/own_terms.py) for each kind."""
import json
import pathlib
import subprocess
import sys
import tempfile

SRC = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(SRC / "reports" / "tools"))
import own_terms  # noqa: E402


def report(passes, fails, failing_rules=(), unsupported=0):
    return {"level": "full", "seed": 1, "subject": {"version": "1"},
            "totals": {"cases": passes + fails + unsupported, "pass": passes, "fail": fails, "unsupported": unsupported},
            "rules": [{"id": r, "status": "fail", "first_failure": r + "/x"} for r in failing_rules]}


def summary(plugins):
    """(exit code, stdout) of the summary over (plugin entry, report, exit code) triples."""
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp)
        (out / "plugins.json").write_text(json.dumps({"plugins": [p for p, _, _ in plugins]}))
        for p, r, rc in plugins:
            (out / f"{p['name']}.json").write_text(json.dumps(r))
            (out / f"{p['name']}.exit").write_text(str(rc))
        res = subprocess.run([sys.executable, str(SRC / "reports/tools/bundled_summary.py"), str(out)],
                             capture_output=True, text=True)
        return res.returncode, res.stdout


def check(cond, what, text=""):
    if not cond:
        sys.exit(f"FAIL: {what}\n{text}")


good = [
    ({"name": "reference", "kind": "plugin"}, report(10, 0), 0),
    ({"name": "mutant_a", "kind": "mutant", "breaks": "convert.x"}, report(9, 1, ["convert.x"]), 1),
    ({"name": "sr_convention_pattern_add", "kind": "plugin"}, report(5, 0), 0),
    ({"name": "ecosystem_fp16", "kind": "plugin"}, report(5, 0), 0),
]
rc, text = summary(good)
check(rc == 0, "a job whose every subject did what it must is OK", text)
first = text.splitlines()[0]
check(first.startswith("ninfer-conform main job: OK (4 bundled plugins"), "the verdict comes first", text)
for line in ("  the reference: conforms", "  1 of 1 mutants caught by the rule each declares",
             "  1 of 1 SR convention subjects passing under their own --pin",
             "  1 of 1 library subjects passing on their own terms", "mutants caught: 1/1", "result: OK"):
    check(line in text, f"the summary says {line!r}", text)
check("conforms under its own pins" in text and "conforms on its own terms" in text, "each row names its terms", text)

for bad, why in ((({"name": "mutant_b", "kind": "mutant", "breaks": "convert.y"}, report(10, 0), 0), "a missed mutant"),
                 (({"name": "ecosystem_eigen", "kind": "plugin"}, report(4, 1, ["convert.z"]), 1), "a library failing its own terms"),
                 (({"name": "sr_convention_pattern_add", "kind": "plugin"}, report(4, 1, ["convert.s"]), 1), "a convention failing its pin")):
    rc, text = summary(good[:1] + [bad])
    check(rc == 1 and text.splitlines()[0].startswith("ninfer-conform main job: PROBLEMS"), f"{why} is a problem", text)
rc, text = summary([({"name": "reference", "kind": "plugin"}, report(9, 1, ["convert.r"]), 1)])
check(rc == 1, "a failing reference is a problem", text)

# The terms main.sh passes: pins of a convention (NAME:K, every sr conversion when none listed), points of a library.
terms = own_terms.load()
check(own_terms.run_args("reference", terms) == [] and own_terms.run_args("mutant_a", terms) == [], "no terms for the reference or a mutant")
check(own_terms.run_args("sr_convention_gfloat_stochastic", terms)[:2] == ["--pin", "convert.fp32_to_bf16_sr_satfinite=gfloat_stochastic:10"],
      "a convention with k pins NAME:K")
check(len(own_terms.run_args("sr_convention_pattern_add", terms)) == 10, "every sr conversion when none is listed")
check(own_terms.run_args("ecosystem_eigen", terms) == ["--policy", "convert.fp32_to_bf16_rne=rne/inf/kept/signed_canonical",
                                                       "--policy", "convert.fp32_to_fp16_rne=rne/inf/kept/signed_canonical"],
      "a library's points")
print("ok: the main job's summary says its verdict first and judges each subject on what it must do")
