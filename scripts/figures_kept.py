#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Proof that a rewrite of the README lost no figure (issue 23, "The README"): every number,
# commit and date of README.md at an old revision must still stand in the documents that took
# them over (README.md, docs/*.md, the CHANGELOGs). Prints each missing figure with its old
# line and exits 1 when one is missing.
#
#   python3 scripts/figures_kept.py [OLD_REV]      # default 771786d, the last 582+ line README
import glob
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A figure: a number with its digit groups ("9 000", "2 219 524", "2.24e9", "10^7") or a date.
FIGURE = re.compile(r"\d{4}-\d{2}-\d{2}|\d+(?:[.,]\d+)*(?: \d{3})*(?:e[+-]?\d+)?(?:\^\d+)?")
# A commit: seven or more hex digits with at least one letter and one digit.
COMMIT = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b")


def flat(text):
    """Whitespace runs as one space, so that a figure may wrap differently."""
    return re.sub(r"\s+", " ", text)


def old_readme(rev):
    return subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:README.md"],
                          check=True, capture_output=True, text=True).stdout


def new_corpus():
    paths = ["README.md", "CHANGELOG.md", *glob.glob(str(ROOT / "CHANGELOG.*.md")),
             *glob.glob(str(ROOT / "docs" / "*.md"))]
    return flat("\n".join((ROOT / p).read_text() for p in paths))


def figures(text):
    return FIGURE.findall(text) + COMMIT.findall(text)


def missing_figures(old, corpus):
    """(paragraph number, figure, paragraph) for every figure of `old` that `corpus` lacks,
    both cut into figures the same way."""
    kept = set(figures(corpus))
    return [(n, fig, line.strip()) for n, line in enumerate(old.splitlines(), 1)
            for fig in figures(line) if fig not in kept]


def main():
    rev = sys.argv[1] if len(sys.argv) > 1 else "771786d"
    missing = missing_figures(flat_lines(old_readme(rev)), new_corpus())
    for n, fig, line in missing:
        print(f"README.md@{rev}, paragraph {n}: {fig!r} missing: {line[:120]}")
    print(f"{len(missing)} figures of README.md@{rev} missing from README.md, docs/*.md and the CHANGELOGs")
    return 1 if missing else 0


def flat_lines(text):
    """The old README with every paragraph on one line, so that a figure split by a wrap is whole."""
    return "\n".join(flat(p) for p in re.split(r"\n\s*\n", text))


if __name__ == "__main__":
    sys.exit(main())
