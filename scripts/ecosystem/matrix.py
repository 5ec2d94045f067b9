#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The conformance matrix of the ecosystem (docs/ECOSYSTEM.md), generated from real runs.

For every ecosystem subject (the libraries scripts/ecosystem/install.sh installs, the bundled
adapters of harness/plugins/ecosystem/, numpy through the README's codec, NVIDIA's host
conversions where gpu/ was built) this script runs

    ninfer-conform run --level full --suite ... --report R.json          (its own fingerprints of what fails)
    ninfer-conform fingerprint --all --json F.json       (every 8/16-bit source word; fp32: the stratified sample)
    ninfer-conform run --level full --policy convert.C=POINT ...   (each failing conversion judged by the
                                                         point its fingerprint names)
    ninfer-conform sweep --conversion C --jobs 2         (all 2^32 inputs of each fp32-source conversion of a
                                                         library plugin: about 10 s each)

and writes one row per conversion (or GGUF op) the subject declares: the policy the fingerprint
names, the registry conversion that is that policy (if any), the verdict of the run against the
conversion the subject declared, the first mismatch, and what the failure is: a policy difference
(the subject implements another lattice point, or only a NaN profile rule fails) or a bug (the
fingerprint keeps a residue) or a subject that answers one input two ways (the run's own fingerprint
says "not deterministic"). The rows replace the block between the two markers of the doc.

    matrix.py EXE SOURCE_DIR                    rewrite docs/ECOSYSTEM.md's generated block
    matrix.py --check [--quick] EXE SOURCE_DIR  exit 1 (with a diff) when the block is not what the runs give;
                                                --quick: every column but the 2^32 sweeps (ctest's ecosystem
                                                label; the long test checks them too)

A subject whose library is absent is listed as "not installed" (and --check says skipped, exit
77, when none is installed at all).
"""
import difflib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

BEGIN = "<!-- ecosystem-matrix: begin (scripts/ecosystem/matrix.py writes this block) -->"
END = "<!-- ecosystem-matrix: end -->"
SCALAR = ["scalar.convert", "scalar.decode"]
GGUF = ["gguf.decode", "gguf.quantize"]


def subjects(src: pathlib.Path, plugins: pathlib.Path):
    """(library, version note, subject args, suites, present) of every ecosystem subject."""
    eco = pathlib.Path(os.environ.get("NINFER_ECOSYSTEM_DIR", src / ".ecosystem"))
    node_pkg = eco / "node_modules" / "@petamoriken" / "float16"
    ggml_lib = eco / "node_modules" / "@node-llama-cpp" / "linux-x64" / "bins" / "linux-x64" / "libggml-base.so"

    def plugin(name):
        return ["--plugin", str(plugins / f"{name}.so")], (plugins / f"{name}.so").exists()

    def numpy_present():
        return shutil.which("/usr/bin/python3") and subprocess.run(
            ["/usr/bin/python3", "-c", "import numpy"], capture_output=True).returncode == 0

    rows = []
    args, ok = plugin("ecosystem_ggml")
    rows.append(("ggml (libggml-base.so)", "npm @node-llama-cpp/linux-x64 3.21.1", args, GGUF + SCALAR, ok and ggml_lib.exists()))
    for name, lib, note in [("ecosystem_fp16", "FP16 (PyTorch's and XNNPACK's fp16.h)", "Debian libfp16-dev 0.0~git20200514.4dfe081-3"),
                            ("ecosystem_eigen", "Eigen 3.4 half, bfloat16", "Debian libeigen3-dev 3.4.0-4"),
                            ("ecosystem_gcc_float16", "GCC _Float16 (libgcc soft-fp)", "Debian gcc 12.2.0-14"),
                            ("ecosystem_f16c", "x86 F16C (vcvtps2ph, vcvtph2ps)", "this CPU"),
                            ("ecosystem_rust_half", "Rust's half crate", "Debian librust-half-dev 1.6.0-2, rustc 1.63")]:
        args, ok = plugin(name)
        rows.append((lib, note, args, SCALAR, ok))
    # V8 without its optimizing tier: that tier keeps a signalling NaN the others quiet, so a run's
    # words would depend on when it kicks in (docs/ECOSYSTEM.md, "A JavaScript engine may change a NaN's bits").
    rows.append(("@petamoriken/float16 (JavaScript, Node.js)", "npm @petamoriken/float16 3.9.3, Node.js " + node_version() + " --no-opt",
                 ["--exec", f"node --no-opt {src / 'harness/plugins/ecosystem/float16_js.mjs'}"], SCALAR, node_pkg.exists()))
    ort = eco / "node_modules" / "onnxruntime-node"
    rows.append(("onnxruntime CPU Cast (Node.js)", "npm onnxruntime-node " + package_version(ort),
                 ["--exec", f"node {src / 'harness/plugins/ecosystem/onnxruntime_cast.mjs'}"], SCALAR, ort.exists()))
    rows.append(("numpy astype", "Debian python3-numpy " + deb_version("python3-numpy"),
                 ["--exec", f"/usr/bin/python3 {src / 'harness/examples/numpy_codec.py'}"], SCALAR, bool(numpy_present())))
    args, ok = plugin("cuda_host")
    rows.append(("NVIDIA host conversions (cuda_fp16.h, cuda_bf16.h, cuda_fp8.h)", "CUDA toolkit at /usr/local/cuda", args, SCALAR, ok))
    return rows


def package_version(pkg: pathlib.Path):
    try:
        return json.loads((pkg / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return "absent"


def node_version():
    try:
        return subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip() or "?"
    except OSError:
        return "absent"


def deb_version(pkg):
    r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True, text=True)
    return r.stdout.strip() or "absent"


def run_json(exe, args, extra, out):
    subprocess.run([exe, *extra, *args, "--json" if extra[0] == "fingerprint" else "--report", str(out)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return json.loads(out.read_text()) if out.exists() else None


def conversion_of(rule):
    """'fp32_to_fp16_rne' of convert.fp32_to_fp16_rne[.profile]; None for other rules."""
    m = re.match(r"convert\.([a-z0-9_]+)(\.([a-z_]+))?$", rule)
    return (m.group(1), m.group(3)) if m else (None, None)


def witness(case):
    m = (case.get("first_mismatches") or [{}])[0]
    if not m:
        return f"`{case['id']}`: {case.get('message', '')[:80]}"
    return f"`{m['inputs'][0] if m.get('inputs') else '-'}` -> `{m.get('actual', '?')}` (expected `{m.get('expected', '?')}`, {m.get('class', '?')})"


def failing_of(report):
    """{conversion: [(profile or None, case)]} of a run's failed convert cases."""
    failing = {}
    for c in report["cases"] if report else []:
        conv, profile = conversion_of(c["rule"])
        if conv and c["status"] in ("fail", "error", "crash", "timeout"):
            failing.setdefault(conv, []).append((profile, c))
    return failing


def scalar_rows(report, prints, judged):
    """One row per declared conversion: policy, verdict, verdict by its own point, witness, kind."""
    unsteady = {f["conversion"] for f in (report or {}).get("fingerprints", []) if "not deterministic" in f["sentence"]}
    by_conv = {}
    for f in prints.get("fingerprints", []) if prints else []:
        by_conv[f["conversion"]] = f
    failing = failing_of(report)
    by_point = failing_of(judged) if judged else {}
    rows = []
    for conv in sorted(by_conv):
        f = by_conv[conv]
        named = f.get("named") or ""
        policy = f["policy_text"] + (f" (= `{named}`)" if named and named != conv else "")
        fails = failing.get(conv, [])
        main = [c for p, c in fails if p is None]
        profiles = sorted({p for p, _ in fails if p})
        if not fails:
            verdict = "passes"
        else:
            verdict = "fails " + ", ".join([f"`convert.{conv}`"] * bool(main) + [f"`.{p}` (profile)" for p in profiles])
        first = witness((main or [c for _, c in fails])[0]) if fails else "-"
        point = f"`{f['point']}`: " + ("passes" if conv not in by_point else "fails " + witness(by_point[conv][0][1])) if fails else "-"
        if not fails:
            kind = "conforms"
        elif conv in unsteady:
            kind = "**not deterministic**: its cases got other words than its fingerprint for the same inputs"
        elif f["residue"]:
            r = f["residue"][0]
            w = r.get("first", {})
            count = f"{r['mismatches']:,}".replace(",", " ")
            kind = (f"**bug**: a residue no lattice point explains ({count} {r['class']} inputs, first "
                    f"`{w.get('input')}` -> `{w.get('actual')}` where the nearest point gives `{w.get('expected')}`)")
        elif conv in by_point:
            kind = "**bug**: it fails judged by the point that matches its fingerprint"
        elif main:
            kind = f"policy: implements {'`' + named + '`' if named else 'this lattice point'}, not `{conv}`"
        else:
            kind = "policy: a NaN profile rule only"
        rows.append((conv, policy, f"{f['matched']:,} of {f['inputs']:,} ({f['domain']})".replace(",", " "), verdict, point, first, kind))
    return rows


def gguf_rows(report):
    rows = []
    for suite in GGUF:
        cases = [c for c in report["cases"] if c.get("suite") == suite]
        judged = [c for c in cases if c["status"] != "unsupported"]
        fails = [c for c in judged if c["status"] != "pass"]
        types = sorted({c["rule"].split(".")[-1] for c in judged if c["rule"].startswith(suite + ".")})
        choices = {}
        for c in judged:
            if c.get("choice"):
                choices[c["choice"]] = choices.get(c["choice"], 0) + 1
        took = ", ".join(f"{k} {v}" for k, v in sorted(choices.items()))
        verdict = f"{'passes' if not fails else 'fails'}: {len(judged) - len(fails)} of {len(judged)} cases, {len(types)} types"
        rows.append((suite, "ggml's own " + ("dequantize_row_*" if suite == "gguf.decode" else "quantize_row_*_ref"),
                     "-", verdict + (f" (took {took})" if took else ""), "-", witness(fails[0]) if fails else "-",
                     "conforms" if not fails else "**fails**"))
    return rows


def cell(text):
    """A Markdown table cell: its pipes escaped (`|x|`)."""
    return str(text).replace("|", "\\|")


def sweep_text(exe, args, conv, out):
    """`sweep` of all 2^32 inputs of an fp32-source conversion of a plugin subject, against the declared conversion."""
    r = run_json(exe, args, ["sweep", "--conversion", conv, "--jobs", "2"], out)
    if not r or not r.get("cases"):
        return "no report"
    c = r["cases"][0]
    if c["status"] == "pass":
        return "passes"
    m = (c.get("first_mismatches") or [{}])[0]
    return f"{c['mismatches']:,} mismatches, first `{m.get('inputs', ['?'])[0]}` -> `{m.get('actual', '?')}` (expected `{m.get('expected', '?')}`)".replace(",", " ")


def generate(exe, src, quick=False):
    plugins = pathlib.Path(exe).resolve().parent.parent / "plugins"
    lines = ["| library | version | conversion or suite | policy (`fingerprint`) | inputs matched | `run --level full` "
             "| judged by that point (`run --policy`) | all 2^32 inputs (`sweep`) | first mismatch | kind |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    present = 0
    with tempfile.TemporaryDirectory() as tmp:
        t = pathlib.Path(tmp)
        for i, (lib, note, args, suites, ok) in enumerate(subjects(pathlib.Path(src), plugins)):
            if not ok:
                lines.append(f"| {lib} | {note} | - | not installed here | - | - | - | - | - | - |")
                continue
            present += 1
            suite_args = [a for s in suites for a in ("--suite", s)]
            report = run_json(exe, args, ["run", "--level", "full", *suite_args], t / f"r{i}.json")
            prints = run_json(exe, args, ["fingerprint", "--all"], t / f"f{i}.json")
            # The failing conversions judged again, each by the point its fingerprint names.
            points = [f"--policy=convert.{f['conversion']}={f['point']}" for f in (prints or {}).get("fingerprints", [])
                      if f.get("point") and f["conversion"] in failing_of(report)]
            judged = run_json(exe, args, ["run", "--level", "full", "--fingerprint", "none", *suite_args, *points],
                              t / f"p{i}.json") if points else None
            rows = (gguf_rows(report) if any(s in GGUF for s in suites) else []) + scalar_rows(report, prints, judged)
            for k, r in enumerate(rows):  # the library named on its first row only
                conv = r[0]
                if not conv.startswith("fp32_to_") or args[0] != "--plugin" or lib.startswith("NVIDIA"):
                    swept = "-"
                elif quick:
                    swept = QUICK
                else:
                    swept = sweep_text(exe, args, conv, t / f"s{i}_{conv}.json")
                cells = [lib if k == 0 else "", note if k == 0 else "", f"`{conv}`", r[1], r[2], r[3], r[4], swept, r[5], r[6]]
                lines.append("| " + " | ".join(cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n", present


QUICK = "(not swept: --quick)"
SPLIT = re.compile(r"(?<!\\)\|")


def masked(text):
    """The matrix with its sweep column (the 8th) blanked, for --quick."""
    out = []
    for line in text.splitlines(True):
        parts = SPLIT.split(line)
        if line.startswith("| ") and len(parts) == 12 and not line.startswith("| library") and not line.startswith("|---"):
            parts[8] = " (sweep) "
        out.append("|".join(parts))
    return "".join(out)


def main(argv):
    check = "--check" in argv
    quick = "--quick" in argv
    args = [a for a in argv if a not in ("--check", "--quick")]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    exe, src = args
    doc = pathlib.Path(src) / "docs" / "ECOSYSTEM.md"
    if BEGIN not in doc.read_text() or END not in doc.read_text():
        print(f"{doc}: no generated block ({BEGIN} ... {END})", file=sys.stderr)
        return 2
    if quick and not check:
        print("--quick only checks (it leaves the sweep column out)", file=sys.stderr)
        return 2
    table, present = generate(exe, src, quick)
    text = doc.read_text()  # read after the runs: an edit made meanwhile is kept
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = head + BEGIN + "\n" + table + END + tail
    if not check:
        doc.write_text(new)
        print(f"wrote {doc} ({present} subjects run)")
        return 0
    if present == 0:
        print("skipped: no ecosystem library is installed (scripts/ecosystem/install.sh)")
        return 77
    if quick:
        text, new = masked(text), masked(new)
    if new == text:
        print(f"{doc}: the matrix is what {present} subjects' runs give")
        return 0
    sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True), str(doc), "regenerated"))
    print(f"{doc}: stale; scripts/ecosystem/matrix.py {exe} {src} rewrites it", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
