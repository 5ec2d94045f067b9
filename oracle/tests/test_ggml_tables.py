#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of ggml's tables as project data (oracle/GGUF.md, "ggml's tables"; CTest, label oracle).

    test_ggml_tables.py fixture                      scripts/ggml_tables.py on a synthetic ggml-common.h
    test_ggml_tables.py source COMMITTED_JSON        it reproduces COMMITTED_JSON from $NINFER_GGML_SOURCE
    test_ggml_tables.py shared COMMITTED_JSON SRC    COMMITTED_JSON has the tables of SRC/../shared/data/

`source` and `shared` exit 77 (CTest: skipped) naming the place they looked when it is absent.
"""
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # importing the generator leaves no __pycache__ in scripts/
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "ggml_tables.py")
SKIP = 77
COMMIT = "0123456789abcdef0123456789abcdef01234567"

# ggml-common.h's shapes, not its numbers: the macro definitions a parser must not take for a
# table, comments (one holding GGML_TABLE_END()), upper- and lowercase hex with leading zeros,
# trailing commas, negative int8 entries, a size given by a #define, float constants with an f,
# and a table outside the selection (iq1s_grid_gpu) in the other branch of an #if.
FIXTURE = """\
#define QK_K 256
#define K_SCALE_SIZE 12
#define GGML_TABLE_BEGIN(type, name, size) static const type name[size] = {
#define GGML_TABLE_END() };

GGML_TABLE_BEGIN(uint8_t, kmask_iq2xs, 4)
    1, 2, /* a comment */ 4, 8
GGML_TABLE_END()

GGML_TABLE_BEGIN(uint8_t, ksigns_iq2xs, 3)
      0, 129, 255,  // GGML_TABLE_END() in a comment ends nothing
GGML_TABLE_END()

GGML_TABLE_BEGIN(uint64_t, ksigns64, 2)
    0x0000000000000000, 0xFF000000000000ff,
GGML_TABLE_END()

GGML_TABLE_BEGIN(uint64_t, iq2xxs_grid, 1)
    0x0808080808080808,
GGML_TABLE_END()

GGML_TABLE_BEGIN(uint64_t, iq2xs_grid, 2)
    0x080808080808082b, 0x0808080808081919,
GGML_TABLE_END()

GGML_TABLE_BEGIN(uint64_t, iq2s_grid, 1)
    0xffffffffffffffff,
GGML_TABLE_END()

GGML_TABLE_BEGIN(uint32_t, iq3xxs_grid, 2)
    0x04040404, 0x3e1c1c1c,
GGML_TABLE_END()

GGML_TABLE_BEGIN(uint32_t, iq3s_grid, 1)
    0x01010101,
GGML_TABLE_END()

GGML_TABLE_BEGIN(int8_t, kvalues_iq4nl, 4)
    -127, -104, 113, 0,
GGML_TABLE_END()

GGML_TABLE_BEGIN(int8_t, kvalues_fp4, 3)
    0, -12, 12,
GGML_TABLE_END()
#define kvalues_mxfp4 kvalues_fp4

#define NGRID_IQ1S 3
#define IQ1S_DELTA 0.125f
#define IQ1M_DELTA 0.0625f
#if defined(GGML_COMMON_IMPL_C)
GGML_TABLE_BEGIN(uint64_t, iq1s_grid, NGRID_IQ1S)
    0xffffffffffffffff, 0xffffffffffffff01, 0x0000000000000001,
GGML_TABLE_END()
#else
GGML_TABLE_BEGIN(uint32_t, iq1s_grid_gpu, NGRID_IQ1S)
    0x00000000, 0x00000002, 0x00000101,
GGML_TABLE_END()
#endif
"""


def table(ctype, values):
    return {"c_type": ctype, "count": len(values), "values": values}


def expected(commit=COMMIT, date="2026-01-02"):
    """The JSON the fixture must give, written out by hand."""
    return {
        "description": "Lookup tables that define the ggml block formats (grids, sign tables, non-linear code "
                       "books), as numbers. Source: ggml-common.h of the ggml project (MIT), snapshot of "
                       f"{date}. Values are the table entries in order; 64- and 32-bit unsigned entries are "
                       "written as hex strings.",
        "provenance": {"repository": "https://github.com/ggml-org/ggml", "commit": commit,
                       "path": "src/ggml-common.h", "license": "MIT", "date": date},
        "constants": {"QK_K": 256, "NGRID_IQ1S": 3, "IQ1S_DELTA": 0.125, "IQ1M_DELTA": 0.0625},
        "tables": {
            "kmask_iq2xs": table("uint8_t", [1, 2, 4, 8]),
            "ksigns_iq2xs": table("uint8_t", [0, 129, 255]),
            "ksigns64": table("uint64_t", ["0x0", "0xff000000000000ff"]),
            "iq2xxs_grid": table("uint64_t", ["0x808080808080808"]),
            "iq2xs_grid": table("uint64_t", ["0x80808080808082b", "0x808080808081919"]),
            "iq2s_grid": table("uint64_t", ["0xffffffffffffffff"]),
            "iq3xxs_grid": table("uint32_t", ["0x4040404", "0x3e1c1c1c"]),
            "iq3s_grid": table("uint32_t", ["0x1010101"]),
            "kvalues_iq4nl": table("int8_t", [-127, -104, 113, 0]),
            "kvalues_fp4": table("int8_t", [0, -12, 12]),
            "iq1s_grid": table("uint64_t", ["0xffffffffffffffff", "0xffffffffffffff01", "0x1"]),
        },
    }


def generator(*args, cwd=None):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, cwd=cwd)


class Fixture(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ninfer-ggml-tables.")
        self.addCleanup(shutil.rmtree, self.dir)
        self.tree = os.path.join(self.dir, "ggml")
        self.header(FIXTURE)
        self.out = os.path.join(self.dir, "tables.json")

    def header(self, text):
        os.makedirs(os.path.join(self.tree, "src"), exist_ok=True)
        with open(os.path.join(self.tree, "src", "ggml-common.h"), "w") as f:
            f.write(text)

    def generate(self, *extra):
        return generator(self.tree, "--commit", COMMIT, "--date", "2026-01-02", *extra)

    def refused(self, needle, *args):
        """The generator exits 2 with one line that contains needle, and writes no --out file."""
        r = generator(*args) if args else self.generate("--out", self.out)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
        self.assertIn(needle, r.stderr)
        self.assertFalse(os.path.exists(self.out))

    def test_writes_every_table_constant_and_the_provenance(self):
        r = self.generate("--out", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.out) as f:
            text = f.read()
        self.assertEqual(json.loads(text), expected())
        self.assertEqual(text, json.dumps(expected(), indent=1) + "\n")  # key order and layout too
        self.assertEqual(self.generate().stdout, text)  # without --out: the same on stdout

    def test_check_accepts_its_own_output_and_names_the_first_difference(self):
        self.assertEqual(self.generate("--out", self.out).returncode, 0)
        self.assertEqual(self.generate("--check", self.out).returncode, 0)
        doc = expected()
        doc["tables"]["iq1s_grid"]["values"][2] = "0x2"
        with open(self.out, "w") as f:
            f.write(json.dumps(doc, indent=1) + "\n")
        r = self.generate("--check", self.out)
        self.assertEqual(r.returncode, 1)
        self.assertIn('tables.iq1s_grid.values[2] is "0x2", the header says "0x1"', r.stderr)

    def test_reads_commit_and_date_from_a_git_checkout(self):
        if not shutil.which("git"):
            self.skipTest("no git")
        env = dict(os.environ, GIT_COMMITTER_DATE="2025-03-04T05:06:07Z", GIT_AUTHOR_DATE="2025-03-04T05:06:07Z",
                   GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
        for cmd in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "fixture"]):
            subprocess.run(["git", "-C", self.tree, *cmd], check=True, env=env, capture_output=True)
        head = subprocess.run(["git", "-C", self.tree, "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        r = generator(self.tree)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout), expected(head, "2025-03-04"))

    def test_refuses_a_tree_without_commit_or_header(self):
        self.refused("is not a git checkout: give --commit", self.tree, "--out", self.out)
        self.refused("is not a 40-digit", self.tree, "--commit", "abc", "--date", "2026-01-02")
        self.refused("cannot read", self.dir, "--commit", COMMIT, "--date", "2026-01-02")

    def test_refuses_a_missing_table_or_constant(self):
        self.header(FIXTURE.replace("kvalues_fp4, 3", "kvalues_fp8, 3"))
        self.refused("has no table kvalues_fp4")
        self.header(FIXTURE.replace("#define IQ1M_DELTA 0.0625f", ""))
        self.refused("has no constant IQ1M_DELTA")

    def test_refuses_a_count_or_entry_its_declaration_does_not_allow(self):
        self.header(FIXTURE.replace("ksigns64, 2", "ksigns64, 3"))
        self.refused("table ksigns64: 2 values, its declaration says 3")
        self.header(FIXTURE.replace("0, 129, 255,", "0, 129, 256,"))
        self.refused("table ksigns_iq2xs: entry 2 = 256 is outside uint8_t")
        self.header(FIXTURE.replace("-127, -104", "-127, x104"))
        self.refused("table kvalues_iq4nl: 'x104' is not an integer literal")

    def test_a_failed_run_leaves_an_existing_out_file_as_it_was(self):
        with open(self.out, "w") as f:
            f.write("before")
        self.header(FIXTURE.replace("ksigns64, 2", "ksigns64, 3"))
        self.assertEqual(self.generate("--out", self.out).returncode, 2)
        with open(self.out) as f:
            self.assertEqual(f.read(), "before")
        self.assertEqual(sorted(os.listdir(self.dir)), ["ggml", "tables.json"])  # no temporary left


def from_source(committed):
    """scripts/ggml_tables.py --check COMMITTED against $NINFER_GGML_SOURCE (a ggml git checkout)."""
    source = os.environ.get("NINFER_GGML_SOURCE", "")
    if not source:
        print("skipped: NINFER_GGML_SOURCE is not set (a ggml git checkout to regenerate the tables from)")
        return SKIP
    if not os.path.isfile(os.path.join(source, "src", "ggml-common.h")):
        print(f"skipped: no src/ggml-common.h under NINFER_GGML_SOURCE={source}")
        return SKIP
    r = generator(source, "--check", committed)
    sys.stdout.write(r.stdout + r.stderr)
    return r.returncode


def same_as_shared(committed, source_dir):
    """COMMITTED's constants and tables equal those of ../shared/data/ggml-tables.json, if there."""
    shared = os.path.normpath(os.path.join(source_dir, "..", "shared", "data", "ggml-tables.json"))
    if not os.path.isfile(shared):
        print(f"skipped: {shared} does not exist (no ../shared beside the source tree)")
        return SKIP
    spec = importlib.util.spec_from_file_location("ggml_tables", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with open(shared) as a, open(committed) as b:
        want, got = json.load(a), json.load(b)
    for key in ("constants", "tables"):
        diff = module.first_difference(want[key], got[key], key)
        if diff:
            print(f"{committed} differs from {shared}: {diff.replace('the header', shared)}")
            return 1
    print(f"{committed} has the constants and tables of {shared}")
    return 0


def main(argv):
    if argv[:1] == ["fixture"]:
        return 0 if unittest.main(argv=[argv[0], "-v"], exit=False).result.wasSuccessful() else 1
    if argv[:1] == ["source"] and len(argv) == 2:
        return from_source(argv[1])
    if argv[:1] == ["shared"] and len(argv) == 3:
        return same_as_shared(argv[1], argv[2])
    print("usage: test_ggml_tables.py fixture | source COMMITTED_JSON | shared COMMITTED_JSON SOURCE_DIR",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
